import pg from 'pg';
import { StoreClosedError, StoreUnavailableError, type Store, type StoreFigures, type StoreSchema, type StoredRecord, type WriteOptions } from '../types.js';
import { systemNow, type BlobStore } from '../blobs.js';
import { createPostgresBlobStore } from './blobs.js';
import { createPostgresRateLimiter, type SharedRateCounter } from './rate-limiter.js';
import { createDatabase, missingDatabase } from './create-database.js';
import { isMissingDatabase, isRetryable, isUnreachable, reasonOf, retryReason } from './errors.js';
import { countRecords, exportBlobKeys, exportRecords } from './export.js';
import { layoutOf, type Layout } from './layout.js';
import { migrate, SCHEMA_VERSION } from './migrate.js';
import { OutageWatch, type StoreLog } from './outage.js';
import { holdWrites, PgRead } from './read.js';
import { CachedRead } from './cached-read.js';
import { SnapshotCache } from './snapshot-cache.js';
import { SNAPSHOT_QUERY, SnapshotProbe } from './snapshot-probe.js';
import { NumberSource, numbersPool } from './numbers.js';
import { LockedScopes, RestartWithLocks } from './scopes.js';
import { PgWrite } from './write.js';

/** Options of the PostgreSQL store. */
export interface PostgresStoreOptions {
  /** A connection string, `postgres://user@host:5432/db`; or give `pool`. */
  connectionString?: string;
  /** A pool of the `pg` package to use instead (the store does not end it on close). */
  pool?: pg.Pool;
  /** The PostgreSQL schema (namespace) the store's tables live in; default `docs_platform`. */
  schema?: string;
  /** The tables and indexes to hold. */
  tables: StoreSchema;
  /** The most connections the store's own pool opens; default 10. */
  maxConnections?: number;
  /**
   * How long a statement may go unanswered before its connection is dropped and the call rejects with
   * StoreUnavailableError; default 30,000 ms. Only on the store's own pool (give `pool` its own `query_timeout`).
   */
  queryTimeoutMs?: number;
  /**
   * Create the database when it does not exist, connecting as the same user to the `postgres` maintenance
   * database (create-database.ts); default false: opening fails, with one line saying how to create it.
   * Only with the store's own pool.
   */
  createDatabase?: boolean;
  /** How many times a write transaction runs at most when it keeps meeting serialization failures; default 30. */
  maxAttempts?: number;
  /**
   * How much the snapshot cache of read answers holds (snapshot-cache.ts), in records (a list weighs 1 and
   * its items); default 50,000. 0 turns it off: every read transaction asks the database.
   */
  readCacheSize?: number;
  /**
   * Where migrations and outages are reported (one line when the database goes away, one when it is back:
   * outage.ts), with a level; default stderr.
   */
  log?: StoreLog;
  /** The clock that stamps when blobs were stored (blobs.ts) and times outages; default the system clock. */
  now?: () => Date;
}

/**
 * How often the cache must have answered reads whole for a read to try it first. Trying costs one short
 * statement when it fails, and saves a transaction's three or more when it does not: worth it from about one
 * read in four.
 */
const PROBE_WORTH = 0.25;

/** The snapshot cache's default size, in records: some tens of MB at most. */
const DEFAULT_READ_CACHE_SIZE = 50_000;

/**
 * How long an answer of ready() is kept: probes come from every load balancer and orchestrator, each every
 * few seconds, and /readyz stays one statement a second a process at most. An outage that begins or ends
 * drops it at once.
 */
const READY_KEPT_MS = 1_000;

/** How long getting a connection may take before the request gets a 503 instead of waiting on. */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * How long a statement may go unanswered. TCP keepalive alone finds a peer that vanished silently (a
 * network partition that drops packets) only after the OS's hours-long default, and until then the
 * request would hang: past this time pg destroys the connection, and the transaction fails with a 503.
 * Well above any statement the store sends while serving; migrations set their own (migrate.ts).
 */
const QUERY_TIMEOUT_MS = 30_000;

