import { Engine, type TablesData } from './engine.js';
import { StoreClosedError, type Store } from './types.js';

/** Creates a store that keeps everything in memory: fast, and gone when the process ends. */
export function createMemoryStore(initial: TablesData = {}): Store {
  const engine = new Engine(initial);
  let closed = false;
  const check = () => {
    if (closed) throw new StoreClosedError();
  };
  return {
    async read(fn) {
      check();
      return engine.read(fn);
    },
    async write(fn) {
      check();
      return (await engine.write(fn)).result;
    },
    async close() {
      closed = true;
    },
  };
}
