import pg from 'pg';

/**
 * Store.nextNumber on PostgreSQL: a row per counter in the `numbers` table, moved by one statement
 * (INSERT ... ON CONFLICT DO UPDATE ... RETURNING) on a connection of its own, outside the write
 * transaction that asks. Inside it, two writers drawing from one counter would update one row, and under
 * REPEATABLE READ the second would fail and run again (a serialization failure); outside, it waits the
 * microseconds of the other statement and never fails. A number drawn by a transaction that then rolls back
 * is skipped, never given again.
 *
 * Its connections commit without waiting for the disk (synchronous_commit off): the number's record is in
 * the write-ahead log before the commit of the transaction that uses it, which waits for the log to be on
 * disk up to its own record, so a number used by a durable write is durable too. A crash may forget only
 * numbers no durable write used.
 */
export class NumberSource {
  constructor(
    private readonly pool: pg.Pool,
    private readonly table: string,
  ) {}

  /** The next number of `counter`: one more than the last it gave and than `floor`. */
  async next(counter: string, floor: number): Promise<number> {
    const { rows } = await this.pool.query({
      name: 'dp_next_number',
      text:
        `INSERT INTO ${this.table} AS t (counter, n) VALUES ($1, $2::bigint + 1) ` +
        `ON CONFLICT (counter) DO UPDATE SET n = greatest(t.n, excluded.n - 1) + 1 RETURNING n`,
      values: [counter, Math.floor(floor)],
    });
    return Number(rows[0].n);
  }

  /** Ends its connections. */
  close(): Promise<void> {
    return this.pool.end();
  }
}

/** How many connections draw numbers in a process: each statement holds one for a round trip. */
const NUMBER_CONNECTIONS = 2;

/** A pool for numbers, with the settings of the store's own (`options`: pg's PoolConfig). */
export function numbersPool(options: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({ ...options, max: NUMBER_CONNECTIONS });
  pool.on('connect', (client) => void client.query('SET synchronous_commit = off').catch(() => undefined));
  // An idle connection the server closed: dropped, and another opened when asked.
  pool.on('error', () => undefined);
  return pool;
}
