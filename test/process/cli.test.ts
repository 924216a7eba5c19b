import { existsSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { api, listAll } from './api.js';
import { cleanUp, FIRST_START_TOKEN, listening, runCli, runNpmCli, serve, startCli, tempDir, type Finished } from './spawn.js';

// Every test spawns Node processes; on a loaded machine each start can take seconds.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });
afterEach(cleanUp);

const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;

/** The one JSON line a `--json` command prints, checked to have exactly `keys`. */
function jsonLine(run: Finished, keys: string[]): Record<string, string> {
  expect(run, run.stderr).toMatchObject({ code: 0, stderr: '' });
  const lines = run.stdout.split('\n').filter(Boolean);
  expect(lines).toHaveLength(1);
  const value = JSON.parse(lines[0]!);
  expect(Object.keys(value).sort()).toEqual([...keys].sort());
  for (const key of keys) expect(value[key]).toMatch(/^\S+$/);
  return value;
}

describe('init and user create', () => {
  test('init --json through npm prints the credentials, and the token works on the served file', async () => {
    const data = join(tempDir(), 'nested', 'data.json');
    const created = jsonLine(await runNpmCli(['init', '--data', data, '--json']), ['organizationId', 'userId', 'token']);
    expect(existsSync(data)).toBe(true);

    const server = await serve(data);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/); // --port 0 prints the port it got
    const orgs = await api(server.url, created.token!)('GET', '/v1/orgs');
    expect(orgs.status).toBe(200);
    expect(orgs.body.items.map((org: { id: string }) => org.id)).toEqual([created.organizationId]);
    expect(await api(server.url, 'dp_not-a-token')('GET', '/v1/orgs')).toMatchObject({ status: 401 });
  });

  test('user create issues a working token for every role; an existing e-mail joins a second organization as the same user', async () => {
    const data = join(tempDir(), 'data.json');
    const first = jsonLine(await runCli(['init', '--data', data, '--json']), ['organizationId', 'userId', 'token']);
    const users: Record<string, Record<string, string>> = {};
    for (const role of ROLES) {
      users[role] = jsonLine(
        await runCli(['user', 'create', '--data', data, '--org', first.organizationId!, '--email', `${role}@example.com`, '--name', `The ${role}`, '--role', role, '--json']),
        ['userId', 'token'],
      );
    }
    expect(new Set(ROLES.map((role) => users[role]!.userId)).size).toBe(ROLES.length);
    const second = jsonLine(await runCli(['init', '--data', data, '--title', 'Second org', '--email', 'owner2@example.com', '--json']), ['organizationId', 'userId', 'token']);
    expect(second.organizationId).not.toBe(first.organizationId);
    const joined = jsonLine(
      await runCli(['user', 'create', '--data', data, '--org', second.organizationId!, '--email', 'read@example.com', '--name', 'Another name', '--role', 'edit', '--json']),
      ['userId', 'token'],
    );
    expect(joined.userId).toBe(users.read!.userId);
    expect(joined.token).not.toBe(users.read!.token);

    const { url } = await serve(data);
    for (const role of ROLES) {
      const call = api(url, users[role]!.token!);
      const orgs = await call('GET', '/v1/orgs');
      expect(orgs.status, role).toBe(200);
      expect(orgs.body.items.map((org: { id: string }) => org.id)).toContain(first.organizationId);
      const member = await call('GET', `/v1/orgs/${first.organizationId}/members/${users[role]!.userId}`);
      expect(member.body).toMatchObject({ id: users[role]!.userId, role, user: { displayName: `The ${role}` } });
    }
    for (const token of [users.read!.token!, joined.token!]) {
      const orgs = await listAll(api(url, token), '/v1/orgs');
      expect(orgs.map((org) => org.id).sort()).toEqual([first.organizationId, second.organizationId].sort());
    }
    const inSecond = await api(url, joined.token!)('GET', `/v1/orgs/${second.organizationId}/members/${joined.userId}`);
    expect(inSecond.body).toMatchObject({ role: 'edit', user: { displayName: 'The read' } });
  });
});