/**
 * Opens a store over PostgreSQL, creating or upgrading its schema first (migrate.ts). Several processes
 * can share one database: write transactions run REPEATABLE READ and run again after a serialization
 * failure (two changed one row) or a deadlock; where two must see each other's writes, they lock a scope
 * (scopes.ts) or draw a number (numbers.ts), as the Store contract says; read transactions see one snapshot
 * (REPEATABLE READ, READ ONLY). A commit returns once PostgreSQL has made it durable, and no one sees it
 * before. A database that cannot be reached makes calls reject with StoreUnavailableError; the pool
 * reconnects once it is back.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  // Without a logger of its own, debug lines (each write that runs again) are not worth stderr.
  const log: StoreLog = options.log ?? ((line, level) => void (level !== 'debug' && process.stderr.write(`${line}\n`)));
  const owned = !options.pool;
  const pool =
    options.pool ??
    new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: options.queryTimeoutMs ?? QUERY_TIMEOUT_MS,
      // TCP keepalive: a connection whose peer vanished without closing it is found dead in time.
      keepAlive: true,
      // Pipelined: a transaction's BEGIN goes with its first statement, and a batch's statements go together.
      pipeline: true,
    });
  // The store's statements are prepared, and written for one plan whatever their arrays hold (index scans
  // by a parameter). By default PostgreSQL plans each of the first five runs for its values, then goes on
  // doing so whenever the generic plan looks costlier (it guesses 10 elements for an array parameter): a
  // plan a statement, which doubled the database's time for a one-element list. (Only on the store's own pool.)
  if (owned) pool.on('connect', (client) => void client.query('SET plan_cache_mode = force_generic_plan').catch(() => undefined));
  const now = options.now ?? systemNow;
  // Emptied when the database goes away and when it is back (the store's OutageWatch), and when an idle
  // connection is lost: nothing read before may answer a read then (snapshot-cache.ts).
  const cache = new SnapshotCache(options.readCacheSize ?? DEFAULT_READ_CACHE_SIZE);
  // An idle connection the server closed: the pool drops it and opens a new one when asked. No request
  // met it: an outage is logged by the first call that does (outage.ts).
  pool.on('error', () => cache.clear());
  const layout = layoutOf(options.schema ?? 'docs_platform', options.tables);
  try {
    await migrateOn(pool, layout, log).catch(async (error: unknown) => {
      // A database that does not exist: created when asked and allowed (create-database.ts), else one line says how.
      if (!owned || !isMissingDatabase(error)) throw error;
      const settings = { connectionString: options.connectionString };
      if (!options.createDatabase) throw missingDatabase(settings, error);
      await createDatabase(settings, CONNECT_TIMEOUT_MS, log);
      await migrateOn(pool, layout, log);
    });
  } catch (error) {
    if (owned) await pool.end().catch(() => undefined);
    if (error instanceof StoreUnavailableError) throw error;
    if (isUnreachable(error)) throw new StoreUnavailableError(`Cannot reach the PostgreSQL database: ${reasonOf(error)}`, { cause: error });
    // The database refused a statement of the migration (a user without CREATE on it): one line, not pg's object.
    if (error instanceof pg.DatabaseError) {
      throw new StoreUnavailableError(`Cannot set up the store's schema in the PostgreSQL database: ${reasonOf(error)} (SQLSTATE ${error.code})`, { cause: error });
    }
    throw error;
  }
  // Numbers are drawn on connections of their own (numbers.ts), with the settings of the store's pool.
  const numbers = new NumberSource(numbersPool((pool as unknown as { options: pg.PoolConfig }).options), layout.own('numbers'));
  return new PgStore(pool, owned, layout, options.maxAttempts ?? 30, cache, log, now, numbers);
}

/** A store over PostgreSQL, with the blob store every process on the same database shares. */
export interface PostgresStore extends Store {
  /** File bytes, in the store's `blobs` table. */
  readonly blobs: BlobStore;
  /** Rate-limit counts every process on the database shares, in the `rate_limits` table (a platform's `rateLimiter`). */
  readonly rateLimiter: SharedRateCounter;
  /** How its read transactions were answered: from the snapshot cache, or in a transaction (metrics). */
  figures(): StoreFigures;
  /** The number of records of each table (for copies between stores). */
  countRecords(): Promise<Record<string, number>>;
  /** Every record, table by table, a batch at a time, from one consistent state (for copies between stores). */
  exportRecords(): AsyncIterable<readonly [table: string, records: StoredRecord[]]>;
  /** The key of every blob (for copies between stores). */
  exportBlobKeys(): AsyncIterable<string>;
}

