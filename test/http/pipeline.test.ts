import type { RequestLogEntry } from '../../src/adapters/request-log.js';
import { describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/adapters/fetch/index.js';
import { createPlatform } from '../../src/core/platform.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { httpSuite } from './harness.js';
import { platformWithUnreachableStore, RETRY_AFTER_SECONDS, UNREACHABLE } from './unreachable-store.js';

httpSuite('pipeline', (h) => {
  it('answers an unknown route with 404 in the error shape', async () => {
    const response = await h().owner.get('/v1/nothing/here');
    expect(response.status).toBe(404);
    expect(response.body.error.message).toContain('/v1/nothing/here');
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const response = await h().owner.delete(`/v1/orgs/${h().organizationId}`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, PATCH');
  });

  it('wants a bearer token: missing, malformed or unknown is 401 with a Bearer challenge', async () => {
    const path = `/v1/orgs/${h().organizationId}`;
    const missing = await h().request('GET', path);
    expect(missing.status).toBe(401);
    expect(missing.body.error.message).toMatch(/Bearer/);
    const basic = await h().request('GET', path, { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(basic.status).toBe(401);
    const unknown = await h().request('GET', path, { token: 'dp_not-a-real-token' });
    expect(unknown.status).toBe(401);
    const foreign = await h().request('GET', path, { token: 'gb_api_something' });
    expect(foreign.status).toBe(401);
    // A write's 401 too.
    const revoked = await h().request('POST', `${path}/invites`, { token: 'dp_not-a-real-token', body: { emails: ['a@b.test'], role: 'read' } });
    for (const response of [missing, basic, unknown, foreign, revoked]) {
      expect([response.status, response.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="docs-platform"']);
    }
  });

  it('authenticates before validating: a bad body without a token is still a 401', async () => {
    const response = await h().request('PATCH', `/v1/orgs/${h().organizationId}`, { body: { title: 'x' } });
    expect(response.status).toBe(401);
  });

  it('refuses malformed JSON with 400 and changes nothing', async () => {
    const path = `/v1/orgs/${h().organizationId}`;
    const response = await h().owner.patch(path, undefined, { rawBody: '{"title": "Half', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(/not valid JSON/);
    expect((await h().owner.get(path)).body.title).toBe('Acme Docs');
  });

  it('wants a JSON object as body', async () => {
    const response = await h().owner.patch(`/v1/orgs/${h().organizationId}`, ['title']);
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(/JSON object/);
  });

  it('refuses a body that is not declared as JSON with 415', async () => {
    const response = await h().owner.patch(`/v1/orgs/${h().organizationId}`, undefined, {
      rawBody: 'title=New',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(415);
  });

  it('accepts application/json with a charset', async () => {
    const response = await h().owner.patch(`/v1/orgs/${h().organizationId}`, undefined, {
      rawBody: JSON.stringify({ title: 'Renamed' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(response.status).toBe(200);
    expect(response.body.title).toBe('Renamed');
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const response = await h().owner.patch(`/v1/orgs/${h().organizationId}`, { title: 'x'.repeat(1024 * 1024 + 10) });
    expect(response.status).toBe(413);
    expect((await h().owner.get(`/v1/orgs/${h().organizationId}`)).body.title).toBe('Acme Docs');
  });

  it('names the field and the rule when validation fails', async () => {
    const title = await h().owner.put(`/v1/orgs/${h().organizationId}/teams`, { title: '' });
    expect(title.status).toBe(400);
    expect(title.body.error.message).toBe('title: must be 1 to 64 characters');
    const missing = await h().owner.put(`/v1/orgs/${h().organizationId}/teams`, {});
    expect(missing.body.error.message).toBe('title: is required');
    const type = await h().owner.put(`/v1/orgs/${h().organizationId}/teams`, { title: 42 });
    expect(type.body.error.message).toMatch(/^title: must be string/);
    const limit = await h().owner.get(`/v1/orgs/${h().organizationId}/members?limit=1001`);
    expect(limit.status).toBe(400);
    expect(limit.body.error.message).toBe('limit: must be at most 1000');
    const zero = await h().owner.get(`/v1/orgs/${h().organizationId}/members?limit=0`);
    expect(zero.body.error.message).toBe('limit: must be at least 1');
    const word = await h().owner.get(`/v1/orgs/${h().organizationId}/members?limit=ten`);
    expect(word.body.error.message).toBe('limit: must be a whole number');
    const enumValue = await h().owner.get(`/v1/orgs/${h().organizationId}/members?order=up`);
    expect(enumValue.status).toBe(400);
    expect(enumValue.body.error.message).toMatch(/^order: must be/);
  });

  it('wants well-formed text: a lone surrogate in the body (value or key) is a 400 naming the field; bytes in a URL cannot make one', async () => {
    const teams = `/v1/orgs/${h().organizationId}/teams`;
    const value = await h().owner.put(teams, { title: 'Writers \ud800' });
    expect([value.status, value.body.error.message]).toEqual([400, 'title: must be well-formed Unicode text (a lone surrogate at index 8)']);
    const key = await h().owner.put(`${teams}/x/members`, { memberships: { '\udc00': { role: 'owner' } } });
    expect([key.status, key.body.error.message]).toEqual([400, 'memberships.\ufffd: the key must be well-formed Unicode text (a lone surrogate at index 0)']);
    // UTF-8 bytes of a surrogate: the query string reads them as U+FFFD, the path refuses them.
    const query = await h().owner.get(`${teams}?title=%ED%A0%80`);
    expect(query.status).toBe(200);
    const path = await h().owner.get(`/v1/orgs/%ED%A0%80`);
    expect([path.status, path.body.error.message]).toEqual([400, 'organizationId: is not a valid percent-encoded path segment']);
    // Library calls go through the same check.
    const api = await h().platform.withToken(h().owner.token);
    await expect(api.getOrganization({ organizationId: '\ud800' })).rejects.toThrow('organizationId: must be well-formed Unicode text (a lone surrogate at index 0)');
    expect((await h().owner.get(teams)).body.count).toBe(0);
  });

  it('refuses a page cursor it did not issue', async () => {
    const response = await h().owner.get(`/v1/orgs/${h().organizationId}/members?page=garbage`);
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(/^page:/);
  });

  it('ignores a trailing slash', async () => {
    expect((await h().owner.get(`/v1/orgs/${h().organizationId}/`)).status).toBe(200);
  });
});

describe('pipeline: unexpected failures', () => {
  it('answers 500 without details and logs the stack', async () => {
    const store = createMemoryStore();
    const platform = createPlatform({ store, signingKey: 'k' });
    const { token } = await platform.initialize();
    const failures: [string, string, string | null, unknown][] = [];
    const entries: RequestLogEntry[] = [];
    const handler = createFetchHandler(platform, { logger: { request: (entry) => entries.push(entry), failure: (...failure) => failures.push(failure) } });
    store.read = async () => {
      throw new Error('disk on fire');
    };
    const response = await handler(new Request('http://x/v1/orgs', { headers: { authorization: `Bearer ${token}` } }));
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(body).toEqual({ error: { code: 500, message: 'Internal server error' } });
    expect(JSON.stringify(body)).not.toContain('disk on fire');
    // The stack is logged once, with the request id the answer carries; then the request's entry.
    const requestId = response.headers.get('x-request-id');
    expect(failures).toHaveLength(1);
    expect(failures[0]!.slice(0, 3)).toEqual([requestId, 'GET', '/v1/orgs']);
    expect((failures[0]![3] as Error).stack).toContain('disk on fire');
    expect(entries).toMatchObject([{ requestId, method: 'GET', route: '/v1/orgs', status: 500 }]);
  });

  it('answers 503 in the error shape, with the Retry-After the store gives, when the store cannot be reached, also while checking the token', async () => {
    const { handler, token } = await platformWithUnreachableStore();
    const response = await handler(new Request('http://x/v1/orgs', { headers: { authorization: `Bearer ${token}` } }));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS));
    expect(await response.json()).toEqual({ error: { code: 503, message: UNREACHABLE } });
  });
});