describe('init makes a new organization with a new owner', () => {
  test('without --email every init makes a new user; --email of an existing user makes that user the owner', async () => {
    const data = join(tempDir(), 'data.json');
    const keys = ['organizationId', 'userId', 'token'];
    const first = jsonLine(await runCli(['init', '--data', data, '--json']), keys);
    const second = jsonLine(await runCli(['init', '--data', data, '--json']), keys);
    expect(second.userId).not.toBe(first.userId);
    const ada = jsonLine(await runCli(['init', '--data', data, '--email', 'ada@example.com', '--json']), keys);
    const again = jsonLine(await runCli(['init', '--data', data, '--email', 'Ada@Example.com', '--json']), keys);
    expect(again.userId).toBe(ada.userId);
    const { url } = await serve(data);
    const organizationsOf = async (created: Record<string, string>) => (await listAll(api(url, created.token!), '/v1/orgs')).map((org) => org.id).sort();
    expect(await organizationsOf(first)).toEqual([first.organizationId]);
    expect(await organizationsOf(second)).toEqual([second.organizationId]);
    expect(await organizationsOf(again)).toEqual([ada.organizationId, again.organizationId].sort());
  });
});

describe('--help', () => {
  test.each([
    ['top level', ['--help'], /^Usage: docs-platform <command>/],
    ['init', ['init', '--help'], /^Usage: docs-platform init /],
    ['user create', ['user', 'create', '--help'], /^Usage: docs-platform user create /],
    ['serve', ['serve', '--help'], /^Usage: docs-platform serve /],
    ['backup', ['backup', '--help'], /^Usage: docs-platform backup /],
    ['token', ['token', '--help'], /^Usage: docs-platform token create /],
  ])('%s: prints its usage and exits 0', async (_name, args, usage) => {
    const run = await runCli(args);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(usage);
  });
});

describe('bad arguments: one line on stderr, exit code 2, nothing written', () => {
  const data = '<data>';
  test.each([
    ['an unknown flag', ['init', '--data', data, '--bogus'], /--bogus/],
    ['--data without its value', ['init', '--data'], /--data/],
    ['user create without --data value', ['user', 'create', '--org', 'o', '--email', 'a@b.co', '--name', 'N', '--role', 'read', '--data'], /--data/],
    ['a missing required option', ['user', 'create', '--data', data, '--email', 'a@b.co', '--name', 'N', '--role', 'read'], /--org/],
    ['a bad role', ['user', 'create', '--data', data, '--org', 'o', '--email', 'a@b.co', '--name', 'N', '--role', 'owner'], /--role/],
    ['a port that is not a number', ['serve', '--data', data, '--port', 'http'], /--port/],
    ['a port out of range', ['serve', '--data', data, '--port', '65536'], /--port/],
    ['a negative port', ['serve', '--data', data, '--port', '-1'], /--port/],
    ['backup without --out', ['backup', '--data', data], /--out/],
    ['backup onto the data file', ['backup', '--data', data, '--out', data], /--out/],
    ['an unknown command', ['frobnicate'], /frobnicate/],
    ['an unknown user subcommand', ['user', 'delete'], /delete/],
    ['an unknown token subcommand', ['token', 'rotate', '--data', data, '--user', 'u'], /rotate/],
    ['token revoke without --id', ['token', 'revoke', '--data', data, '--user', 'u'], /--id/],
    ['token list without --user', ['token', 'list', '--data', data], /--user/],
    ['a positional argument', ['init', '--data', data, 'extra'], /extra/],
  ])('%s', async (_name, template, mention) => {
    const data = join(tempDir(), 'never-created.json');
    const run = await runCli(template.map((arg) => (arg === '<data>' ? data : arg)));
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: [^\n]+\n$/);
    expect(run.stderr).toMatch(mention);
    expect(existsSync(data)).toBe(false);
  });

  test('through npm too', async () => {
    const data = join(tempDir(), 'never-created.json');
    const run = await runNpmCli(['init', '--data', data, '--bogus']);
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(/^error: [^\n]+\n$/);
    expect(existsSync(data)).toBe(false);
  });
});