class PgStore implements PostgresStore {
  private closed = false;
  private readonly running = new Set<Promise<unknown>>();
  readonly blobs: BlobStore;
  readonly rateLimiter: SharedRateCounter;
  private readonly probe: SnapshotProbe;
  /** Whether the database is away, as calls find it; logs when it goes and comes back. */
  private readonly watch: OutageWatch;
  /** The last answer of ready(), and when it was asked (ms). */
  private readiness: { at: number; answer: Promise<void> } | undefined;
  /**
   * How often, of late, the cache answered a read whole, or could have (a moving average from 0 to 1). While
   * it does often enough (PROBE_WORTH), a read asks for the snapshot alone first, and is answered from the
   * cache without a transaction; while writes keep changing the snapshot, or reads ask for what the cache
   * does not hold, a read goes straight to a transaction, and the question rides along with its BEGIN.
   */
  private recentHits = 1;
  /** Read transactions answered from the cache, and run in a transaction (figures()). */
  private readsFromCache = 0;
  private readsInTransaction = 0;
  /** Write attempts that ran again, by reason (figures()). */
  private readonly retries: Record<string, number> = {};

  constructor(
    private readonly pool: pg.Pool,
    private readonly owned: boolean,
    private readonly layout: Layout,
    private readonly maxAttempts: number,
    private readonly cache: SnapshotCache,
    private readonly log: StoreLog,
    private readonly now: () => Date,
    private readonly numbers: NumberSource,
  ) {
    this.watch = new OutageWatch(log, now, () => {
      cache.clear();
      this.readiness = undefined;
    });
    const failed = (error: unknown) => this.watch.failed(error);
    this.blobs = createPostgresBlobStore(pool, layout.own('blobs'), { now, failed });
    this.rateLimiter = createPostgresRateLimiter(pool, layout.own('rate_limits'), failed);
    this.probe = new SnapshotProbe(pool);
  }

  read<T>(fn: Parameters<Store['read']>[0]): Promise<T> {
    return this.track(async () => {
      if (this.cache.enabled && this.recentHits >= PROBE_WORTH) {
        const answered = await this.readFromCache(fn);
        if (answered) {
          this.readsFromCache++;
          this.watch.reached();
          return answered.result as T;
        }
      }
      this.readsInTransaction++;
      return this.readInTransaction<T>(fn);
    });
  }

  /**
   * Runs a read against the snapshot cache alone, when the database's snapshot now is the cache's: one
   * short statement, shared by the reads that start in the same turn. Undefined when the cache cannot
   * answer all of it (its snapshot is not the cache's, or it reads what the cache does not hold).
   */
  private async readFromCache(fn: Parameters<Store['read']>[0]): Promise<{ result: unknown } | undefined> {
    let snapshot: string;
    try {
      snapshot = await this.probe.next();
    } catch (error) {
      throw this.watch.failed(error);
    }
    const current = this.cache.snapshot === snapshot;
    const view = this.cache.view(snapshot);
    const tx = view && current ? new CachedRead(view) : undefined;
    let answered: { result: unknown } | undefined;
    if (tx) {
      try {
        answered = { result: await fn(tx) };
      } catch (error) {
        if (!tx.missed) throw error;
      }
      if (tx.missed) answered = undefined;
    }
    this.noteRead(answered !== undefined);
    return answered;
  }

