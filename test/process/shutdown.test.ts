import { existsSync } from 'node:fs';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { api, listAll, type Reply } from './api.js';
import { FIRST_START_TOKEN, cleanUp, listening, start, tempDir, type Child, type Server } from './spawn.js';

// Every test starts the server two or three times; on a loaded machine each start can take seconds.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 30_000 });
afterEach(cleanUp);

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;
const IN_FLIGHT = 50;

/** `npm start` as an operator runs it, in its own process group so that a signal reaches the whole tree. */
function npmStart(data: string): Child {
  return start('npm', ['start'], { env: { PORT: '0', HOST: '127.0.0.1', DOCS_PLATFORM_DATA: data }, group: true });
}

/** The file `npm start` runs (built by vitest's global setup), without npm and sh in between: its own exit code is seen. */
function serverEntry(data: string): Child {
  return start(process.execPath, ['build/server/server.js'], { env: { PORT: '0', DOCS_PLATFORM_DATA: data } });
}

/** A response with its headers. */
interface HeldReply extends Reply {
  readonly headers: IncomingHttpHeaders;
}

/** A request the server has begun (it read the headers and answered 100 Continue) whose body waits for send(). */
interface Held {
  send(): Promise<HeldReply>;
}

/** Starts a JSON PUT and resolves once the server's handler holds it, waiting for the body. */
function holdPut(url: string, path: string, token: string, body: unknown, agent: Agent | false = false): Promise<Held> {
  return holdRequest('PUT', url, path, token, body, agent);
}

/** Starts a request with a JSON body and resolves once the server's handler holds it, waiting for the body. */
function holdRequest(method: string, url: string, path: string, token: string, body: unknown, agent: Agent | false = false): Promise<Held> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(url + path, {
      method,
      agent,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
        expect: '100-continue',
      },
    });
    const response = new Promise<HeldReply>((resolveReply, rejectReply) => {
      req.once('error', rejectReply);
      req.once('response', (res) => {
        let data = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (data += chunk));
        res.once('error', rejectReply);
        res.once('end', () => resolveReply({ status: res.statusCode!, body: data === '' ? null : JSON.parse(data), headers: res.headers }));
      });
    });
    response.catch(() => undefined); // observed by send(); an early failure rejects the outer promise too
    req.once('error', reject);
    req.once('continue', () => resolve({ send: () => (req.end(text), response) }));
    req.flushHeaders();
  });
}

/** The error code of a request on a new connection (fetch could reuse a pooled one the server closed). */
function connectionFailure(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false })
      .once('response', (res) => reject(new Error(`got a response: ${res.statusCode}`)))
      .once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? String(error)))
      .end();
  });
}

/** The owner's token printed on a first start, and the organization it owns. */
async function firstStart(server: Server): Promise<{ token: string; organizationId: string }> {
  const matches = [...server.child.stdout.matchAll(new RegExp(FIRST_START_TOKEN, 'g'))];
  expect(matches).toHaveLength(1);
  const token = matches[0]![1]!;
  const orgs = await api(server.url, token)('GET', '/v1/orgs');
  expect(orgs.status).toBe(200);
  return { token, organizationId: orgs.body.items[0].id };
}

/**
 * Holds IN_FLIGHT team creations in the server, sends `signal`, checks that a new connection is refused (or
 * reset, never answered) once it stops accepting, then lets the held requests finish: every one must get its 201.
 */
async function shutDownWithHeldRequests(server: Server, token: string, organizationId: string, signal: NodeJS.Signals, stop: () => void) {
  const titles = Array.from({ length: IN_FLIGHT }, (_, i) => `held ${signal} ${i}`);
  const held = await Promise.all(titles.map((title) => holdPut(server.url, `/v1/orgs/${organizationId}/teams`, token, { title })));
  stop();
  await server.child.waitFor(new RegExp(`${signal}: finishing in-flight requests`));
  // Refused, or reset when the kernel had queued it on the listening socket as that socket closed (seen once in
  // CI, behind the tsx launcher): either way it is never answered.
  expect(['ECONNREFUSED', 'ECONNRESET']).toContain(await connectionFailure(`${server.url}/v1/orgs`));
  const replies = await Promise.all(held.map((request) => request.send()));
  expect(replies.map((reply) => reply.status)).toEqual(titles.map(() => 201));
  expect(replies.map((reply) => reply.body.title)).toEqual(titles);
  return replies.map((reply) => reply.body as { id: string; title: string });
}

