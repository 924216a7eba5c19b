import { Engine, type TablesData } from '../../src/store/engine.js';
import type { Store } from '../../src/store/types.js';

/** A memory store whose whole content a test can take: see inspectableStore. */
export interface InspectableStore extends Store {
  /** Every table as it is now (records are frozen, so an earlier result stays as it was). */
  tables(): TablesData;
}

/**
 * A memory store (the Engine that createMemoryStore wraps) that also hands out its tables: to compare what
 * is stored before and after a request, or to copy the state into a new store with a record altered.
 */
export function inspectableStore(initial: TablesData = {}): InspectableStore {
  const engine = new Engine(initial);
  return {
    read: (fn) => engine.read(fn),
    write: async (fn) => (await engine.write(fn)).result,
    close: async () => undefined,
    tables: () => engine.snapshot(),
  };
}