  /** A read in a REPEATABLE READ transaction on a connection; it keeps what it reads in the cache. */
  private async readInTransaction<T>(fn: Parameters<Store['read']>[0]): Promise<T> {
    const client = await this.connect();
    let broken: unknown;
    const tx = new PgRead(client, this.layout);
    try {
      const began = await begin(client, 'BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      let found = false;
      if (this.cache.enabled) {
        // Asked right behind the BEGIN; the reads wait for its answer to look in the cache.
        tx.viewReady = client.query(SNAPSHOT_QUERY).then(
          ({ rows }) => {
            const snapshot = rows[0].snapshot as string;
            found = this.cache.snapshot === snapshot;
            tx.view = this.cache.view(snapshot);
            tx.viewReady = undefined;
          },
          () => {
            tx.viewReady = undefined;
          },
        );
      }
      const result = (await fn(tx)) as T;
      if (this.cache.enabled) this.noteRead(found && tx.fetched === 0);
      await began.done;
      // A read's answer does not wait for its COMMIT, which changes nothing: the connection answers it
      // before the statements of whoever takes it next.
      if (client.pipeline) {
        // Held to the end of the turn, it may leave with the next transaction's BEGIN.
        holdWrites(client);
        client.query('COMMIT').catch(() => undefined);
      } else await client.query('COMMIT');
      this.watch.reached();
      return result;
    } catch (error) {
      broken = await rollback(client, error);
      throw this.watch.failed(error, tx.failure);
    } finally {
      checkIn(client, broken);
    }
  }

  /** Moves the average of reads the cache answered whole (or could have). */
  private noteRead(answered: boolean): void {
    this.recentHits = this.recentHits * 0.8 + (answered ? 0.2 : 0);
  }

  write<T>(fn: Parameters<Store['write']>[0], options?: WriteOptions): Promise<T> {
    return this.track(async () => {
      const scopes = new LockedScopes();
      // Declared scopes are taken as a late lock's are on the next attempt: right before the BEGIN, so the first attempt runs locked.
      for (const { scope, mode } of options?.locks ?? []) scopes.want(scope, mode);
      for (let attempt = 1; ; attempt++) {
        const client = await this.connect();
        let broken: unknown;
        const tx = new PgWrite(client, this.layout, 'BEGIN ISOLATION LEVEL REPEATABLE READ', scopes, this.numbers);
        const send = (sql: string, values: unknown[]) => client.query(sql, values);
        try {
          const result = (await fn(tx)) as T;
          // A late lock that `fn` caught and went on from: what it decided may rest on an old snapshot.
          if (tx.restart) throw tx.restart;
          // A transaction that sent nothing (no read, no change) has no BEGIN to end.
          if (tx.changed) tx.begin();
          let released: Promise<unknown> | undefined;
          if (tx.began) {
            await tx.began;
            if (client.pipeline) {
              // The changes and the COMMIT go together. After a failed change PostgreSQL turns the COMMIT
              // into a rollback, and the change's error is the transaction's.
              const flushed = tx.flush();
              const committed = client.query('COMMIT');
              committed.catch(() => undefined);
              // The scopes go right behind the COMMIT: the next holder waits for the commit alone, not for its
              // answer to come back here and an unlock to go out after it (a queued scope's every turn).
              // After a failed COMMIT they are wanted by the next attempt all the same (LockedScopes.release).
              released = release(scopes, send);
              await flushed;
              await committed;
            } else {
              await tx.flush();
              await client.query('COMMIT');
            }
          }
          broken = await (released ?? release(scopes, send));
          this.watch.reached();
          return result;
        } catch (error) {
          broken = tx.began ? await rollback(client, error) : undefined;
          broken ??= await release(scopes, send);
          const restart = error instanceof RestartWithLocks ? error : tx.restart;
          if (restart) {
            // A write that names a new scope late on every attempt (one drawn at random inside it) would run
            // again for ever: bounded as the conflicts are, it ends as a 503 instead.
            if (attempt >= this.maxAttempts) {
              throw new StoreUnavailableError(`The write asked for a lock after its snapshot ${attempt} times in a row (${restart.scope}); try again`, { cause: error });
            }
            // Asked for a scope after its snapshot: runs again at once, with the scope taken first.
            scopes.want(restart.scope, restart.mode);
            this.noteRetry('late-lock', attempt, restart);
            continue;
          }
          // A statement that failed may have been caught and turned into another error by `fn`.
          const cause = isRetryable(error) ? error : isRetryable(tx.failure) ? tx.failure : undefined;
          if (cause === undefined) throw this.watch.failed(error, tx.failure);
          if (attempt >= this.maxAttempts) {
            throw new StoreUnavailableError(`The write met concurrent writes ${attempt} times in a row; try again`, { cause: error });
          }
          this.noteRetry(retryReason(cause), attempt, cause);
        } finally {
          checkIn(client, broken);
        }
        await backOff(attempt);
      }
    });
  }

  /** Counts a write that runs again, by why (figures(): the retries metric), and says so at debug level. */
  private noteRetry(reason: string, attempt: number, error: unknown): void {
    this.retries[reason] = (this.retries[reason] ?? 0) + 1;
    this.log(`docs-platform store: write attempt ${attempt} runs again (${reason}): ${reasonOf(error)}`, 'debug');
  }

  /**
   * The database answers, is not a read-only standby, and holds the store's schema at the version this code
   * migrates to. The answer is kept for READY_KEPT_MS, and dropped when an outage begins or ends.
   */
  ready(): Promise<void> {
    const now = this.now().getTime();
    const kept = this.readiness;
    if (kept && !this.closed && now - kept.at < READY_KEPT_MS) return kept.answer;
    const answer = this.track(() => this.probeReadiness());
    answer.catch(() => undefined);
    this.readiness = { at: now, answer };
    return answer;
  }

  private async probeReadiness(): Promise<void> {
    const client = await this.connect();
    let broken: unknown;
    try {
      const { rows } = await client.query(`SELECT pg_is_in_recovery() AS standby, (SELECT value FROM ${this.layout.own('meta')} WHERE key = 'version') AS version`);
      if (rows[0].standby) throw new StoreUnavailableError('The PostgreSQL database is a read-only standby');
      const version = rows[0].version === null ? 0 : Number(rows[0].version);
      if (version !== SCHEMA_VERSION) {
        const remedy = version < SCHEMA_VERSION ? 'start docs-platform again to migrate it' : 'upgrade docs-platform';
        throw new StoreUnavailableError(`The PostgreSQL schema ${this.layout.namespace} is at version ${version}, not ${SCHEMA_VERSION} as this docs-platform expects: ${remedy}`);
      }
      this.watch.reached();
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw error;
      broken = isUnreachable(error) ? error : undefined;
      throw this.watch.failed(error);
    } finally {
      checkIn(client, broken);
    }
  }

  figures(): StoreFigures {
    return { readsFromCache: this.readsFromCache, readsInTransaction: this.readsInTransaction, writeRetries: { ...this.retries } };
  }

  countRecords(): Promise<Record<string, number>> {
    return countRecords(this.pool, this.layout);
  }

  exportRecords(): AsyncIterable<readonly [string, StoredRecord[]]> {
    return exportRecords(this.pool, this.layout);
  }

  exportBlobKeys(): AsyncIterable<string> {
    return exportBlobKeys(this.pool, this.layout);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.running]);
    await this.rateLimiter.settle().catch(() => undefined);
    await this.numbers.close();
    if (this.owned) await this.pool.end();
  }

  /** Runs a transaction, refused once closed, and tracked so that close waits for it. */
  private track<T>(run: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new StoreClosedError());
    const promise = run();
    this.running.add(promise);
    void promise.finally(() => this.running.delete(promise)).catch(() => undefined);
    return promise;
  }

  private async connect(): Promise<pg.PoolClient> {
    try {
      return await checkOut(this.pool);
    } catch (error) {
      throw this.watch.failed(error);
    }
  }
}