/** Checks that every acknowledged team is in the store a new server reads. */
async function expectTeams(server: Server, token: string, organizationId: string, teams: { id: string; title: string }[]) {
  const call = api(server.url, token);
  const stored = new Map((await listAll(call, `/v1/orgs/${organizationId}/teams`)).map((team) => [team.id, team.title]));
  for (const team of teams) expect(stored.get(team.id), team.title).toBe(team.title);
}

describe('npm start', () => {
  test('prints the token on the first start only, and a signal to its process group stops it gracefully', async () => {
    const data = join(tempDir(), 'data', 'docs-platform.json');
    const first = await listening(npmStart(data));
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/); // PORT=0 picks a free port and prints it
    const { token, organizationId } = await firstStart(first);

    const teams = await shutDownWithHeldRequests(first, token, organizationId, 'SIGTERM', () => first.child.signal('SIGTERM'));
    // The server exits 0 (see 'the server entry' below), but where /bin/sh is dash npm dies of the signal:
    // the shell stays between npm and tsx, dies of the group's signal, and npm re-raises it on itself at
    // once, without waiting for the server. (`exited` waits for the output pipe, which the server holds.)
    expect([{ code: 0, signal: null }, { code: null, signal: 'SIGTERM' }]).toContainEqual(await first.child.exited);
    expect(first.child.stdout).toMatch(/docs-platform stopped/);
    expect(existsSync(`${data}.lock`)).toBe(false);

    const second = await listening(npmStart(data));
    expect(second.child.stdout).not.toMatch(FIRST_START_TOKEN);
    expect(second.child.stdout).not.toContain(token);
    await expectTeams(second, token, organizationId, teams);
    const more = await shutDownWithHeldRequests(second, token, organizationId, 'SIGINT', () => second.child.signal('SIGINT'));
    expect([{ code: 0, signal: null }, { code: null, signal: 'SIGINT' }]).toContainEqual(await second.child.exited);
    expect(second.child.stdout).toMatch(/docs-platform stopped/);

    const third = await listening(npmStart(data));
    await expectTeams(third, token, organizationId, [...teams, ...more]);
  });
});

