import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { caseIds, type ServerKind } from './cases.js';
import { startChild } from './child.js';
import type { CopiedData } from './postgres-copy-child.js';

/**
 * The PostgreSQL cases (ids `pg<N>-<case>-<size>`): the same requests as the JSON-file store's cases, over
 * the same seeded data copied into a fresh PostgreSQL schema, against the bundled server in 1 and in 2
 * processes on one port (node:cluster, as `serve --workers N`).
 */

/** The server processes the PostgreSQL cases run with. */
export const POSTGRES_SERVERS: readonly ServerKind[] = [1, 2].map((processes) => ({ store: 'postgres', processes }));

/** The ids of the PostgreSQL cases of a data set, without building them. */
export function postgresCaseIds(members: number, withWrites: boolean): string[] {
  return POSTGRES_SERVERS.flatMap((server) => caseIds(members, withWrites, server));
}

export { postgresUnavailable } from '../test/postgres/reachable.js';

/** A seeded data set in a PostgreSQL schema of its own. */
export interface PostgresCopy {
  /** The store's URL, with its `?schema=`. */
  readonly url: string;
  readonly copyMs: number;
  readonly records: number;
  /** Drops the schema. */
  drop(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));

/**
 * Copies a seeded JSON data file into a new schema of the database at `url` (in a child process, with
 * `migrate`'s copyInstallation), so that both stores hold the same records. The schema is dropped again
 * when the copy fails, and by `drop` after the cases.
 */
export async function copyToPostgres(url: string, file: string): Promise<PostgresCopy> {
  const schema = `bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const target = new URL(url);
  target.searchParams.set('schema', schema);
  const drop = async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await client.end();
    }
  };
  try {
    const copier = await startChild<CopiedData>(join(here, 'postgres-copy-child.ts'), [file, target.toString()]);
    await copier.stop();
    return { url: target.toString(), ...copier.info, drop };
  } catch (error) {
    await drop().catch(() => undefined);
    throw error;
  }
}
