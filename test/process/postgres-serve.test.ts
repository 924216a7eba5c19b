import { createServer, connect, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { databaseUrlOf, dropDatabase, freshDatabaseName, TEST_DATABASE_URL } from '../postgres/database.js';
import { api, listAll, type Reply } from './api.js';
import { databaseUrl, describePostgres, dropDatabases, freshDatabase, initialize } from './postgres-servers.js';
import { cleanUp, FIRST_START_TOKEN, LISTENING, listening, runCli, serve, startCli, tempDir } from './spawn.js';

/**
 * `serve` on PostgreSQL (issue 16): `--workers N` with node:cluster, a database that does not answer at
 * start, and one that goes away while serving, through a TCP proxy the test controls (the machine's
 * PostgreSQL itself is never stopped).
 */

afterEach(async () => {
  await cleanUp();
  await dropDatabases();
});

/** Expects the error shape with `status`. */
function expectError(reply: Reply, status: number, what: string) {
  expect(reply.status, `${what}: ${JSON.stringify(reply.body)}`).toBe(status);
  expect(reply.body).toEqual({ error: { code: status, message: expect.any(String) } });
}

test('serve --workers 2 on a JSON data file exits 2 with one line naming PostgreSQL', async () => {
  const result = await runCli(['serve', '--data', join(tempDir(), 'data.json'), '--port', '0', '--workers', '2']);
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(/^error: serve: --workers needs a PostgreSQL database/);
});

test('serve on a database that does not answer prints one error line and exits 1', async () => {
  const result = await runCli(['serve', '--data', 'postgres://postgres@127.0.0.1:1/test', '--port', '0']);
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: Cannot reach the PostgreSQL database: .*ECONNREFUSED/)]);
});

/**
 * A TCP proxy on 127.0.0.1 to the test database. `drop()` closes every proxied connection and refuses
 * new ones (its port is closed), `open()` listens again on the same port, and `hold(pattern)` makes a
 * connection swallow what its client sends from the first statement that matches on, so that its
 * transaction stays in flight until the drop.
 */
class DatabaseProxy {
  port = 0;
  private listener?: NetServer;
  private readonly sockets = new Set<Socket>();
  private holding?: RegExp;
  /** The client connections held. */
  private readonly held = new Set<Socket>();
  private onHeld: () => void = () => undefined;