describe('the server entry (src/server.ts built into build/server/server.js, what npm start runs)', () => {
  test.each(SIGNALS)('%s: finishes the requests in flight, refuses new connections, flushes and exits 0', async (signal) => {
    const data = join(tempDir(), 'docs-platform.json');
    const first = await listening(serverEntry(data));
    const { token, organizationId } = await firstStart(first);
    const teams = await shutDownWithHeldRequests(first, token, organizationId, signal, () => first.child.signal(signal));
    expect(await first.child.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(`${data}.lock`)).toBe(false);

    const second = await listening(serverEntry(data));
    expect(second.child.stdout).not.toMatch(FIRST_START_TOKEN);
    await expectTeams(second, token, organizationId, teams);
  });

  test('a signal delivered twice at once (the group\'s, and npm or tsx forwarding it) still shuts down gracefully', async () => {
    const data = join(tempDir(), 'docs-platform.json');
    const first = await listening(serverEntry(data));
    const { token, organizationId } = await firstStart(first);
    const teams = await shutDownWithHeldRequests(first, token, organizationId, 'SIGTERM', () => {
      first.child.signal('SIGTERM');
      first.child.signal('SIGTERM');
    });
    expect(await first.child.exited).toEqual({ code: 0, signal: null });
    const second = await listening(serverEntry(data));
    await expectTeams(second, token, organizationId, teams);
  });

  test('a second signal a second later exits at once with code 1; the next start takes the lock over', async () => {
    const data = join(tempDir(), 'docs-platform.json');
    const server = await listening(serverEntry(data));
    const { token, organizationId } = await firstStart(server);
    const held = await holdPut(server.url, `/v1/orgs/${organizationId}/teams`, token, { title: 'never sent' });
    server.child.signal('SIGINT');
    await server.child.waitFor(/SIGINT: finishing in-flight requests/);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    server.child.signal('SIGINT');
    expect(await server.child.exited).toEqual({ code: 1, signal: null });
    expect(server.child.stderr).toMatch(/SIGINT again: exiting without waiting/);
    await expect(held.send()).rejects.toThrow();
    expect(existsSync(`${data}.lock`)).toBe(true); // left by a process that is gone: the next start takes it over
    await listening(serverEntry(data));
  });

  test('a burst of writes cut by SIGTERM: each gets a 201 or a connection error, and every 201 is kept', async () => {
    const data = join(tempDir(), 'docs-platform.json');
    const first = await listening(serverEntry(data));
    const { token, organizationId } = await firstStart(first);
    const call = api(first.url, token);
    let answered = 0;
    const outcomes = Array.from({ length: IN_FLIGHT }, (_, i) =>
      call('PUT', `/v1/orgs/${organizationId}/teams`, { title: `burst ${i}` }).then(
        (reply) => {
          if (++answered === 5) first.child.signal('SIGTERM');
          return reply;
        },
        (error: { cause?: { code?: string } }) => error.cause?.code ?? String(error),
      ),
    );
    const settled = await Promise.all(outcomes);
    expect(await first.child.exited).toEqual({ code: 0, signal: null });
    const acknowledged = settled.filter((outcome): outcome is Reply => typeof outcome !== 'string');
    for (const reply of acknowledged) expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    for (const failure of settled.filter((outcome) => typeof outcome === 'string')) {
      expect(['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET']).toContain(failure);
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(5);

    const second = await listening(serverEntry(data));
    await expectTeams(second, token, organizationId, acknowledged.map((reply) => reply.body));
  });

  test('/readyz answers 503 once a graceful stop has begun, while the requests in flight finish', async () => {
    const data = join(tempDir(), 'docs-platform.json');
    const server = await listening(serverEntry(data));
    const { token, organizationId } = await firstStart(server);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const held = await holdPut(server.url, `/v1/orgs/${organizationId}/teams`, token, { title: 'in flight' });
    // A probe in flight too (its body held back), as a load balancer's on a connection it keeps open.
    const probe = await holdRequest('GET', server.url, '/readyz', token, {});
    server.child.signal('SIGTERM');
    await server.child.waitFor(/SIGTERM: finishing in-flight requests/);
    const readiness = await probe.send();
    expect(readiness.status).toBe(503);
    expect(readiness.body).toEqual({ error: { code: 503, message: 'Not ready: The server is stopping' } });
    const team = await held.send();
    expect(team.status).toBe(201);
    expect(await server.child.exited).toEqual({ code: 0, signal: null });
    const again = await listening(serverEntry(data));
    await expectTeams(again, token, organizationId, [team.body]);
  });

  test('a request in flight on a keep-alive connection does not hold the shutdown for the keep-alive timeout', async () => {
    const data = join(tempDir(), 'docs-platform.json');
    const server = await listening(serverEntry(data));
    const { token, organizationId } = await firstStart(server);
    const agent = new Agent({ keepAlive: true });
    try {
      const held = await holdPut(server.url, `/v1/orgs/${organizationId}/teams`, token, { title: 'kept alive' }, agent);
      server.child.signal('SIGTERM');
      await server.child.waitFor(/SIGTERM: finishing in-flight requests/);
      const reply = await held.send();
      expect(reply.status).toBe(201);
      // node keeps such a connection open for keepAliveTimeout (5 s) unless the response closes it.
      expect(reply.headers.connection).toBe('close');
      expect(await server.child.exited).toEqual({ code: 0, signal: null });
    } finally {
      agent.destroy();
    }
  });
});

describe('tsx, the launcher of the CLI (`npm run cli -- serve`)', () => {
  test('relays a SIGTERM sent to it alone to the server, and passes its exit code 0 on', async () => {
    const data = join(tempDir(), 'docs-platform.json');
    // Its own group only so that cleanUp() can kill the server too; the signal goes to tsx alone.
    const launcher = start(join('node_modules', '.bin', 'tsx'), ['src/server.ts'], { env: { PORT: '0', DOCS_PLATFORM_DATA: data }, group: true });
    const server = await listening(launcher);
    const { token, organizationId } = await firstStart(server);
    const teams = await shutDownWithHeldRequests(server, token, organizationId, 'SIGTERM', () => launcher.process.kill('SIGTERM'));
    expect(await server.child.exited).toEqual({ code: 0, signal: null });
    const again = await listening(serverEntry(data));
    await expectTeams(again, token, organizationId, teams);
  });
});
