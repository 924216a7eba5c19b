import { History } from './history.js';
import { listMerged } from './merged-list.js';
import { SortedIndex, indexName } from './sorted-index.js';
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
 * A read transaction: the state at one sequence number, whatever commits while it runs. A new object per
 * transaction (per-transaction memos key on it), with its methods on the prototype so that opening one
 * makes no closures (the hot path of every read).
 */
class PinnedRead implements ReadTransaction {
  constructor(
    private readonly engine: Engine,
    private readonly seq: number,
  ) {}

  async get(table: string, id: string): Promise<StoredRecord | undefined> {
    return this.engine.getAt(table, id, this.seq);
  }

  async getMany(table: string, ids: readonly string[]): Promise<(StoredRecord | undefined)[]> {
    return ids.map((id) => this.engine.getAt(table, id, this.seq));
  }

  async list(table: string, query: ListQuery): Promise<ListResult> {
    return this.engine.listAt(table, query, this.seq);
  }
}

/** Options of an engine. */
export interface EngineOptions {
  /**
   * Whether a commit is visible to reads as soon as it is applied (a store with nothing to wait for).
   * Otherwise reads see only what `publish` has made visible: a durable store publishes a commit once
   * it is on disk.
   */
  visibleOnCommit?: boolean;
}

/** What a write transaction left: fn's result, its changes, and where it stands. */
export interface Committed<T> {
  readonly result: T;
  /** What it changed (empty when nothing). */
  readonly changes: Change[];
  /** Its sequence number, or, when it changed nothing, the one of the state it read. */
  readonly seq: number;
  /** The engine's generation when it committed: a rollback starts a new one (see `rollbackTo`). */
  readonly generation: number;
}

/** A write transaction that failed, and the sequence number of the state it read (see `WriteFailure`). */
export class WriteFailure extends Error {
  constructor(
    readonly error: unknown,
    readonly seq: number,
  ) {
    super('A write transaction failed');
  }
}

/**
 * The in-memory heart shared by the stores: tables of frozen records, lazily built sorted indexes,
 * and transactions. Writes are applied one at a time; a write transaction buffers its changes and
 * applies them in one synchronous step when `fn` returns, so no one sees half of one.
 *
 * Write transactions read the latest applied state. Read transactions read the state at the visible
 * sequence when they began, from start to end: a History keeps what later commits replaced. A durable
 * store makes a commit visible once it is on disk, and rolls back the commits that never got there.
 */
export class Engine {
  private readonly tables = new Map<string, Map<string, StoredRecord>>();
  private readonly indexes = new Map<string, Map<string, SortedIndex>>();
  private readonly history = new History();
  private writeQueue: Promise<unknown> = Promise.resolve();
  /** How many write transactions that changed something have been applied: the sequence of the last one. */
  private applied = 0;
  /** The sequence reads see. */
  private visible = 0;
  private rollbacks = 0;
  /**
   * The last number each counter gave (nextNumber), in memory: numbers are kept by the records that use
   * them, whose highest the caller passes as the floor, so forgetting a counter at reopen repeats none that
   * a record holds. A number of a transaction that failed is skipped.
   */
  private readonly numbers = new Map<string, number>();
  private readonly visibleOnCommit: boolean;

  constructor(data: TablesData = {}, options: EngineOptions = {}) {
    this.visibleOnCommit = options.visibleOnCommit ?? false;
    for (const [table, records] of Object.entries(data)) {
      const rows = this.table(table);
      for (const [id, record] of Object.entries(records)) rows.set(id, deepFreeze(record));
    }
  }

  /** Runs a read transaction over the visible state, pinned for its whole run. */
  async read<T>(fn: (tx: ReadTransaction) => Promise<T>): Promise<T> {
    const seq = this.visible;
    this.history.pin(seq);
    try {
      return await fn(new PinnedRead(this, seq));
    } finally {
      this.history.unpin(seq);
      this.history.forget(this.visible);
    }
  }

  /**
   * Runs a write transaction after every earlier one, over the latest applied state. On success it is
   * applied (visible only once published, unless `visibleOnCommit`); on failure nothing is applied and it
   * rejects with a WriteFailure carrying fn's error.
   */
  write<T>(fn: (tx: WriteTransaction) => Promise<T>): Promise<Committed<T>> {
    return this.exclusive(() => this.runWrite(fn));
  }

  /** Runs `step` in the write queue's turn: after every write before it, before every write after it. */
  exclusive<T>(step: () => T | Promise<T>): Promise<T> {
    const run = this.writeQueue.then(step);
    this.writeQueue = run.catch(() => undefined);
    return run;
  }