  async open(): Promise<void> {
    const target = new URL(TEST_DATABASE_URL);
    const listener = createServer((client) => {
      const upstream = connect(Number(target.port || 5432), target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.on('data', (chunk: Buffer) => {
        if (!this.held.has(client) && !this.holding?.test(chunk.toString('latin1'))) return upstream.write(chunk);
        this.held.add(client);
        this.onHeld();
      });
      upstream.on('data', (chunk) => client.write(chunk));
    });
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(this.port, '127.0.0.1', resolve);
    });
    this.port = (listener.address() as AddressInfo).port;
    this.listener = listener;
  }

  /** Holds each connection whose client sends a statement matching `pattern`, from that statement on. */
  hold(pattern: RegExp): void {
    this.holding = pattern;
  }

  /** Resolves once `count` connections are held: that many transactions are in flight. */
  heldQueries(count: number, timeoutMs = 20_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.held.size} of ${count} connections held after ${timeoutMs} ms`)), timeoutMs);
      this.onHeld = () => {
        if (this.held.size < count) return;
        clearTimeout(timer);
        resolve();
      };
      this.onHeld();
    });
  }

  /** Stops holding: connections held so far stay swallowed until they close, new statements pass. */
  release(): void {
    this.holding = undefined;
    this.held.clear();
  }

  /** Closes every connection and the port. */
  async drop(): Promise<void> {
    const listener = this.listener!;
    this.listener = undefined;
    const closed = new Promise((resolve) => listener.close(resolve));
    for (const socket of this.sockets) socket.destroy();
    await closed;
    this.holding = undefined;
    this.held.clear();
  }
}

describePostgres('serve on PostgreSQL', () => {
  test('a first start on a database that does not exist creates it (the URL\'s user may), then the organization', { timeout: 60_000 }, async () => {
    const name = freshDatabaseName('serve');
    try {
      const child = startCli(['serve', '--data', databaseUrlOf(name), '--port', '0']);
      const server = await listening(child);
      expect(child.stdout).toMatch(FIRST_START_TOKEN);
      expect(child.stdout).toContain(`docs-platform store: created the PostgreSQL database \\"${name}\\"`);
      expect((await api(server.url, FIRST_START_TOKEN.exec(child.stdout)![1]!)('GET', '/readyz')).status).toBe(200);
      child.signal('SIGTERM');
      expect(await child.exited).toEqual({ code: 0, signal: null });
    } finally {
      await dropDatabase(name);
    }
  });

  test('serve --workers 3 prints the token once and one listening line, answers, and stops on SIGTERM with exit 0', { timeout: 60_000 }, async () => {
    const url = databaseUrl(freshDatabase('cluster'));
    const child = startCli(['serve', '--data', url, '--port', '0', '--workers', '3']);
    const server = await listening(child);
    const [, token] = FIRST_START_TOKEN.exec(child.stdout)!;
    const organizationId = /created organization (\S+)/.exec(child.stdout)![1]!;
    const call = api(server.url, token!);
    // Requests at once, on several connections, which the primary hands out among the workers.
    const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => call('PUT', `/v1/orgs/${organizationId}/teams`, { title: `Team ${i}` })));
    expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 201));
    expect((await listAll(call, `/v1/orgs/${organizationId}/teams`)).length).toBe(12);
    child.signal('SIGTERM');
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.stdout.match(new RegExp(LISTENING, 'g'))).toHaveLength(1);
    expect(child.stdout.match(new RegExp(FIRST_START_TOKEN, 'g'))).toHaveLength(1);
    expect(child.stdout).toMatch(/with 3 worker processes/);
    expect(child.stdout).toMatch(/docs-platform stopped: every request answered/);
  });

  test('a database lost while serving: 503 in the error shape, in flight, refused or silent, nothing half-written; served again once it is back', { timeout: 60_000 }, async () => {
    const schema = freshDatabase('lost');
    const { organizationId, token } = await initialize(databaseUrl(schema));
    const proxy = new DatabaseProxy();
    await proxy.open();
    // A statement unanswered for 1.5 s drops its connection (the default is 30 s).
    const server = await serve(`${databaseUrl(schema, proxy.port)}&query_timeout=1500`);
    const call = api(server.url, token);
    const org = `/v1/orgs/${organizationId}`;
    const titles = async () => (await listAll(call, `${org}/teams`)).map((team) => team.title);
    expect((await call('PUT', `${org}/teams`, { title: 'Before' })).status).toBe(201);

    // A database that goes silent in the middle of transactions, its connections open (a network partition
    // that drops packets): the statements' timeout ends them, where TCP would wait for hours.
    proxy.hold(/BEGIN/);
    const silentRead = call('GET', org);
    const silentWrite = call('PUT', `${org}/teams`, { title: 'Partitioned' });
    await proxy.heldQueries(2);
    expectError(await silentRead, 503, 'a read when the database went silent');
    expectError(await silentWrite, 503, 'a write when the database went silent');
    proxy.release();
    expect((await call('GET', org)).status).toBe(200);

    // Transactions in flight when every connection drops: a read and a write, each held from its BEGIN on
    // (the one statement sent as text every time: the others are prepared, sent by name once a connection
    // has run them). The read is one not made since the last commit: GET org, just read, may be answered
    // from the snapshot cache, with no BEGIN to hold.
    proxy.hold(/BEGIN/);
    const read = call('GET', `${org}/teams`);
    const write = call('PUT', `${org}/teams`, { title: 'In flight' });
    await proxy.heldQueries(2);
    await proxy.drop();
    expectError(await read, 503, 'a read in flight');
    expectError(await write, 503, 'a write in flight');

    // While the database refuses connections.
    expectError(await call('GET', org), 503, 'a read while refused');
    expectError(await call('PUT', `${org}/teams`, { title: 'Refused' }), 503, 'a write while refused');
    // A load balancer's probe says so too; the process itself is alive.
    expectError(await call('GET', '/readyz'), 503, 'readiness while refused');
    expect((await call('GET', '/healthz')).status).toBe(200);

    // A database that takes connections and never answers: the pool gives up after its connect timeout.
    await proxy.open();
    proxy.hold(/[^]/);
    expectError(await call('GET', org), 503, 'a read while the database is silent');
    await proxy.drop();

    await proxy.open();
    expect((await call('GET', '/readyz')).status).toBe(200);
    expect((await call('GET', org)).status).toBe(200);
    expect((await call('PUT', `${org}/teams`, { title: 'After' })).status).toBe(201);
    expect(await titles()).toEqual(['Before', 'After']);
    server.child.signal('SIGTERM');
    expect(await server.child.exited).toEqual({ code: 0, signal: null });

    // Each outage is two log entries: one as it began (error, with the reason), one as it ended (info, with
    // how long it lasted); the requests between logged no stack.
    const entries = server.child.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    const outages = entries.flatMap((entry) => {
      if (/^docs-platform store: database unreachable: \S/.test(entry.msg)) return [`${entry.level}:down`];
      return /^docs-platform store: database reachable again after [\d.]+ s$/.test(entry.msg) ? [`${entry.level}:up`] : [];
    });
    expect(outages.join(' ')).toMatch(/^50:down 30:up 50:down 30:up( 50:down 30:up)*$/);
    expect(entries.filter((entry) => entry.msg === 'request failed')).toEqual([]);
  });
});
