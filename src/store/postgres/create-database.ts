import pg from 'pg';
import { StoreUnavailableError } from '../types.js';
import { codeOf, isMissingDatabase, reasonOf } from './errors.js';
import { ident } from './layout.js';
import type { StoreLog } from './outage.js';

/** SQLSTATEs of CREATE DATABASE: refused (no CREATEDB); a database of the name is there already. */
const INSUFFICIENT_PRIVILEGE = '42501';
const DUPLICATE_DATABASE = '42P04';

/** The databases to connect to in order to create another, as createdb tries them. */
const MAINTENANCE_DATABASES = ['postgres', 'template1'];

/** A word for a shell, quoted when it holds more than letters, digits and `_.-/@:`. */
const shellWord = (word: string) => (/^[\w./@:-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** Where a connection would go and as whom: the pool's settings, read as pg reads them (URL, key=value or PG* variables). */
function targetOf(config: pg.ClientConfig): { user: string; database: string; host: string; port: number; command: string; client: pg.ClientConfig } {
  // Never connected: pg resolves its settings when it is made.
  const parsed = new pg.Client(config);
  const user = parsed.user ?? '';
  const database = parsed.database ?? user;
  const command = `createdb -h ${shellWord(parsed.host)} -p ${parsed.port} -O ${shellWord(user)} ${shellWord(database)}`;
  return { user, database, host: parsed.host, port: parsed.port, command, client: { user, password: parsed.password, host: parsed.host, port: parsed.port, ssl: parsed.ssl } };
}

/** The error of a database that does not exist and is not to be created: one line, saying how to create it. */
export function missingDatabase(config: pg.ClientConfig, cause: unknown): StoreUnavailableError {
  const { database, command } = targetOf(config);
  return new StoreUnavailableError(`The PostgreSQL database "${database}" does not exist: create it first (${command})`, { cause });
}

/**
 * Creates the database that `config` names and that does not exist yet: connects as the same user to a
 * maintenance database (`postgres`, else `template1`, as createdb does) and runs CREATE DATABASE, the name
 * quoted. Another process that creates it meanwhile is fine. Where the user may not (no CREATEDB), or it
 * fails otherwise, throws a StoreUnavailableError whose one line says how to create it by hand.
 */
export async function createDatabase(config: pg.ClientConfig, connectionTimeoutMillis: number, log: StoreLog): Promise<void> {
  const { user, database, command, client: settings } = targetOf(config);
  let failure: unknown;
  for (const maintenance of MAINTENANCE_DATABASES) {
    const client = new pg.Client({ ...settings, database: maintenance, connectionTimeoutMillis });
    // A connection lost while it is open is an error event; the failed call reports it.
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query(`CREATE DATABASE ${ident(database)}`);
      log(`docs-platform store: created the PostgreSQL database "${database}"`);
      return;
    } catch (error) {
      if (codeOf(error) === DUPLICATE_DATABASE) return;
      failure = error;
      if (!isMissingDatabase(error)) break;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  const why =
    codeOf(failure) === INSUFFICIENT_PRIVILEGE ? `user "${user}" may not create it` : `creating it as user "${user}" failed (${reasonOf(failure)})`;
  throw new StoreUnavailableError(`The PostgreSQL database "${database}" does not exist and ${why}: create it as a user who may (${command})`, {
    cause: failure,
  });
}
