import type pg from 'pg';
import type { StoredRecord } from '../types.js';
import type { Layout } from './layout.js';

/** How many records one statement of an export reads. */
const EXPORT_BATCH = 1000;

/** The number of records of each table. */
export async function countRecords(pool: pg.Pool, layout: Layout): Promise<Record<string, number>> {
  const tables = [...layout.tables.values()];
  const { rows } = await pool.query(tables.map((table, i) => `SELECT ${i} AS t, count(*)::int AS n FROM ${table.sql}`).join(' UNION ALL '));
  return Object.fromEntries(rows.map((row) => [tables[row.t].table, row.n]));
}

/**
 * Every record of every table, a batch at a time, all read in one REPEATABLE READ transaction: one
 * consistent state, while servers go on writing.
 */
export async function* exportRecords(pool: pg.Pool, layout: Layout): AsyncGenerator<readonly [string, StoredRecord[]]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    for (const table of layout.tables.values()) {
      for (let after = ''; ; ) {
        const { rows } = await client.query(`SELECT id, data FROM ${table.sql} WHERE id > $1 ORDER BY id LIMIT ${EXPORT_BATCH}`, [after]);
        if (rows.length === 0) break;
        yield [table.table, rows.map((row) => JSON.parse(row.data) as StoredRecord)];
        after = rows[rows.length - 1].id;
      }
    }
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

/** The keys of every blob. */
export async function* exportBlobKeys(pool: pg.Pool, layout: Layout): AsyncGenerator<string> {
  for (let after = ''; ; ) {
    const { rows } = await pool.query(`SELECT key FROM ${layout.own('blobs')} WHERE key > $1 ORDER BY key LIMIT ${EXPORT_BATCH}`, [after]);
    if (rows.length === 0) return;
    for (const row of rows) yield row.key as string;
    after = rows[rows.length - 1].key;
  }
}