describe('token create, list and revoke', () => {
  test('a token made on the command line works; list shows it without its secret; revoked, the server refuses it at once', async () => {
    const data = join(tempDir(), 'data.json');
    const owner = jsonLine(await runCli(['init', '--data', data, '--json']), ['organizationId', 'userId', 'token']);
    const created = JSON.parse((await runCli(['token', 'create', '--data', data, '--user', owner.userId!, '--label', 'deploys', '--json'])).stdout);
    expect(created).toMatchObject({ object: 'token', id: expect.stringMatching(/^[0-9a-f]{16}$/), label: 'deploys', token: expect.stringMatching(/^dp_/) });
    const listed = await runCli(['token', 'list', '--data', data, '--user', owner.userId!, '--json']);
    expect(JSON.parse(listed.stdout)).toMatchObject({ count: 2, items: [{ label: 'init' }, { id: created.id, label: 'deploys' }] });
    expect(listed.stdout).not.toContain(created.token);
    const table = await runCli(['token', 'list', '--data', data, '--user', owner.userId!]);
    expect(table.stdout).toMatch(new RegExp(`^${created.id}  \\S+\\s+never\\s+deploys$`, 'm'));

    const server = await serve(data);
    const call = api(server.url, created.token);
    expect((await call('GET', '/v1/user')).status).toBe(200);
    // The server holds the JSON file (a writing command is refused meanwhile): revoke through the API here.
    expect((await call('DELETE', `/v1/user/tokens/${created.id}`)).status).toBe(204);
    expect((await call('GET', '/v1/user')).status).toBe(401);
    expect((await api(server.url, owner.token!)('GET', '/v1/user')).status).toBe(200);
    server.child.signal('SIGTERM');
    await server.child.exited;

    const revoke = await runCli(['token', 'revoke', '--data', data, '--user', owner.userId!, '--id', created.id, '--json']);
    expect([revoke.code, revoke.stderr]).toEqual([2, `error: No API token ${created.id} of this user\n`]);
    const ownId = JSON.parse(listed.stdout).items[0].id;
    expect(JSON.parse((await runCli(['token', 'revoke', '--data', data, '--user', owner.userId!, '--id', ownId, '--json'])).stdout)).toEqual({ revoked: ownId });
    expect((await runCli(['token', 'list', '--data', data, '--user', owner.userId!])).stdout).toBe(`User ${owner.userId} has no API tokens\n`);
  });
});

describe('the lock while a server runs', () => {
  test('a writing command refuses with exit 1 while serve holds the file, and works once it stopped', async () => {
    const data = join(tempDir(), 'data.json');
    const server = await serve(data);
    const [, ownerToken] = /API token of the owner \(shown once[^)]*\): (\S+)/.exec(server.child.stdout)!;
    const { body } = await api(server.url, ownerToken!)('GET', '/v1/orgs');
    const organizationId = body.items[0].id;

    const refusals = [
      await runCli(['init', '--data', data, '--json']),
      await runCli(['user', 'create', '--data', data, '--org', organizationId, '--email', 'x@example.com', '--name', 'X', '--role', 'read', '--json']),
    ];
    for (const run of refusals) {
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^error: [^\n]+\n$/);
      expect(run.stderr).toMatch(/lock|in use|running/i);
      expect(run.stderr).toContain(String(server.child.pid));
    }
    expect(existsSync(`${data}.lock`)).toBe(true);

    server.child.signal('SIGTERM');
    expect(await server.child.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(`${data}.lock`)).toBe(false);
    const user = jsonLine(
      await runCli(['user', 'create', '--data', data, '--org', organizationId, '--email', 'x@example.com', '--name', 'X', '--role', 'read', '--json']),
      ['userId', 'token'],
    );
    const again = await serve(data);
    expect((await api(again.url, user.token!)('GET', '/v1/orgs')).status).toBe(200);
  });

  test('backup copies the data file while serve holds it: the copy has every acknowledged write and serves', async () => {
    const folder = tempDir();
    const data = join(folder, 'data.json');
    const server = await serve(data);
    const [, ownerToken] = /API token of the owner \(shown once[^)]*\): (\S+)/.exec(server.child.stdout)!;
    const call = api(server.url, ownerToken!);
    const organizationId = (await call('GET', '/v1/orgs')).body.items[0].id;
    const titles = Array.from({ length: 20 }, (_, i) => `Team ${i}`);
    for (const title of titles) expect((await call('PUT', `/v1/orgs/${organizationId}/teams`, { title })).status).toBe(201);

    const copy = join(folder, 'backups', 'backup.json');
    const run = await runCli(['backup', '--data', data, '--out', copy, '--json']);
    expect(run, run.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toMatchObject({ records: expect.any(Number), sequence: expect.any(Number), bytes: expect.any(Number) });
    expect(existsSync(`${data}.lock`)).toBe(true);

    const restored = await serve(copy);
    const teams = await listAll(api(restored.url, ownerToken!), `/v1/orgs/${organizationId}/teams`);
    expect(teams.map((team) => team.title).sort()).toEqual([...titles].sort());
  });

  test('serve prints the host it was given', async () => {
    const { url } = await serve(join(tempDir(), 'data.json'), ['--host', 'localhost']);
    expect(url).toMatch(/^http:\/\/localhost:[1-9]\d*$/);
  });

  test.each([
    ['a port in use', async () => {
      const taken = createServer().listen(0, '127.0.0.1');
      await new Promise((resolve) => taken.once('listening', resolve));
      return { args: ['--port', String((taken.address() as AddressInfo).port)], release: () => taken.close() };
    }],
    ['an address this host does not have', async () => ({ args: ['--port', '0', '--host', '192.0.2.1'], release: () => undefined })],
    ['a host name that does not resolve', async () => ({ args: ['--port', '0', '--host', 'no-such-host.invalid'], release: () => undefined })],
  ])('serve on %s: one line, exit 1, and the lock is released', async (_name, listen) => {
    const data = join(tempDir(), 'data.json');
    const { args, release } = await listen();
    try {
      const run = await runCli(['serve', '--data', data, ...args]);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toMatch(/^error: cannot listen[^\n]*\n$/);
      expect(existsSync(`${data}.lock`)).toBe(false);
    } finally {
      release();
    }
  });
});

