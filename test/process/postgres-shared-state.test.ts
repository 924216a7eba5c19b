import { afterEach, expect, test } from 'vitest';
import { api } from './api.js';
import { databaseUrl, describePostgres, dropDatabases, freshDatabase, initialize } from './postgres-servers.js';
import { cleanUp, listening, runCli, startCli } from './spawn.js';

/**
 * What server processes on one PostgreSQL database share besides the records: a revoked token is refused
 * by every one of them at once, and a rate-limit budget is spent across all of them.
 */

afterEach(async () => {
  await cleanUp();
  await dropDatabases();
});

/** Two `serve` processes on a fresh database, with a rate limit of `perMinute`; the owner of its organization. */
async function twoServers(label: string, perMinute: number) {
  const url = databaseUrl(freshDatabase(label));
  const owner = await initialize(url);
  const env = { DOCS_PLATFORM_RATE_LIMIT: String(perMinute) };
  const servers = await Promise.all([0, 1].map(() => listening(startCli(['serve', '--data', url, '--port', '0'], { env }))));
  return { url, owner, servers };
}

describePostgres('several processes on one PostgreSQL database', () => {
  test('a token revoked through one process is refused by the other at once; one made on the command line works on both', { timeout: 60_000 }, async () => {
    const { url, owner, servers } = await twoServers('tokens', 0);
    const created = JSON.parse((await runCli(['token', 'create', '--data', url, '--user', owner.userId, '--json'])).stdout);
    const [one, two] = servers.map((server) => api(server.url, created.token));
    expect((await one!('GET', '/v1/user')).status).toBe(200);
    expect((await two!('GET', '/v1/user')).status).toBe(200);
    expect((await one!('DELETE', `/v1/user/tokens/${created.id}`)).status).toBe(204);
    expect((await two!('GET', '/v1/user')).status).toBe(401);
    expect((await one!('GET', '/v1/user')).status).toBe(401);
  });

  test('a token\'s budget is spent across both processes: the second refuses once the first spent it', { timeout: 60_000 }, async () => {
    const { url, owner, servers } = await twoServers('limits', 12);
    const org = `/v1/orgs/${owner.organizationId}`;
    // The budget is per minute: a sequence that a new minute cut in two is sent again with a new token (a
    // budget of its own), at most three times.
    for (let attempt = 1; ; attempt++) {
      const { token } = JSON.parse((await runCli(['token', 'create', '--data', url, '--user', owner.userId, '--json'])).stdout);
      const send = (server: number, method: string, path: string, body?: unknown) =>
        fetch(`${servers[server]!.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const answers = [
        await send(0, 'PUT', `${org}/teams`, { title: `A${attempt}` }),
        await send(1, 'PUT', `${org}/teams`, { title: `B${attempt}` }),
        await send(0, 'GET', org),
        await send(1, 'GET', org),
        await send(0, 'GET', org),
      ];
      const windows = new Set(answers.map((answer) => answer.headers.get('x-ratelimit-reset')));
      if (windows.size > 1 && attempt < 3) continue;
      expect(answers.map((answer) => answer.status)).toEqual([201, 201, 200, 200, 429]);
      expect(answers.map((answer) => answer.headers.get('x-ratelimit-remaining'))).toEqual(['7', '2', '1', '0', '0']);
      expect(Number(answers[4]!.headers.get('retry-after'))).toBeGreaterThan(0);
      return;
    }
  });
});
