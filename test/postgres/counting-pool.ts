import pg from 'pg';
import { TEST_DATABASE_URL } from './database.js';

/** A pool on the test database that counts the statements its connections are sent (`reset` starts again). */
export function countingPool(max = 4): { pool: pg.Pool; statements: () => number; reset: () => void } {
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max });
  let statements = 0;
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      statements++;
      return query(...args);
    }) as typeof client.query;
  });
  return { pool, statements: () => statements, reset: () => (statements = 0) };
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
