/**
 * PostgreSQL outages under a running server, through both transports: a database that refuses connections
 * (a database of the test's own), and a schema dropped and recreated empty. Requests answer 503 in the error
 * shape with Retry-After, never 500; /readyz answers 503; the store logs one line when the outage begins
 * and one when it ends, and no stack; the server serves again by itself once the database is back.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { OUTAGE_RETRY_AFTER_SECONDS } from '../../src/store/postgres/errors.js';
import { createPostgresStore } from '../../src/postgres.js';
import { createHarness, TRANSPORTS, type Harness, type Transport, type TestResponse } from '../http/harness.js';
import {
  createDatabase,
  dropDatabase,
  dropSchema,
  dropSchemas,
  freshDatabaseName,
  freshSchema,
  postgresAvailable,
  setConnectionsAllowed,
  skipReason,
  TEST_DATABASE_URL,
  withTestClient,
} from './database.js';

// Creating and dropping a database, and migrating it, take seconds on a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

const databases: string[] = [];
const schemas: string[] = [];
let harness: Harness | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
  for (const name of databases.splice(0)) await dropDatabase(name);
  await dropSchemas(schemas.splice(0));
});

/**
 * A server over a PostgreSQL store at `url` (and `schema`), with rate limits counted in the database as the
 * bundled server's are; what the store logged (`level line`), the store's clock, and the stacks the
 * pipeline logged.
 */
async function serverOn(transport: Transport, url: string, schema?: string) {
  const lines: string[] = [];
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const store = await createPostgresStore({ connectionString: url, schema, maxConnections: 4, now: clock.now, log: (line, level = 'info') => lines.push(`${level} ${line}`) });
  const failures: unknown[] = [];
  const logger = { request: () => undefined, failure: (...args: unknown[]) => void failures.push(args[3]) };
  harness = await createHarness(transport, { store, pipeline: { health: true, logger, rateLimit: { perMinute: 100_000 } } });
  /** The store's lines about outages (not its migrations'). */
  const outageLines = () => lines.filter((line) => / database (unreachable|reachable again)/.test(line));
  return { h: harness, store, clock, outageLines, failures };
}

/** Expects a 503 in the error shape (the harness checks the shape) with the store's Retry-After. */
function expectOutage(reply: TestResponse, what: string) {
  expect(reply.status, `${what}: ${reply.text}`).toBe(503);
  expect(reply.headers.get('retry-after'), what).toBe(String(OUTAGE_RETRY_AFTER_SECONDS));
}

/** The status and message of an answer of /readyz. */
async function readiness(h: Harness): Promise<{ status: number; message?: string }> {
  const response = await h.send('/readyz');
  const body = await response.json();
  return { status: response.status, message: body.error?.message };
}

describe.skipIf(!postgresAvailable).each(TRANSPORTS)(`PostgreSQL outages (%s)${postgresAvailable ? '' : ` (skipped: ${skipReason})`}`, (transport) => {
  it('a database that refuses connections: 503 with Retry-After for reads and writes, /readyz 503, one log line as it goes and one as it comes back, served again without a restart', async () => {
    const name = freshDatabaseName('outage');
    databases.push(name);
    const url = await createDatabase(name);
    const { h, store, clock, outageLines, failures } = await serverOn(transport, url);
    const org = `/v1/orgs/${h.organizationId}`;
    const reader = await h.user('read');
    expect((await h.owner.get(org)).status).toBe(200);
    expect((await h.owner.put(`${org}/teams`, { title: 'Before' })).status).toBe(201);
    expect(await readiness(h)).toEqual({ status: 200 });

    await setConnectionsAllowed(name, false);
    expectOutage(await h.owner.get(org), 'a read');
    expectOutage(await h.owner.put(`${org}/teams`, { title: 'Refused' }), 'a write');
    // A token this process has not seen: its budget needs the token's owner, which the store cannot tell.
    expectOutage(await reader.get(org), 'a read with a token this process had not seen');
    // A client without a token, whom the limiter had not counted in this window: counted in memory meanwhile.
    expect((await h.request('GET', org)).status).toBe(401);
    expect(await readiness(h)).toEqual({ status: 503, message: expect.stringMatching(/^Not ready: The database cannot be reached \(database ".*" is not currently accepting connections\)/) });

    clock.advance(7_000);
    await setConnectionsAllowed(name, true);
    expect((await h.owner.get(org)).status).toBe(200);
    expect((await h.owner.put(`${org}/teams`, { title: 'After' })).status).toBe(201);
    expect(await readiness(h)).toEqual({ status: 200 });
    const teams = await h.owner.get(`${org}/teams`);
    // The write refused during the outage left nothing.
    expect(teams.body.items.map((team: { title: string }) => team.title).sort()).toEqual(['After', 'Before']);

    expect(outageLines()).toEqual([
      expect.stringMatching(/^error docs-platform store: database unreachable: \S/),
      'info docs-platform store: database reachable again after 7 s',
    ]);
    // No stack was logged: neither a request's nor the rate limiter's.
    expect(failures).toEqual([]);
    // What the limiter counted in memory reached the shared counts once the database was back: the owner's
    // token and the client address.
    await store.rateLimiter.settle();
    const { rows } = await withTestClient((client) => client.query('SELECT count(*)::int AS keys FROM docs_platform.rate_limits'), url);
    expect(rows[0].keys).toBe(2);
  });

  it('a schema dropped and recreated empty under a running server: 503 with Retry-After, not 500; /readyz 503 until it is migrated again', async () => {
    const schema = freshSchema('dropped');
    schemas.push(schema);
    const { h, clock, outageLines, failures } = await serverOn(transport, TEST_DATABASE_URL, schema);
    const org = `/v1/orgs/${h.organizationId}`;
    expect((await h.owner.get(org)).status).toBe(200);
    expect(await readiness(h)).toEqual({ status: 200 });

    await withTestClient(async (client) => {
      await dropSchema(client, schema);
      await client.query(`CREATE SCHEMA "${schema}"`);
    });
    expectOutage(await h.owner.get(org), 'a read');
    expectOutage(await h.owner.put(`${org}/teams`, { title: 'Lost' }), 'a write');
    expect(await readiness(h)).toEqual({ status: 503, message: expect.stringMatching(/^Not ready: The database does not hold the store's tables \(relation ".*\.meta" does not exist\)/) });
    expect(outageLines()).toEqual([expect.stringMatching(/^error docs-platform store: database unreachable: its schema or tables are gone \(relation ".*" does not exist\)$/)]);
    expect(failures).toEqual([]);

    // A process that starts on it migrates it again, empty. /readyz keeps its answer for a second, then says so.
    await (await createPostgresStore({ connectionString: TEST_DATABASE_URL, schema, log: () => undefined })).close();
    expect((await readiness(h)).status).toBe(503);
    clock.advance(1_000);
    expect(await readiness(h)).toEqual({ status: 200 });
    // The data is gone with the schema, the owner's token too: a 401, not a 500.
    expect((await h.owner.get(org)).status).toBe(401);
    expect(outageLines()).toHaveLength(2);
  });
});
