import { SortedIndex, compareKeys, groupOf, indexName, sortKeyOf } from './sorted-index.js';
import {
  StoreConflictError,
  type ListQuery,
  type ListResult,
  type ReadTransaction,
  type StoredRecord,
  type WriteTransaction,
} from './types.js';

/** The tables of a store as plain objects: table name → record id → record. The JSON file holds this. */
export type TablesData = Record<string, Record<string, StoredRecord>>;

/** One committed change: the table, the id, and the new record or null for a delete. */
export interface Change {
  table: string;
  id: string;
  record: StoredRecord | null;
}

/**
 * A read transaction over the committed state: a new object per transaction (per-transaction memos key on
 * it), with its methods on the prototype so that opening one makes no closures (the hot path of every read).
 */
class CommittedRead implements ReadTransaction {
  constructor(
    private readonly tables: ReadonlyMap<string, ReadonlyMap<string, StoredRecord>>,
    private readonly engine: Engine,
  ) {}

  async get(table: string, id: string): Promise<StoredRecord | undefined> {
    return this.tables.get(table)?.get(id);
  }

  async list(table: string, query: ListQuery): Promise<ListResult> {
    return this.engine.list(table, query);
  }
}

/**
 * The in-memory heart shared by the stores: tables of frozen records, lazily built sorted indexes,
 * and transactions. Writes are applied one at a time; a write transaction buffers its changes and
 * applies them in one synchronous step when `fn` returns, so readers never see half of one.
 */
export class Engine {
  private readonly tables = new Map<string, Map<string, StoredRecord>>();
  private readonly indexes = new Map<string, Map<string, SortedIndex>>();
  private writeQueue: Promise<unknown> = Promise.resolve();
  /** How many write transactions that changed something have been applied: the sequence of the last one. */
  private applied = 0;

  constructor(data: TablesData = {}) {
    for (const [table, records] of Object.entries(data)) {
      const rows = this.table(table);
      for (const [id, record] of Object.entries(records)) rows.set(id, deepFreeze(record));
    }
  }

  /** Runs a read transaction over the committed state. */
  async read<T>(fn: (tx: ReadTransaction) => Promise<T>): Promise<T> {
    return fn(new CommittedRead(this.tables, this));
  }

  /**
   * Runs a write transaction after every earlier one; resolves with fn's result and the changes it
   * committed (empty when it changed nothing). On failure nothing is applied.
   */
  write<T>(fn: (tx: WriteTransaction) => Promise<T>): Promise<{ result: T; changes: Change[]; seq: number }> {
    const run = this.writeQueue.then(() => this.runWrite(fn));
    this.writeQueue = run.catch(() => undefined);
    return run;
  }

  /** The sequence number of the last applied write transaction that changed something. */
  get sequence(): number {
    return this.applied;
  }

  /**
   * Applies changes recovered from a journal (outside any transaction, before the store opens) and
   * moves the sequence to `seq`. Changes are whole records, so applying one twice is harmless.
   */
  replay(seq: number, changes: readonly Change[]): void {
    const overlay = new Map<string, Map<string, StoredRecord | null>>();
    for (const { table, id, record } of changes) {
      let staged = overlay.get(table);
      if (!staged) overlay.set(table, (staged = new Map()));
      staged.set(id, record === null ? null : deepFreeze(record));
    }
    this.apply(overlay);
    this.applied = Math.max(this.applied, seq);
  }

  /** Starts the sequence at the one a snapshot was taken at. */
  resumeAt(seq: number): void {
    this.applied = seq;
  }

  /** Every table as plain objects (records shared, not copied). */
  snapshot(): TablesData {
    const out: TablesData = {};
    for (const [name, rows] of this.tables) out[name] = Object.fromEntries(rows);
    return out;
  }

  /** The names of the tables and their records, for serializers that stream. */
  entries(): IterableIterator<[string, Map<string, StoredRecord>]> {
    return this.tables.entries();
  }

