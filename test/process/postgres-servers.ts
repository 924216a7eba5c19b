/**
 * Real server processes on PostgreSQL for the multi-process tests: a fresh schema per test (dropped by
 * `dropDatabases()` in afterEach), its organization made with `init`, and several `serve` processes on it.
 */
import { describe, it } from 'vitest';
import { dropSchemas, freshSchema, postgresAvailable, skipReason, TEST_DATABASE_URL } from '../postgres/database.js';
import { api, type Call } from './api.js';
import { runCli, serve, type Server } from './spawn.js';

const schemas: string[] = [];

/** A `describe` that runs where PostgreSQL answers, and else is skipped with the reason in its title. */
export function describePostgres(title: string, body: () => void): void {
  if (postgresAvailable) describe(title, body);
  else describe.skip(`${title} (skipped: ${skipReason})`, () => it('needs PostgreSQL', () => undefined));
}

/** The `--data` URL of `schema` in the test database, optionally reached through another port of this host. */
export function databaseUrl(schema: string, port?: number): string {
  const url = new URL(TEST_DATABASE_URL);
  if (port !== undefined) url.port = String(port);
  url.searchParams.set('schema', schema);
  return url.toString();
}

/** A fresh schema's name, dropped by dropDatabases(). */
export function freshDatabase(label: string): string {
  const schema = freshSchema(label);
  schemas.push(schema);
  return schema;
}

/** Drops the schemas of freshDatabase(); for afterEach, once the servers on them are gone. */
export async function dropDatabases(): Promise<void> {
  await dropSchemas(schemas.splice(0));
}

/** What `init --json` printed. */
export interface Owner {
  readonly organizationId: string;
  readonly userId: string;
  readonly token: string;
}

/** Runs `init --json` on a database: only one process may make the first start. */
export async function initialize(url: string): Promise<Owner> {
  const init = await runCli(['init', '--data', url, '--json']);
  if (init.code !== 0) throw new Error(`init exited ${init.code}: ${init.stderr}`);
  return JSON.parse(init.stdout) as Owner;
}

/** Runs `user create --json` with a role; resolves to the new user's id. */
export async function createUser(url: string, organizationId: string, name: string, role: string): Promise<string> {
  const email = `${name.toLowerCase()}@example.com`;
  const created = await runCli(['user', 'create', '--data', url, '--org', organizationId, '--email', email, '--name', name, '--role', role, '--json']);
  if (created.code !== 0) throw new Error(`user create exited ${created.code}: ${created.stderr}`);
  return JSON.parse(created.stdout).userId as string;
}

/** Several server processes on one database, and the owner's client for each. */
export interface Processes extends Owner {
  readonly url: string;
  readonly servers: Server[];
  /** The owner's client of each process, by position. */
  readonly calls: Call[];
  /** The ids of the users made with `users`, in order. */
  readonly userIds: string[];
}

/**
 * Makes a fresh database, initializes it, and starts `count` separate `serve` processes on it; meanwhile
 * makes a member (role read) of the organization for each name of `users`.
 */
export async function startProcesses(label: string, count: number, users: readonly string[] = []): Promise<Processes> {
  const url = databaseUrl(freshDatabase(label));
  const owner = await initialize(url);
  const [servers, userIds] = await Promise.all([
    Promise.all(Array.from({ length: count }, () => serve(url))),
    Promise.all(users.map((name) => createUser(url, owner.organizationId, name, 'read'))),
  ]);
  return { ...owner, url, servers, userIds, calls: servers.map((server) => api(server.url, owner.token)) };
}

/** Codes of a request that found no server, or lost it mid-answer (undici's socket errors included). */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** Whether fetch failed for want of a connection: refused, reset or closed; not a timeout, not an HTTP answer. */
export function isConnectionError(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return error instanceof TypeError && CONNECTION_CODES.has(String(cause?.code));
}