/**
 * A connection lost while out of the pool is an 'error' event on it, besides the failure of its query
 * (or of the next one). The pool listens only to idle connections, and an 'error' no one listens to
 * ends the process: so a checked-out connection gets a listener until it goes back. The failed query
 * carries the error to the transaction, which gives the connection back broken.
 */
const onLostWhileOut = () => undefined;

/** Creates or upgrades the store's schema on a connection of the pool (migrate.ts). */
async function migrateOn(pool: pg.Pool, layout: Layout, log: StoreLog): Promise<void> {
  const client = await checkOut(pool);
  try {
    await migrate(client, layout, log);
  } finally {
    checkIn(client);
  }
}

/** Takes a connection from the pool (see onLostWhileOut). */
async function checkOut(pool: pg.Pool): Promise<pg.PoolClient> {
  const client = await pool.connect();
  client.on('error', onLostWhileOut);
  return client;
}

/** Gives a connection back to the pool; with `broken` the pool drops it. */
function checkIn(client: pg.PoolClient, broken?: unknown): void {
  client.off('error', onLostWhileOut);
  client.release(broken as Error | undefined);
}

/**
 * Sends a transaction's BEGIN. A pipelined connection sends the transaction's first statements right behind
 * it, so nothing waits for its answer here: `done` is awaited before the COMMIT (a failed BEGIN fails the
 * statements after it too). Another connection is waited for.
 */
async function begin(client: pg.PoolClient, sql: string): Promise<{ done: Promise<unknown> }> {
  if (client.pipeline) holdWrites(client);
  const done = client.query(sql);
  if (client.pipeline) done.catch(() => undefined);
  else await done;
  return { done };
}

/** Lets the scopes a transaction held go; resolves to the error to drop the connection with when that fails (which lets them go too). */
async function release(scopes: LockedScopes, send: (sql: string, values: unknown[]) => Promise<unknown>): Promise<unknown> {
  try {
    await scopes.release(send);
    return undefined;
  } catch (error) {
    return error;
  }
}

/**
 * Ends a failed transaction. Resolves to the error to release the connection with (the pool then drops
 * it) when the rollback could not be sent: a connection in an unknown state must not be reused.
 */
async function rollback(client: pg.PoolClient, cause: unknown): Promise<unknown> {
  try {
    await client.query('ROLLBACK');
    return isUnreachable(cause) ? cause : undefined;
  } catch (error) {
    return error;
  }
}

/** Waits a little before running a transaction again: exponential with full jitter, at most ~100 ms. */
const backOff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 2 ** attempt)));
