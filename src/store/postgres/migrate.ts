import type { PoolClient, QueryConfig, QueryResult } from 'pg';
import { ident, indexColumns, type IndexLayout, type Layout, type TableLayout } from './layout.js';
import type { StoreLog } from './outage.js';

/**
 * The store's schema in PostgreSQL, created and upgraded when the store opens, by one process at a time
 * (a transaction-scoped advisory lock), idempotently: every step checks what is there first.
 *
 * Two parts. The versioned migrations below build the store's own tables; `meta.version` says how many
 * ran, and a database newer than this code is refused. Then the declared tables and indexes are synced:
 * a table or an index column pair that is missing is created, its keys computed for the records already
 * there, and its group sizes counted.
 */

/** Thrown when the database holds a newer schema than this docs-platform knows. */
export class SchemaTooNewError extends Error {
  constructor(namespace: string, found: number, known: number) {
    super(`The PostgreSQL schema ${namespace} is at version ${found}, newer than this docs-platform knows (${known}): upgrade docs-platform`);
    this.name = 'SchemaTooNewError';
  }
}

/** The migrations, in order: each a list of statements over the layout. Append; never change one that shipped. */
const MIGRATIONS: ((layout: Layout) => string[])[] = [
  (layout) => [
    `CREATE TABLE IF NOT EXISTS ${layout.own('meta')} (key text PRIMARY KEY, value text NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${layout.own('counts')} (tbl text NOT NULL, idx text NOT NULL, grp bytea NOT NULL, n bigint NOT NULL, PRIMARY KEY (tbl, idx, grp))`,
    `CREATE TABLE IF NOT EXISTS ${layout.own('blobs')} (key text PRIMARY KEY, bytes bytea NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
  ],
  // A group's size in stripes (see COUNT_STRIPES in write.ts): concurrent writers to one group each move their own row.
  (layout) => [
    `ALTER TABLE ${layout.own('counts')} ADD COLUMN IF NOT EXISTS stripe smallint NOT NULL DEFAULT 0`,
    `ALTER TABLE ${layout.own('counts')} DROP CONSTRAINT IF EXISTS counts_pkey`,
    `ALTER TABLE ${layout.own('counts')} ADD PRIMARY KEY (tbl, idx, grp, stripe)`,
  ],
  // When a blob was last stored or touched, from the platform's clock: the blob collection's grace period
  // counts from it (blobs.ts). Blobs stored before keep the time they were created.
  (layout) => [`ALTER TABLE ${layout.own('blobs')} RENAME COLUMN created_at TO stored_at`],
  // Rate-limit counts shared by every process (rate-limiter.ts); unlogged: a crash may lose them, harmlessly.
  (layout) => [`CREATE UNLOGGED TABLE IF NOT EXISTS ${layout.own('rate_limits')} (key text PRIMARY KEY, window_start bigint NOT NULL, spent bigint NOT NULL)`],
  // Counters of Store.nextNumber (numbers.ts): the last number each gave.
  (layout) => [`CREATE TABLE IF NOT EXISTS ${layout.own('numbers')} (counter text PRIMARY KEY, n bigint NOT NULL)`],
];

/** The version of the schema this code migrates to: a running server expects it (the store's ready()). */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** How many records a backfill of new index columns rewrites per statement. */
const BACKFILL_BATCH = 1000;

/**
 * How long one migration statement may take: waiting for another process's migration (the advisory lock)
 * or building an index over a large table takes far longer than the statements of serving (store.ts).
 */
const MIGRATION_QUERY_TIMEOUT_MS = 60 * 60_000;

/** Sends one statement of a migration. */
type Sql = (text: string, values?: unknown[]) => Promise<QueryResult>;

/** Creates or upgrades the schema of `layout`; `log` hears each change made. */
export async function migrate(client: PoolClient, layout: Layout, log: StoreLog): Promise<void> {
  // pg reads a statement's own `query_timeout`, which its types do not declare.
  const sql: Sql = (text, values) => client.query({ text, values, query_timeout: MIGRATION_QUERY_TIMEOUT_MS } as QueryConfig);
  await sql('BEGIN');
  try {
    await sql(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`docs-platform:${layout.namespace}`]);
    await sql(`CREATE SCHEMA IF NOT EXISTS ${ident(layout.namespace)}`);
    await runMigrations(sql, layout, log);
    await syncTables(sql, layout, log);
    await sql('COMMIT');
  } catch (error) {
    await sql('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

async function runMigrations(sql: Sql, layout: Layout, log: (line: string) => void): Promise<void> {
  const exists = await sql(`SELECT to_regclass($1) AS meta`, [layout.own('meta')]);
  let version = 0;
  if (exists.rows[0].meta !== null) {
    const row = await sql(`SELECT value FROM ${layout.own('meta')} WHERE key = 'version'`);
    version = row.rows.length > 0 ? Number(row.rows[0].value) : 0;
  }
  if (version > MIGRATIONS.length) throw new SchemaTooNewError(layout.namespace, version, MIGRATIONS.length);
  for (let next = version; next < MIGRATIONS.length; next++) {
    for (const statement of MIGRATIONS[next](layout)) await sql(statement);
    await sql(`INSERT INTO ${layout.own('meta')} (key, value) VALUES ('version', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [
      String(next + 1),
    ]);
    log(`docs-platform store: PostgreSQL schema ${layout.namespace} migrated to version ${next + 1}`);
  }
}

