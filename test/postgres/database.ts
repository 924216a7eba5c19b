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

/** Runs `fn` on a connection of its own to the test database (or to the database at `url`). */
export async function withTestClient<T>(fn: (client: pg.Client) => Promise<T>, url = TEST_DATABASE_URL): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Drops a schema, again when PostgreSQL picks the drop as a deadlock's victim (40P01): it locks every table
 * of the schema one by one, and a server still at work on them (a token's last use, written after the
 * answer) may hold one of them while it waits for another.
 */
export async function dropSchema(client: pg.Client, schema: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt === 5) throw error;
    }
  }
}

/** Drops schemas made by freshSchema. */
export async function dropSchemas(schemas: readonly string[]): Promise<void> {
  if (!postgresAvailable || schemas.length === 0) return;
  await withTestClient(async (client) => {
    for (const schema of schemas) await dropSchema(client, schema);
  });
}

/** What empties a schema's tables again and again: see schemaEmptier. */
export interface SchemaEmptier {
  /** Empties every table of the schema but `meta` (its version). */
  empty(): Promise<void>;
  /** Closes its connection. */
  end(): Promise<void>;
}

/**
 * Empties a schema's tables on one connection of its own (faster than dropping and creating the schema
 * again). The tables are listed once, when it first finds some: a catalog query costs several times the
 * DELETEs, and so would a fresh connection each time (the HTTP suites on PostgreSQL empty their file's schema
 * before every test).
 */
export function schemaEmptier(schema: string): SchemaEmptier {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  const connected = client.connect();
  let statement = '';
  return {
    async empty() {
      await connected;
      if (!statement) {
        const { rows } = await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name <> 'meta'`, [schema]);
        statement = rows.map((row) => `DELETE FROM "${schema}"."${row.table_name}"`).join('; ');
      }
      if (statement) await client.query(statement);
    },
    async end() {
      await connected.catch(() => undefined);
      await client.end();
    },
  };
}

/** A fresh name for a database of one test's own, `docs_platform_<label>_<pid>_<random>`; nothing is created. */
export function freshDatabaseName(label: string): string {
  return `docs_platform_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
}

/** The URL of database `name` on the test server, as `user` (default the test URL's). */
export function databaseUrlOf(name: string, user?: string): string {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  if (user !== undefined) url.username = user;
  return url.toString();
}

/** Creates a database of one test's own (never the `test` database) and resolves to its URL; dropDatabase drops it. */
export async function createDatabase(name: string): Promise<string> {
  await withTestClient((client) => client.query(`CREATE DATABASE "${name}"`));
  return databaseUrlOf(name);
}

/**
 * Lets database `name` take connections, or refuses them as an outage does: ALLOW_CONNECTIONS false, and
 * its open connections terminated (waiting until they are gone). Only that database's connections.
 */
export async function setConnectionsAllowed(name: string, allowed: boolean): Promise<void> {
  await withTestClient(async (client) => {
    await client.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS ${allowed}`);
    if (!allowed) await client.query(`SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = $1`, [name]);
  });
}

/** Drops a database made by a test, if it exists; FORCE terminates its connections first. */
export async function dropDatabase(name: string): Promise<void> {
  if (!postgresAvailable) return;
  await withTestClient((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
