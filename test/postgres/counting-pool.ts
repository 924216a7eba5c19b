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