/** Creates the declared tables and index columns that are missing (one query finds what is there). */
async function syncTables(sql: Sql, layout: Layout, log: (line: string) => void): Promise<void> {
  const { rows } = await sql(`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = $1`, [layout.namespace]);
  const present = new Set(rows.map((row) => `${row.table_name}.${row.column_name}`));
  for (const table of layout.tables.values()) {
    const name = `t_${table.table}`;
    if (!present.has(`${name}.id`)) await sql(`CREATE TABLE IF NOT EXISTS ${table.sql} (id text COLLATE "C" PRIMARY KEY, data text NOT NULL)`);
    const missing = table.indexes.filter((index) => !present.has(`${name}.${index.key}`));
    if (missing.length > 0) await addIndexes(sql, layout, table, missing, log);
  }
}

/** Adds index columns to a table, computes them for the records there, indexes them and counts their groups. */
async function addIndexes(sql: Sql, layout: Layout, table: TableLayout, missing: readonly IndexLayout[], log: (line: string) => void): Promise<void> {
  for (const index of missing) {
    await sql(`ALTER TABLE ${table.sql} ADD COLUMN IF NOT EXISTS ${ident(index.group)} bytea, ADD COLUMN IF NOT EXISTS ${ident(index.key)} bytea`);
  }
  const rewritten = await backfill(sql, table);
  for (const index of missing) {
    await sql(`CREATE INDEX IF NOT EXISTS ${ident(`${table.table}_${index.key}`)} ON ${table.sql} (${ident(index.group)}, ${ident(index.key)})`);
    await sql(`DELETE FROM ${layout.own('counts')} WHERE tbl = $1 AND idx = $2`, [table.table, index.name]);
    await sql(
      `INSERT INTO ${layout.own('counts')} (tbl, idx, grp, n) SELECT $1, $2, ${ident(index.group)}, count(*) FROM ${table.sql} WHERE ${ident(index.group)} IS NOT NULL GROUP BY 3`,
      [table.table, index.name],
    );
    if (rewritten > 0) log(`docs-platform store: index ${index.name} of ${table.table} created over ${rewritten} records`);
  }
}

/** Computes every index column of the records already in a table, a batch at a time. */
async function backfill(sql: Sql, table: TableLayout): Promise<number> {
  const sets = table.indexes.flatMap((index, i) => [`${ident(index.group)} = x.c${2 * i}`, `${ident(index.key)} = x.c${2 * i + 1}`]);
  const casts = table.indexes.flatMap((_, i) => [`$${2 * i + 2}::bytea[]`, `$${2 * i + 3}::bytea[]`]);
  const names = table.indexes.flatMap((_, i) => [`c${2 * i}`, `c${2 * i + 1}`]);
  let after = '';
  let total = 0;
  for (;;) {
    const batch = await sql(`SELECT id, data FROM ${table.sql} WHERE id > $1 ORDER BY id LIMIT ${BACKFILL_BATCH}`, [after]);
    if (batch.rows.length === 0) return total;
    const ids = batch.rows.map((row) => row.id as string);
    const columns: (Buffer | null)[][] = table.indexes.flatMap(() => [[], []]);
    for (const row of batch.rows) indexColumns(table, JSON.parse(row.data)).forEach((value, i) => columns[i].push(value));
    await sql(`UPDATE ${table.sql} AS t SET ${sets.join(', ')} FROM unnest($1::text[], ${casts.join(', ')}) AS x(id, ${names.join(', ')}) WHERE t.id = x.id`, [
      ids,
      ...columns,
    ]);
    total += ids.length;
    after = ids[ids.length - 1];
  }
}
