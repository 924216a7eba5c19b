import type pg from 'pg';
import { StoreUnavailableError } from '../types.js';
import { unavailable } from './errors.js';

/** Counts per key and window: the platform's RateLimiter port (src/core/rate-limit.ts), which it implements. */
export interface SharedRateCounter {
  /** Adds `cost` to `key`'s units in the window starting at `windowStart` (Unix ms); resolves to the window's units so far. */
  take(key: string, cost: number, windowStart: number): number | Promise<number>;
  /** Sends the units this process has not sent yet, now (tests, and a store that closes). */
  settle(): Promise<void>;
}

/** How long a process keeps the units it counted before it adds them to the shared counts. */
export const RATE_FLUSH_MS = 100;

/** A key's count in this process: the shared count as last read, and what this process added since. */
interface Count {
  window: number;
  shared: number;
  /** Being added to the shared count by a statement not answered yet. */
  sending: number;
  unsent: number;
}

/** The most keys a process counts in memory in one window; past it, a new key's every request goes to the database. */
const MAX_COUNTED_KEYS = 100_000;

/**
 * Rate-limit counts in PostgreSQL, shared by every process on the database: one row per key (a token's hash
 * or a client address) holding its window's start and the units spent in it (a new window replaces the old
 * count). The table is UNLOGGED (migrate.ts): counts that a database crash loses cost nothing, and it spares
 * the WAL a write per request.
 *
 * A key's first request in a window adds its units at once (one atomic INSERT ... ON CONFLICT DO UPDATE),
 * so that a process learns what the others spent before it answers. After that, the process counts in
 * memory and adds what it counted to the shared rows every RATE_FLUSH_MS, every key in one statement, which
 * reads back the shared counts. A process so sees its own units at once and the others' within about
 * RATE_FLUSH_MS: a client spread over N processes may go over its budget by what it sends in that time.
 * Why not a write per request: each write is a transaction, and a transaction changes PostgreSQL's
 * snapshot, which empties every process's cache of read answers (snapshot-cache.ts).
 * Rows of windows long past are deleted now and then by whichever process notices first.
 *
 * While the database is away, a key's units are counted in memory, as after its first request, and added to
 * the shared count once it is back: the request goes on (and meets the same database, which answers it 503).
 * `failed` turns a statement's error into the one to report (errors.ts's unavailable; the store's also notes
 * the outage, and logs it once): only an error that is not an outage (a bug) rejects `take`.
 */
export function createPostgresRateLimiter(pool: pg.Pool, table: string, failed: (error: unknown) => unknown = unavailable): SharedRateCounter {
  const upsert = (values: string) => `INSERT INTO ${table} AS r (key, window_start, spent) ${values}
    ON CONFLICT (key) DO UPDATE SET
      spent = CASE WHEN r.window_start = excluded.window_start THEN r.spent + excluded.spent
                   WHEN r.window_start < excluded.window_start THEN excluded.spent ELSE r.spent END,
      window_start = GREATEST(r.window_start, excluded.window_start)
    RETURNING key, window_start, spent`;
  const one = { name: `rate-take-${table}`, text: upsert('VALUES ($1, $2, $3)') };
  const many = { name: `rate-flush-${table}`, text: upsert('SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[])') };
  const counts = new Map<string, Count>();
  let swept = 0;
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();

  /** Takes the shared counts a statement returned: a row of another window leaves the count as it is. */
  const learn = (rows: { key: string; window_start: string; spent: number }[]) => {
    for (const row of rows) {
      const count = counts.get(row.key);
      if (count && Number(row.window_start) === count.window) count.shared = Math.max(count.shared, Number(row.spent));
    }
  };

  const flush = async () => {
    timer = undefined;
    const sent = [...counts].filter(([, count]) => count.unsent > 0);
    if (sent.length === 0) return;
    for (const [, count] of sent) {
      count.sending = count.unsent;
      count.unsent = 0;
    }
    const values = [sent.map(([key]) => key), sent.map(([, count]) => count.window), sent.map(([, count]) => count.sending)];
    try {
      learn((await pool.query({ ...many, values })).rows);
    } catch (error) {
      failed(error);
      // Not sent (the database is away): sent again with the next, rather than lost; not once the pool
      // is ending (its store closed), where it would try again every RATE_FLUSH_MS for ever.
      for (const [, count] of sent) count.unsent += count.sending;
      if (!pool.ending) schedule();
    } finally {
      for (const [, count] of sent) count.sending = 0;
    }
  };
  const schedule = () => {
    timer ??= setTimeout(() => (flushing = flushing.then(flush)), RATE_FLUSH_MS).unref();
  };
  /** Adds units to a key's count in this process, sent with the next flush; resolves to the window's units so far. */
  const addHere = (count: Count, cost: number) => {
    count.unsent += cost;
    schedule();
    return count.shared + count.sending + count.unsent;
  };

  return {
    take(key, cost, windowStart) {
      const count = counts.get(key);
      if (count && windowStart < count.window) return cost; // a late call from an earlier window
      if (count && count.window === windowStart) return addHere(count, cost);
      return open(key, cost, windowStart);
    },
    async settle() {
      if (timer) {
        clearTimeout(timer);
        flushing = flushing.then(flush);
      }
      await flushing;
    },
  };

  /** A key's first request in a window: its units are added to the shared count at once, which is read back. */
  async function open(key: string, cost: number, windowStart: number): Promise<number> {
    try {
      if (windowStart > swept) {
        // Once a window, by each process: rows not touched in the last two windows, and its own old counts.
        swept = windowStart;
        for (const [old, { window }] of counts) if (window < windowStart) counts.delete(old);
        pool.query(`DELETE FROM ${table} WHERE window_start < $1`, [windowStart - 120_000]).catch(() => undefined);
      }
      const { rows } = await pool.query({ ...one, values: [key, windowStart, cost] });
      // The database's count, this request's units in it. Another request of the key may have started the
      // window meanwhile: its units stay counted.
      const count = counts.get(key);
      const shared = Number(rows[0].window_start) === windowStart ? Number(rows[0].spent) : cost;
      if (count?.window === windowStart) count.shared = Math.max(count.shared, shared);
      else if (counts.size < MAX_COUNTED_KEYS) counts.set(key, { window: windowStart, shared, sending: 0, unsent: 0 });
      return shared;
    } catch (error) {
      const failure = failed(error);
      if (!(failure instanceof StoreUnavailableError)) throw failure;
      // Counted here until the database is back (see above).
      let count = counts.get(key);
      if (count?.window !== windowStart) {
        if (counts.size >= MAX_COUNTED_KEYS) return cost;
        counts.set(key, (count = { window: windowStart, shared: 0, sending: 0, unsent: 0 }));
      }
      return addHere(count, cost);
    }
  }
}
