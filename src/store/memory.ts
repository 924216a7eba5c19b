import { Engine, WriteFailure, type TablesData } from './engine.js';
import { StoreClosedError, type Store } from './types.js';

/** Creates a store that keeps everything in memory: fast, and gone when the process ends. */
export function createMemoryStore(initial: TablesData = {}): Store {
  return memoryStoreOf(memoryEngine(initial));
}

/** The engine of a memory store: nothing to wait for, so a commit is visible to reads as soon as it is applied. */
export const memoryEngine = (initial: TablesData = {}) => new Engine(initial, { visibleOnCommit: true });

/** The memory store over an engine made by memoryEngine (tests keep the engine to look inside). */
export function memoryStoreOf(engine: Engine): Store {
  let closed = false;
  const check = () => {
    if (closed) throw new StoreClosedError();
  };
  return {
    // Not async: the engine's promise is returned as it is (as the JSON-file store's read).
    read(fn) {
      return closed ? Promise.reject(new StoreClosedError()) : engine.read(fn);
    },
    // One write at a time holds every scope: declared locks (options.locks) need nothing more.
    async write(fn) {
      check();
      try {
        return (await engine.write(fn)).result;
      } catch (error) {
        throw error instanceof WriteFailure ? error.error : error;
      }
    },
    async ready() {
      check();
    },
    async close() {
      closed = true;
    },
  };
}