  private async runWrite<T>(fn: (tx: WriteTransaction) => Promise<T>) {
    const overlay = new Map<string, Map<string, StoredRecord | null>>();
    const staged = (table: string) => {
      let changes = overlay.get(table);
      if (!changes) overlay.set(table, (changes = new Map()));
      return changes;
    };
    const get = (table: string, id: string): StoredRecord | undefined => {
      const changed = overlay.get(table);
      if (changed?.has(id)) return changed.get(id) ?? undefined;
      return this.tables.get(table)?.get(id);
    };
    let open = true;
    const guard = () => {
      if (!open) throw new Error('This write transaction has ended');
    };
    const tx: WriteTransaction = {
      get: async (table, id) => get(table, id),
      list: async (table, query) => {
        const changed = overlay.get(table);
        return changed && changed.size > 0 ? this.listWithChanges(table, query, changed) : this.list(table, query);
      },
      insert: async (table, record) => {
        guard();
        if (get(table, record.id) !== undefined) throw new StoreConflictError(table, record.id);
        staged(table).set(record.id, deepFreeze(record));
      },
      put: async (table, record) => {
        guard();
        staged(table).set(record.id, deepFreeze(record));
      },
      delete: async (table, id) => {
        guard();
        const existed = get(table, id) !== undefined;
        if (existed) staged(table).set(id, null);
        return existed;
      },
    };
    try {
      const result = await fn(tx);
      const changes = this.apply(overlay);
      if (changes.length > 0) this.applied++;
      return { result, changes, seq: this.applied };
    } finally {
      open = false;
    }
  }

  /** Applies staged changes to the tables and their built indexes; one synchronous step. */
  private apply(overlay: Map<string, Map<string, StoredRecord | null>>): Change[] {
    const changes: Change[] = [];
    for (const [table, staged] of overlay) {
      const rows = this.table(table);
      const built = this.indexes.get(table);
      for (const [id, record] of staged) {
        const before = rows.get(id);
        if (before === undefined && record === null) continue;
        if (built) {
          for (const index of built.values()) {
            if (before) index.remove(before);
            if (record) index.add(record);
          }
        }
        if (record) rows.set(id, record);
        else rows.delete(id);
        changes.push({ table, id, record });
      }
    }
    return changes;
  }

  private table(name: string): Map<string, StoredRecord> {
    let rows = this.tables.get(name);
    if (!rows) this.tables.set(name, (rows = new Map()));
    return rows;
  }

  private index(table: string, query: ListQuery): SortedIndex {
    let built = this.indexes.get(table);
    if (!built) this.indexes.set(table, (built = new Map()));
    const name = indexName(query.index);
    let index = built.get(name);
    if (!index) {
      index = new SortedIndex(query.index);
      for (const record of this.table(table).values()) index.add(record);
      built.set(name, index);
    }
    return index;
  }

  /** A list over the committed state (read transactions call it). */
  list(table: string, query: ListQuery): ListResult {
    const index = this.index(table, query);
    const rows = this.table(table);
    const { value, where, limit } = query;
    const order = query.order ?? 'asc';
    const items: StoredRecord[] = [];
    if (!where) {
      if (limit !== 0) {
        for (const id of index.ids(value, order, query.after)) {
          items.push(rows.get(id)!);
          if (limit !== undefined && items.length >= limit) break;
        }
      }
      return { items, count: index.size(value) };
    }
    let count = 0;
    const direction = order === 'asc' ? 1 : -1;
    for (const id of index.ids(value, order)) {
      const record = rows.get(id)!;
      if (!where(record)) continue;
      count++;
      if (limit !== undefined && items.length >= limit) continue;
      if (query.after && direction * compareKeys(sortKeyOf(index.def, record)!, query.after) <= 0) continue;
      items.push(record);
    }
    return { items, count };
  }

  /** A list inside a write transaction that changed the table: merges the staged records, then sorts. */
  private listWithChanges(table: string, query: ListQuery, staged: Map<string, StoredRecord | null>): ListResult {
    const def = query.index;
    const matches: StoredRecord[] = [];
    for (const record of this.list(table, { index: def, value: query.value }).items) {
      if (!staged.has(record.id)) matches.push(record);
    }
    for (const record of staged.values()) {
      if (record && groupOf(def, record) === query.value && sortKeyOf(def, record)) matches.push(record);
    }
    const direction = query.order === 'desc' ? -1 : 1;
    const keyed = matches
      .filter((record) => !query.where || query.where(record))
      .map((record) => ({ record, key: sortKeyOf(def, record)! }))
      .sort((a, b) => direction * compareKeys(a.key, b.key));
    const after = query.after;
    const remaining = after ? keyed.filter((entry) => direction * compareKeys(entry.key, after) > 0) : keyed;
    const items = remaining.slice(0, query.limit ?? remaining.length).map((entry) => entry.record);
    return { items, count: keyed.length };
  }
}

/** Freezes a JSON value and everything inside it, so that no caller can change a stored record. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