  /** The sequence number of the last applied write transaction that changed something. */
  get sequence(): number {
    return this.applied;
  }

  /** The sequence number of the state reads see. */
  get visibleSequence(): number {
    return this.visible;
  }

  /** How many rollbacks there have been: a commit made in an earlier generation was rolled back. */
  get generation(): number {
    return this.rollbacks;
  }

  /** Makes the applied state up to `seq` visible to reads (a durable store: once it is on disk). */
  publish(seq: number): void {
    if (seq <= this.visible) return;
    this.visible = Math.min(seq, this.applied);
    this.history.forget(this.visible);
  }

  /**
   * Undoes every applied commit after `seq`, newest first, and starts a new generation. Only in the write
   * queue's turn (`exclusive`), and never below the visible state: no reader has seen what it undoes.
   */
  rollbackTo(seq: number): number {
    if (seq < this.visible) throw new Error(`Cannot roll back to ${seq}: ${this.visible} is visible`);
    const undone = this.history.takeAfter(seq);
    for (const undo of undone) {
      const overlay = new Map<string, Map<string, StoredRecord | null>>();
      for (const [table, id, before] of undo.changes) {
        let staged = overlay.get(table);
        if (!staged) overlay.set(table, (staged = new Map()));
        staged.set(id, before);
      }
      this.apply(overlay);
    }
    this.applied = seq;
    this.rollbacks++;
    return undone.length;
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
    this.visible = this.applied;
  }

  /** Starts the sequence at the one a snapshot was taken at. */
  resumeAt(seq: number): void {
    this.applied = seq;
    this.visible = seq;
  }

  /**
   * Every table's records in the visible state, for a snapshot: records shared, not copied, taken in one
   * synchronous step. Commits applied but not yet visible are left out.
   */
  captureVisible(): { sequence: number; tables: [table: string, records: StoredRecord[]][] } {
    const seq = this.visible;
    const tables: [string, StoredRecord[]][] = [];
    for (const [table, rows] of this.tables) {
      if (!this.history.tableChangedAfter(table, seq)) {
        tables.push([table, [...rows.values()]]);
        continue;
      }
      const overlay = this.history.overlayAt(table, seq);
      const records: StoredRecord[] = [];
      for (const [id, record] of rows) if (!overlay.has(id)) records.push(record);
      for (const record of overlay.values()) if (record) records.push(record);
      tables.push([table, records]);
    }
    return { sequence: seq, tables };
  }

  /** A record as a read of the state at `seq` sees it. */
  getAt(table: string, id: string, seq: number): StoredRecord | undefined {
    if (this.history.changedAfter(seq)) {
      const then = this.history.at(table, id, seq);
      if (then !== undefined) return then ?? undefined;
    }
    return this.tables.get(table)?.get(id);
  }

  /** A list as a read of the state at `seq` sees it. */
  listAt(table: string, query: ListQuery, seq: number): ListResult {
    const overlay = this.history.tableChangedAfter(table, seq) ? this.history.overlayAt(table, seq) : undefined;
    return listMerged(this.index(table, query), this.table(table), query, overlay);
  }

  private async runWrite<T>(fn: (tx: WriteTransaction) => Promise<T>): Promise<Committed<T>> {
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
      getMany: async (table, ids) => ids.map((id) => get(table, id)),
      list: async (table, query) => listMerged(this.index(table, query), this.table(table), query, overlay.get(table)),
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
      // Writes run one at a time: every scope is held already.
      lock: async () => guard(),
      nextNumber: async (counter, floor) => {
        guard();
        const next = Math.max(this.numbers.get(counter) ?? 0, Math.floor(floor)) + 1;
        this.numbers.set(counter, next);
        return next;
      },
    };
    let result: T;
    try {
      result = await fn(tx);
    } catch (error) {
      throw new WriteFailure(error, this.applied);
    } finally {
      open = false;
    }
    const undo: [string, string, StoredRecord | null][] = [];
    const changes = this.apply(overlay, undo);
    if (changes.length > 0) {
      this.applied++;
      this.history.record({ seq: this.applied, changes: undo });
      if (this.visibleOnCommit) this.publish(this.applied);
    }
    return { result, changes, seq: this.applied, generation: this.rollbacks };
  }

  /** Applies staged changes to the tables and their built indexes, in one synchronous step; `undo` collects the befores. */
  private apply(overlay: Map<string, Map<string, StoredRecord | null>>, undo?: [string, string, StoredRecord | null][]): Change[] {
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
        undo?.push([table, id, before ?? null]);
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
}

/** Freezes a JSON value and everything inside it, so that no caller can change a stored record. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
