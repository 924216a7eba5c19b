import type pg from 'pg';
import { unavailable } from './errors.js';

/** Counts per key and window: the platform's RateLimiter port (src/core/rate-limit.ts), which it implements. */
export interface SharedRateCounter {
  /** Adds `cost` to `key`'s units in the window starting at `windowStart` (Unix ms); resolves to the window's units so far. */
  take(key: string, cost: number, windowStart: number): Promise<number>;
}

/**
 * Rate-limit counts in PostgreSQL, shared by every process on the database: one row per key (a token's hash
 * or a client address) holding its window's start and the units spent in it, moved by one atomic
 * INSERT ... ON CONFLICT DO UPDATE per request (a new window replaces the old count). The table is
 * UNLOGGED (migrate.ts): counts that a database crash loses cost nothing, and it spares the WAL a write per
 * request. Rows of windows long past are deleted now and then by whichever process notices first.
 */
export function createPostgresRateLimiter(pool: pg.Pool, table: string): SharedRateCounter {
  const take = `INSERT INTO ${table} AS r (key, window_start, spent) VALUES ($1, $2, $3)
    ON CONFLICT (key) DO UPDATE SET
      spent = CASE WHEN r.window_start = excluded.window_start THEN r.spent + excluded.spent
                   WHEN r.window_start < excluded.window_start THEN excluded.spent ELSE r.spent END,
      window_start = GREATEST(r.window_start, excluded.window_start)
    RETURNING CASE WHEN window_start = $2 THEN spent ELSE $3 END AS spent`;
  let swept = 0;
  return {
    async take(key, cost, windowStart) {
      try {
        if (windowStart > swept) {
          // Once a window, by each process: rows not touched in the last two windows.
          swept = windowStart;
          pool.query(`DELETE FROM ${table} WHERE window_start < $1`, [windowStart - 120_000]).catch(() => undefined);
        }
        const { rows } = await pool.query({ name: `rate-take-${table}`, text: take, values: [key, windowStart, cost] });
        return Number(rows[0].spent);
      } catch (error) {
        throw unavailable(error);
      }
    },
  };
}
