import pg from 'pg';
import { TEST_DATABASE_URL } from './database.js';

/** What a counting pool has counted since it was made or reset. */
export interface CountingPool {
  readonly pool: pg.Pool;
  /** The statements sent. */
  statements(): number;
  /**
   * The writes to the database's sockets. The store sends the statements of one turn in one write (read.ts,
   * holdWrites) and waits for their answers before it sends more, so each is a round trip (but a read's
   * COMMIT, which nothing waits for).
   */
  writes(): number;
  reset(): void;
}

type Writes = { _write?: (...args: unknown[]) => unknown; _writev?: (...args: unknown[]) => unknown };

/** A pool on the test database that counts the statements its connections are sent, and the writes that carry them. */
export function countingPool(max = 4): CountingPool {
  // Pipelined, as the store's own pool: a turn's statements leave together.
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max, pipeline: true });
  let statements = 0;
  let writes = 0;
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      statements++;
      return query(...args);
    }) as typeof client.query;
    // A corked socket hands what it holds to _writev (or _write, for one chunk) when uncorked: one write each.
    const stream = (client as unknown as { connection: { stream: Writes } }).connection.stream;
    for (const method of ['_write', '_writev'] as const) {
      const original = stream[method];
      if (!original) continue;
      stream[method] = function (this: unknown, ...args: unknown[]) {
        writes++;
        return original.apply(this, args);
      };
    }
  });
  return {
    pool,
    statements: () => statements,
    writes: () => writes,
    reset: () => {
      statements = 0;
      writes = 0;
    },
  };
}

/**
 * The fewest statements `read` cost in up to `tries` runs. Any commit in the database server (another test
 * file's, running alongside) changes the snapshot and empties the cache, so a single run may miss it.
 */
export async function cheapest(statements: () => number, read: () => Promise<unknown>, tries = 10): Promise<number> {
  let fewest = Infinity;
  for (let i = 0; i < tries && fewest > 1; i++) {
    const before = statements();
    await read();
    fewest = Math.min(fewest, statements() - before);
  }
  return fewest;
}
