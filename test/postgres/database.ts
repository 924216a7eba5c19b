import pg from 'pg';
import { postgresUnavailable } from './reachable.js';

/**
 * The PostgreSQL the tests use: DOCS_PLATFORM_TEST_POSTGRES, default the machine's own
 * (postgres://postgres@127.0.0.1:5432/test). Where it does not answer, the PostgreSQL suites are skipped
 * with the reason printed, unless DOCS_PLATFORM_REQUIRE_POSTGRES=1 (CI) makes that a failure.
 */
export const TEST_DATABASE_URL = process.env.DOCS_PLATFORM_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';

const reason = await postgresUnavailable(TEST_DATABASE_URL);
if (reason && process.env.DOCS_PLATFORM_REQUIRE_POSTGRES === '1') {
  throw new Error(`DOCS_PLATFORM_REQUIRE_POSTGRES=1 but ${reason}`);
}
if (reason) process.stderr.write(`\nSKIPPED PostgreSQL suites: ${reason}. Set DOCS_PLATFORM_TEST_POSTGRES to a database to run them.\n`);

/** Whether the PostgreSQL suites run (see above). */
export const postgresAvailable = reason === undefined;
/** The reason they are skipped, for test titles. */
export const skipReason = reason ?? '';

/** A fresh PostgreSQL schema name for one test file or store, dropped by dropSchema. */
export function freshSchema(label: string): string {
  return `test_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
}

/** Drops schemas made by freshSchema. */
export async function dropSchemas(schemas: readonly string[]): Promise<void> {
  if (!postgresAvailable || schemas.length === 0) return;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** Empties every table of a schema, if it exists (faster than dropping and creating it again). */
export async function clearSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name <> 'meta'`, [schema]);
    if (rows.length > 0) await client.query(rows.map((row) => `DELETE FROM "${schema}"."${row.table_name}"`).join('; '));
  } finally {
    await client.end();
  }
}