describe('outbound fetches of the server', () => {
  test('refuse 127.0.0.1 by default and reach it once DOCS_PLATFORM_FETCH_ALLOW names it; a bad entry is a usage error', async () => {
    let hits = 0;
    const fixture = createHttpServer((_req, res) => {
      hits++;
      res.writeHead(200, { 'content-type': 'text/markdown' }).end('# Imported\n\nFrom a local server.\n');
    });
    await new Promise<void>((resolve) => fixture.listen(0, '127.0.0.1', resolve));
    const source = `http://127.0.0.1:${(fixture.address() as AddressInfo).port}/page.md`;
    try {
      /** Imports the fixture's page into a new space of a fresh server, started with `env`. */
      const importOnce = async (env: Record<string, string>) => {
        const server = await listening(startCli(['serve', '--data', join(tempDir(), 'data.json'), '--port', '0'], { env }));
        const call = api(server.url, FIRST_START_TOKEN.exec(server.child.stdout)![1]!);
        const organizationId = (await call('GET', '/v1/orgs')).body.items[0].id;
        const space = await call('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Docs' });
        return call('POST', `/v1/spaces/${space.body.id}/content/import`, { url: source, source: 'markdown' });
      };
      const refused = await importOnce({});
      expect([refused.status, refused.body.error.message]).toEqual([400, 'url: the URL could not be fetched']);
      expect(hits).toBe(0);
      const allowed = await importOnce({ DOCS_PLATFORM_FETCH_ALLOW: '127.0.0.1' });
      expect(allowed.status).toBe(201);
      expect(hits).toBe(1);
    } finally {
      fixture.closeAllConnections();
      fixture.close();
    }
    const data = join(tempDir(), 'never-created.json');
    const bad = await runCli(['serve', '--data', data, '--port', '0'], { env: { DOCS_PLATFORM_FETCH_ALLOW: '127.0.0.1, not a host' } });
    expect(bad.code, bad.stderr).toBe(2);
    expect(bad.stderr).toBe('error: serve: DOCS_PLATFORM_FETCH_ALLOW: "not a host" is not an IP address, a CIDR range (10.0.0.0/8, fd00::/8) or a host name\n');
    expect(existsSync(data)).toBe(false);
  });
});
