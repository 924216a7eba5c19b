import type { ReadTransaction, Store, WriteTransaction } from '../../src/store/types.js';

/** A store that counts the records its transactions read (`get`, and each id of `getMany`) and the lists they ask for, by table; see countingStore. */
export interface CountingStore {
  readonly store: Store;
  /** How many `get` calls a table had since the last reset (0 when none). */
  readsOf(table: string): number;
  /** How many `list` calls a table had since the last reset (0 when none). */
  listsOf(table: string): number;
  /** Starts counting from zero. */
  reset(): void;
}

/**
 * Wraps a store so that every `get` and `list` of every transaction is counted by table, and otherwise passes
 * everything through: what a piece of work reads is then a number a test can bound (the map nodes of a
 * merge), where timing would depend on the machine.
 */
export function countingStore(inner: Store): CountingStore {
  const reads = new Map<string, number>();
  const lists = new Map<string, number>();
  const count = (calls: Map<string, number>, table: string) => calls.set(table, (calls.get(table) ?? 0) + 1);
  const reading = (tx: ReadTransaction): ReadTransaction => ({
    get: (table, id) => {
      count(reads, table);
      return tx.get(table, id);
    },
    getMany: (table, ids) => {
      for (let i = 0; i < ids.length; i++) count(reads, table);
      return tx.getMany(table, ids);
    },
    list: (table, query) => {
      count(lists, table);
      return tx.list(table, query);
    },
  });
  const writing = (tx: WriteTransaction): WriteTransaction => ({
    ...reading(tx),
    insert: (table, record) => tx.insert(table, record),
    put: (table, record) => tx.put(table, record),
    delete: (table, id) => tx.delete(table, id),
    lock: (scope, mode) => tx.lock(scope, mode),
    nextNumber: (counter, floor) => tx.nextNumber(counter, floor),
  });
  const store: Store = {
    read: (fn) => inner.read((tx) => fn(reading(tx))),
    write: (fn, options) => inner.write((tx) => fn(writing(tx)), options),
    ready: () => inner.ready(),
    close: () => inner.close(),
  };
  return {
    store,
    readsOf: (table) => reads.get(table) ?? 0,
    listsOf: (table) => lists.get(table) ?? 0,
    reset: () => {
      reads.clear();
      lists.clear();
    },
  };
}
