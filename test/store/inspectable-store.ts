import type { TablesData } from '../../src/store/engine.js';
import { memoryEngine, memoryStoreOf } from '../../src/store/memory.js';
import type { Store } from '../../src/store/types.js';

/** A memory store whose whole content a test can take: see inspectableStore. */
export interface InspectableStore extends Store {
  /** Every table as it is now (records are frozen, so an earlier result stays as it was). */
  tables(): TablesData;
}

/**
 * A memory store that also hands out its tables: to compare what is stored before and after a request, or
 * to copy the state into a new store with a record altered.
 */
export function inspectableStore(initial: TablesData = {}): InspectableStore {
  const engine = memoryEngine(initial);
  return {
    ...memoryStoreOf(engine),
    tables: () => Object.fromEntries(engine.captureVisible().tables.map(([table, records]) => [table, Object.fromEntries(records.map((r) => [r.id, r]))])),
  };
}
