/**
 * The Store: where docs-platform keeps its records. The core talks to it only through this interface,
 * so the in-memory store, the JSON-file store and any later networked store are interchangeable.
 *
 * Records are plain JSON objects with a string `id`, grouped in named tables. A store keeps no
 * domain rules: cursors, ordering keys, counts and permissions are computed by the core.
 */

/** A value a record can be indexed or ordered by. */
export type Scalar = string | number | boolean | null;

/** A stored record: a JSON object with a string id. Stores hand them out frozen; never mutate one. */
export type StoredRecord = { readonly id: string } & { readonly [field: string]: unknown };

/**
 * An index: the records of one table grouped by the value of one field (`by`) and ordered within the
 * group by `order`, then by id. A record whose `by` or `order` fields are absent (undefined) is not in
 * the index: that is how "members who were seen" is a list of its own.
 *
 * Every store orders alike, whatever types a field holds: scalars compare as null < false < true <
 * numbers (by value; -0 equals 0) < strings (by UTF-16 code unit, as JavaScript's `<`); keys compare
 * field by field, a key that is a prefix of another first; ties break by id (a string, by code unit).
 * Groups match by strict equality of the `by` value.
 */
export interface IndexDefinition {
  /**
   * The field whose value groups the records, e.g. `organizationId`. Absent: every record of the table
   * is in one group, listed with `value: null` (for work that must see a whole table, e.g. the blob
   * collection's walk over every space).
   */
  readonly by?: string;
  /** The fields that order the records within a group, ascending; the id always breaks ties. */
  readonly order: readonly string[];
}

/**
 * The tables a store holds and the indexes declared on each: every list names one of them. A store may
 * prepare them when it opens (PostgreSQL makes real indexes); the in-memory stores build each one the first
 * time it is used.
 */
export type StoreSchema = Readonly<Record<string, readonly IndexDefinition[]>>;

/** The position of a record in an index: the values of its `order` fields, then its id. */
export type SortKey = readonly Scalar[];

/** A query over one group of an index. */
export interface ListQuery {
  /** The index to read. */
  readonly index: IndexDefinition;
  /** The value of the index's `by` field that selects the group. */
  readonly value: Scalar;
  /** `asc` (default) lists by ascending sort key, `desc` by descending. */
  readonly order?: 'asc' | 'desc';
  /** Keyset cursor: only records strictly after this key, in the listing order. */
  readonly after?: SortKey;
  /** The most records to return; 0 returns only the count; absent returns all. */
  readonly limit?: number;
  /**
   * Only the records whose sort key begins with these values (its first order fields equal them): a range
   * of the group, which a store reads without the rest of it, e.g. the admins among 100,000 members.
   */
  readonly prefix?: readonly Scalar[];
  /** A filter evaluated on each record of the group (of the prefix's range), in this process. */
  readonly where?: (record: StoredRecord) => boolean;
}

/** The answer to a ListQuery. */
export interface ListResult {
  /** The matching records, in the listing order, at most `limit`. */
  readonly items: StoredRecord[];
  /** How many records of the group (of the prefix's range) match `where`, regardless of `after` and `limit`. */
  readonly count: number;
}

/** What a read transaction can do. All reads of one transaction see one consistent state. */
export interface ReadTransaction {
  /** The record with this id, or undefined when there is none. */
  get(table: string, id: string): Promise<StoredRecord | undefined>;
  /**
   * The records with these ids, in the same order, undefined where there is none: what a get of each
   * answers, in one call rather than a promise a record (a page of members reads 100 users).
   */
  getMany(table: string, ids: readonly string[]): Promise<(StoredRecord | undefined)[]>;
  /** Lists one group of an index, in a stable order (sort key, then id). */
  list(table: string, query: ListQuery): Promise<ListResult>;
}

/** What a write transaction can do, on top of reading. It sees its own writes. */
export interface WriteTransaction extends ReadTransaction {
  /**
   * Adds a record. When the id is taken the transaction fails with StoreConflictError: this call rejects,
   * or (a store that leaves the check to its database, as PostgreSQL's does, so as not to read the id
   * first) the write transaction itself rejects, at the latest when it commits.
   */
  insert(table: string, record: StoredRecord): Promise<void>;
  /** Adds or replaces the record with the same id. */
  put(table: string, record: StoredRecord): Promise<void>;
  /** Removes a record; resolves to whether there was one. */
  delete(table: string, id: string): Promise<boolean>;
  /**
   * Waits until this transaction holds `scope` (a string from src/core/scopes.ts) in `mode`, and holds it to
   * its end: write transactions that hold one scope exclusively run one after the other, and a shared hold
   * waits only for exclusive ones. Take it before reading what the decision depends on: what a transaction
   * reads after the lock is at least as new as what every earlier holder wrote. The JSON-file and in-memory
   * stores run one write at a time, which holds every scope already; PostgreSQL takes an advisory lock.
   */
  lock(scope: string, mode: LockMode): Promise<void>;
  /**
   * The next number of `counter` (e.g. the change requests of one space): greater than `floor` and than
   * every number it gave for that counter since the store opened, to this transaction or a concurrent one.
   * It never waits for concurrent writers, and never makes them fail: a number drawn by a transaction that
   * rolls back or runs again is not given again (numbers may skip). A store may forget its counters when
   * it closes (the JSON-file and in-memory stores keep them in memory; PostgreSQL keeps them), so `floor`
   * is the highest number the records hold.
   */
  nextNumber(counter: string, floor: number): Promise<number>;
}

