/**
 * Rate limits through both transports (in memory, or in PostgreSQL with DOCS_PLATFORM_TEST_STORE=postgres):
 * X-RateLimit-* headers on every answer, weights for writes and heavy jobs, 429 in the error shape with
 * Retry-After, a budget per token and per client address, and a fresh budget each minute.
 */
import { describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/adapters/fetch/index.js';
import { serverEnvironment } from '../../src/cli/environment.js';
import { clientOptions } from '../../src/cli/run-server.js';
import { manualClock } from '../../src/core/clock.js';
import { createPlatform } from '../../src/core/platform.js';
import { createMemoryRateLimiter, RATE_COSTS, spendBudget } from '../../src/core/rate-limit.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { httpSuite, type TestResponse } from './harness.js';

/** The harness clock starts at 2026-03-01T10:00:00Z: its window ends a minute later. */
const WINDOW_END = Date.parse('2026-03-01T10:01:00.000Z') / 1000;
const LIMIT = 30;

/** The X-RateLimit-* headers of an answer, as numbers. */
function budget(response: TestResponse) {
  return {
    limit: Number(response.headers.get('x-ratelimit-limit')),
    remaining: Number(response.headers.get('x-ratelimit-remaining')),
    reset: Number(response.headers.get('x-ratelimit-reset')),
  };
}

httpSuite(
  'rate limits',
  (h) => {
    it('sends X-RateLimit-* on every answer: reads cost 1, writes 5, errors too', async () => {
      const org = `/v1/orgs/${h().organizationId}`;
      expect(budget(await h().owner.get(org))).toEqual({ limit: LIMIT, remaining: 29, reset: WINDOW_END });
      expect(budget(await h().owner.put(`${org}/teams`, { title: 'T' }))).toEqual({ limit: LIMIT, remaining: 24, reset: WINDOW_END });
      // A 404, a 400 and a 405 count (as reads, or as the write they tried).
      expect(budget(await h().owner.get('/v1/nowhere')).remaining).toBe(23);
      expect(budget(await h().owner.get(`${org}/members?limit=0`)).remaining).toBe(22);
      expect(budget(await h().owner.put(`${org}/teams`, { title: 7 })).remaining).toBe(17);
      // Another token has its own budget.
      const other = await h().user('read');
      expect(budget(await other.get(org)).remaining).toBe(29);
    });

    it('answers 429 in the error shape with Retry-After once the budget is spent, and again after a minute', async () => {
      const org = `/v1/orgs/${h().organizationId}`;
      for (let i = 0; i < 6; i++) expect((await h().owner.put(`${org}/teams`, { title: `T${i}` })).status).toBe(201);
      const refused = await h().owner.get(org);
      expect(refused.status).toBe(429);
      expect(refused.body.error.message).toMatch(/^Rate limit exceeded: 30 units a minute \(a read costs 1, a write 5, an import, PDF or OpenAPI processing 20\); try again in 60 s$/);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(budget(refused)).toEqual({ limit: LIMIT, remaining: 0, reset: WINDOW_END });
      // Nothing the refused request asked was done.
      const write = await h().owner.put(`${org}/teams`, { title: 'refused' });
      expect(write.status).toBe(429);
      h().clock.advance(40_000);
      expect((await h().owner.get(org)).headers.get('retry-after')).toBe('20');
      h().clock.advance(20_000);
      const fresh = await h().owner.get(`${org}/teams`);
      expect(fresh.status).toBe(200);
      expect(fresh.body.items.map((team: { title: string }) => team.title).sort()).toEqual(['T0', 'T1', 'T2', 'T3', 'T4', 'T5']);
      expect(budget(fresh)).toEqual({ limit: LIMIT, remaining: 29, reset: WINDOW_END + 60 });
    });

    it('charges a heavy job (an OpenAPI document) 20', async () => {
      const org = `/v1/orgs/${h().organizationId}`;
      const text = JSON.stringify({ openapi: '3.1.0', info: { title: 'Pets', version: '1' }, paths: {} });
      const created = await h().owner.post(`${org}/openapi`, { slug: 'pets', source: { text } });
      expect(created.status).toBe(201);
      expect(budget(created).remaining).toBe(10);
      expect((await h().owner.put(`${org}/openapi/pets`, { source: { text } })).status).toBe(429);
      await h().platform.settle();
    });

    it('gives requests without a token the budget of their client address; health is never limited', async () => {
      const first = await h().request('GET', '/v1/orgs');
      expect(first.status).toBe(401);
      const spent = budget(first);
      expect(spent.limit).toBe(LIMIT);
      for (let i = 0; i < spent.remaining; i++) await h().request('GET', '/v1/orgs');
      expect((await h().request('GET', '/v1/orgs')).status).toBe(429);
      // The owner's token is another budget.
      expect((await h().owner.get('/v1/orgs')).status).toBe(200);
      // A reader of a published site (here a page that is not there) spends the same address's budget.
      const reading = await h().request('GET', '/published/o/nowhere/nosite', { token: null });
      expect(reading.status).toBe(429);
      expect(reading.headers.get('content-type')).toMatch(/^text\/html/);
      expect(reading.text).toContain('Rate limit exceeded');
      expect(reading.headers.get('retry-after')).toBe('60');
      expect(reading.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
      const probe = await h().send('/healthz');
      expect(probe.status).toBe(200);
      expect(probe.headers.get('x-ratelimit-limit')).toBeNull();
    });

    it('counts a made-up bearer token against the client address, on every path: the API, the reader, the reference, downloads', async () => {
      // A new token each time, of any form, or of the form of the platform's own (a lookup finds nothing).
      const madeUp = (i: number) => ({ authorization: `Bearer ${i % 2 ? '' : 'dp_'}${crypto.randomUUID().replace(/-/g, '')}` });
      const paths = ['/v1/orgs', '/published/o/nowhere/site', '/v1/openapi.json', '/docs', '/v1/downloads/x/y.txt'];
      for (let i = 0; i < LIMIT; i++) {
        const answer = await h().send(paths[i % paths.length], { headers: madeUp(i) });
        expect(answer.status, `${paths[i % paths.length]}: ${await answer.text()}`).not.toBe(429);
        expect(answer.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 1 - i));
      }
      for (const [i, path] of paths.entries()) expect((await h().send(path, { headers: madeUp(i) })).status, path).toBe(429);
      // A valid token has a budget of its own.
      expect((await h().owner.get('/v1/orgs')).status).toBe(200);
    });

    it('answers a revoked token 401, not 429, past its own budget; it spends its address\'s budget then', async () => {
      const created = (await h().owner.post('/v1/user/tokens', { label: 'soon revoked' })).body;
      const me = () => h().request('GET', '/v1/user', { token: created.token });
      for (let i = 0; i < LIMIT; i++) expect((await me()).status).toBe(200);
      expect((await me()).status).toBe(429);
      expect((await h().owner.delete(`/v1/user/tokens/${created.id}`)).status).toBe(204);
      const refused = await me();
      expect([refused.status, refused.body.error.message]).toEqual([401, 'The token is not valid']);
      expect(budget(refused).remaining).toBe(LIMIT - 1);
      // Past the address's budget, it is refused as a request without a token from there is.
      for (let i = 1; i < LIMIT; i++) expect((await h().request('GET', '/v1/orgs')).status).toBe(401);
      expect((await me()).status).toBe(429);
    });
  },
  { pipeline: { rateLimit: { perMinute: LIMIT }, health: true } },
);

httpSuite('rate limits: off unless asked (embedding and tests)', (h) => {
  it('sends no X-RateLimit-* headers and never refuses', async () => {
    const org = `/v1/orgs/${h().organizationId}`;
    for (let i = 0; i < 130; i++) expect((await h().owner.put(`${org}/teams`, { title: `T${i}` })).status).toBe(201);
    expect((await h().owner.get(org)).headers.get('x-ratelimit-limit')).toBeNull();
  });
});

httpSuite(
  'rate limits: none in a server as npm start configures it without settings',
  (h) => {
    it('takes 2,000 writes one after another, as a migration script sends them, without a 429', async () => {
      const org = `/v1/orgs/${h().organizationId}`;
      for (let i = 0; i < 2000; i++) {
        const answer = await h().owner.patch(org, { title: `Acme ${i}` });
        if (answer.status !== 200) expect(`write ${i}: ${answer.status} ${answer.text}`).toBe('every write answered 200');
      }
      expect((await h().owner.get(org)).body.title).toBe('Acme 1999');
    }, 60_000);
  },
  // What `npm start` serves with no variable set (src/server.ts reads serverEnvironment() into runServer).
  { pipeline: clientOptions(serverEnvironment({})) },
);

httpSuite(
  'rate limits behind a trusted proxy',
  (h) => {
    const from = (forwardedFor: string) => h().request('GET', '/v1/orgs', { headers: { 'x-forwarded-for': forwardedFor } });

    it("gives each address X-Forwarded-For names its own budget: the right-most that is not a trusted proxy's", async () => {
      expect((await from('203.0.113.7')).status).toBe(401);
      expect((await from('203.0.113.7, 10.0.0.5')).status).toBe(401);
      expect((await from('203.0.113.7')).status).toBe(429);
      // Writing another address to the left changes nothing: the proxy appended the one it saw.
      expect((await from('198.51.100.1, 203.0.113.7')).status).toBe(429);
      expect((await from('203.0.113.8')).status).toBe(401);
      // A made-up token spends the forwarded address's budget too.
      expect((await h().request('GET', '/v1/orgs', { token: 'made-up', headers: { 'x-forwarded-for': '203.0.113.7' } })).status).toBe(429);
    });
  },
  // As npm start serves with these variables; the Fetch transport is told its peer is 127.0.0.1, as the node:http one's is.
  {
    pipeline: {
      ...clientOptions(serverEnvironment({ DOCS_PLATFORM_RATE_LIMIT: '2', DOCS_PLATFORM_TRUST_PROXY: 'loopback,10.0.0.0/8' })),
      clientAddress: () => '127.0.0.1',
    },
  },
);

httpSuite(
  'rate limits without a trusted proxy',
  (h) => {
    it('believes no X-Forwarded-For: the peer is the client', async () => {
      const from = (forwardedFor: string) => h().request('GET', '/v1/orgs', { headers: { 'x-forwarded-for': forwardedFor } });
      expect((await from('203.0.113.7')).status).toBe(401);
      expect((await from('203.0.113.8')).status).toBe(401);
      expect((await from('203.0.113.9')).status).toBe(429);
    });
  },
  { pipeline: { rateLimit: { perMinute: 2 }, clientAddress: () => '127.0.0.1' } },
);

describe('rate limits in an embedding app (Fetch handler)', () => {
  it('counts requests without a token by the clientAddress the app gives; perMinute 0 turns limits off', async () => {
    const platform = createPlatform({ store: createMemoryStore(), signingKey: 'k', clock: manualClock('2026-03-01T10:00:00.000Z') });
    const handler = createFetchHandler(platform, { rateLimit: { perMinute: 2 }, clientAddress: (request) => request.headers.get('x-test-peer') ?? undefined });
    const from = (peer: string) => handler(new Request('http://x/v1/orgs', { headers: { 'x-test-peer': peer } }));
    expect((await from('10.0.0.1')).status).toBe(401);
    expect((await from('10.0.0.1')).status).toBe(401);
    expect((await from('10.0.0.1')).status).toBe(429);
    expect((await from('10.0.0.2')).status).toBe(401);
    expect(() => createFetchHandler(platform, { trustProxy: 'proxy.internal' })).toThrow(/^"proxy\.internal" is not an IP address/);
    const off = createFetchHandler(platform, { rateLimit: { perMinute: 0 } });
    const answer = await off(new Request('http://x/v1/orgs'));
    expect(answer.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('the memory rate limiter', () => {
  it('counts per key within a window, forgets earlier windows, and answers a late call from an earlier window alone', async () => {
    const limiter = createMemoryRateLimiter();
    expect(await limiter.take('a', 1, 60_000)).toBe(1);
    expect(await limiter.take('a', 5, 60_000)).toBe(6);
    expect(await limiter.take('b', 1, 60_000)).toBe(1);
    expect(await limiter.take('a', 1, 120_000)).toBe(1);
    expect(await limiter.take('a', 1, 60_000)).toBe(1);
  });

  it('decides from the window: remaining never below 0, reset at its end, Retry-After at least 1 s', async () => {
    const limiter = createMemoryRateLimiter();
    const now = Date.parse('2026-03-01T10:00:59.500Z');
    const first = await spendBudget(limiter, 'k', RATE_COSTS.heavy, 25, now);
    expect(first).toEqual({ allowed: true, limit: 25, remaining: 5, reset: Date.parse('2026-03-01T10:01:00Z') / 1000, retryAfter: 0 });
    const second = await spendBudget(limiter, 'k', RATE_COSTS.write, 25, now);
    expect(second).toMatchObject({ allowed: true, remaining: 0 });
    expect(await spendBudget(limiter, 'k', RATE_COSTS.read, 25, now)).toMatchObject({ allowed: false, remaining: 0, retryAfter: 1 });
  });
});