/** How a scope is held: `shared` holders run together, an `exclusive` one alone. */
export type LockMode = 'shared' | 'exclusive';

/** A scope a write transaction holds, and how (WriteTransaction.lock). */
export interface ScopeLock {
  readonly scope: string;
  readonly mode: LockMode;
}

/** How a write transaction starts. */
export interface WriteOptions {
  /**
   * Scopes to hold from the transaction's start, as though `fn` locked them before anything else: the ones it
   * will lock, when they are known before it runs (an operation derives them from its input). A store that
   * takes locks before its snapshot (PostgreSQL) then takes them with its first statement, and never runs an
   * attempt again for a lock asked for after a read. `fn` may still call `lock` on them; that returns at once.
   */
  readonly locks?: readonly ScopeLock[];
}

/** A store of records with atomic, durable write transactions. */
export interface Store {
  /**
   * Runs `fn` against one consistent state of the committed data, from its start to its end: a write
   * that commits while it runs is not seen. Read transactions run concurrently with each other and with
   * writes. They never see a write that is not durable yet: a write becomes visible to others only once
   * its promise could resolve, so nothing a reader saw can be lost by a crash or a failed disk write.
   */
  read<T>(fn: (tx: ReadTransaction) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` as one write transaction. Each sees every write committed before it began, and one state
   * from start to end; of two that change one record, one runs again (no update is lost). Two that read
   * the same thing and write different records may run side by side (PostgreSQL's REPEATABLE READ): where a
   * decision must see every earlier write (a name that must stay unique, a position among siblings), take a
   * `lock` on its scope first, or draw a `nextNumber`. All of a transaction's changes are applied or, when
   * `fn` throws, none is.
   * The returned promise resolves only once the changes are durable (for a durable store: on disk,
   * surviving `kill -9` and power loss), and only once everything `fn` read is durable too; it rejects
   * with fn's error after a rollback. A write that cannot be made durable rejects with
   * StoreUnavailableError and leaves no trace: neither it nor any write that read it stays visible.
   * `fn` may run again (a store may retry after a serialization failure): it must have no effects
   * outside its transaction. `options.locks`: scopes held from the start (WriteOptions).
   */
  write<T>(fn: (tx: WriteTransaction) => Promise<T>, options?: WriteOptions): Promise<T>;
  /**
   * Resolves when the store is open and takes writes now (readiness probes): the JSON-file store's journal
   * can be appended to, PostgreSQL answers. Rejects with StoreClosedError once closed, or with
   * StoreUnavailableError saying why not. Changes nothing.
   */
  ready(): Promise<void>;
  /** Figures for metrics (/metrics), where a store has them: the JSON-file store's journal, PostgreSQL's read cache. */
  figures?(): StoreFigures;
  /** Waits for pending writes to become durable, then releases the store. Later calls reject. */
  close(): Promise<void>;
}

/** What a store tells metrics of itself. */
export interface StoreFigures {
  /** The bytes of the journal not yet folded into the snapshot. */
  readonly journalBytes?: number;
  /** The compactions finished since the store was opened. */
  readonly compactions?: number;
  /** Read transactions answered whole from a cache (PostgreSQL's snapshot cache) since the store was opened. */
  readonly readsFromCache?: number;
  /** Read transactions that ran in a database transaction since the store was opened. */
  readonly readsInTransaction?: number;
  /** Write attempts that ran again since the store was opened, by reason (PostgreSQL: `serialization`, `deadlock`, `late-lock`). */
  readonly writeRetries?: Readonly<Record<string, number>>;
}

/** Thrown by `insert` when a record with the same id exists. */
export class StoreConflictError extends Error {
  constructor(table: string, id: string) {
    super(`${table}: a record with id ${JSON.stringify(id)} exists`);
    this.name = 'StoreConflictError';
  }
}

/** Thrown by every method of a store that has been closed. */
export class StoreClosedError extends Error {
  constructor() {
    super('The store is closed');
    this.name = 'StoreClosedError';
  }
}

/**
 * Thrown by a write that could not be made durable (a full disk, an I/O error): it was rolled back with
 * every write that read it, and nothing of them remains. A store that cannot go on taking writes (its
 * journal could not be repaired) throws it for every write until it is opened again. A store whose database
 * is away throws it with `retryAfterSeconds`: the request answers 503 with Retry-After.
 */
export class StoreUnavailableError extends Error {
  /** When trying again may succeed, in seconds; absent when the store cannot tell. */
  readonly retryAfterSeconds?: number;

  constructor(message: string, options?: { cause?: unknown; retryAfterSeconds?: number }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
    if (options?.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
