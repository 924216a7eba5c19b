/**
 * A user's own API tokens (`/v1/user/tokens`, ours), through both transports: listed with label, creation
 * and last use but never the secret, created (the secret shown once), and revoked, after which the token
 * is refused at once.
 */
import { expect, it } from 'vitest';
import { MAX_TOKENS_PER_USER } from '../../src/core/tokens/user-tokens.js';
import { httpSuite } from './harness.js';

const TOKENS = '/v1/user/tokens';
const NOW = '2026-03-01T10:00:00.000Z';

httpSuite('user tokens', (h) => {
  it('lists the caller\'s tokens with label and creation time, never the secret or its hash', async () => {
    const list = await h().owner.get(TOKENS);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ items: [{ object: 'token', id: expect.stringMatching(/^[0-9a-f]{16}$/), label: 'init', createdAt: NOW }], count: 1 });
    expect(list.text).not.toContain(h().owner.token.slice(3));
    // Another user sees only its own.
    const reader = await h().user('read');
    expect((await reader.get(TOKENS)).body).toMatchObject({ count: 1, items: [{ label: 'cli' }] });
  });

  it('creates a token whose secret is shown once and works; the label is checked', async () => {
    h().clock.advance(1_000); // listed oldest first: ties of creation time go by hash
    const created = await h().owner.post(TOKENS, { label: 'CI deploys' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ object: 'token', id: expect.stringMatching(/^[0-9a-f]{16}$/), label: 'CI deploys', createdAt: '2026-03-01T10:00:01.000Z', token: expect.stringMatching(/^dp_[\w-]{32,}$/) });
    const me = await h().request('GET', '/v1/user', { token: created.body.token });
    expect(me.body.id).toBe(h().owner.userId);
    const list = await h().owner.get(TOKENS);
    expect(list.body.items.map((token: { label: string }) => token.label)).toEqual(['init', 'CI deploys']);
    expect(list.text).not.toContain(created.body.token);
    expect((await h().owner.post(TOKENS, {})).body.label).toBe('API token');
    const bad = await h().owner.post(TOKENS, { label: 'x'.repeat(65) });
    expect([bad.status, bad.body.error.message]).toEqual([400, 'label: must be at most 64 characters']);
  });

  it('revokes a token: refused at once with 401; an unknown or another user\'s id is a 404', async () => {
    const created = (await h().owner.post(TOKENS, { label: 'leaked' })).body;
    expect((await h().request('GET', '/v1/user', { token: created.token })).status).toBe(200);
    const other = await h().user('admin');
    expect((await other.delete(`${TOKENS}/${created.id}`)).status).toBe(404);
    expect((await h().owner.delete(`${TOKENS}/${created.id}`)).status).toBe(204);
    const refused = await h().request('GET', '/v1/user', { token: created.token });
    expect([refused.status, refused.body.error.message]).toEqual([401, 'The token is not valid']);
    expect((await h().owner.delete(`${TOKENS}/${created.id}`)).status).toBe(404);
    expect((await h().owner.get(TOKENS)).body.count).toBe(1);
    // A token may revoke itself: the next request with it is refused.
    const self = (await h().owner.post(TOKENS, { label: 'self' })).body;
    expect((await h().request('DELETE', `${TOKENS}/${self.id}`, { token: self.token })).status).toBe(204);
    expect((await h().request('GET', TOKENS, { token: self.token })).status).toBe(401);
  });

  it('keeps the last use to the minute: written once a minute per token, not on every request', async () => {
    await h().owner.get('/v1/user');
    await h().platform.settle();
    const lastUse = async () => (await h().owner.get(TOKENS)).body.items[0].lastUsedAt;
    expect(await lastUse()).toBe(NOW);
    h().clock.advance(59_000);
    await h().owner.get('/v1/user');
    await h().platform.settle();
    expect(await lastUse()).toBe(NOW);
    h().clock.advance(1_000);
    await h().owner.get('/v1/user');
    await h().platform.settle();
    expect(await lastUse()).toBe('2026-03-01T10:01:00.000Z');
  });

  it(`holds at most ${MAX_TOKENS_PER_USER} tokens a user`, async () => {
    for (let i = 1; i < MAX_TOKENS_PER_USER; i++) await h().platform.as(h().owner.userId).createUserToken({ label: `t${i}` });
    const refused = await h().owner.post(TOKENS, { label: 'one too many' });
    expect([refused.status, refused.body.error.message]).toEqual([409, `A user has at most ${MAX_TOKENS_PER_USER} API tokens; revoke one first`]);
  });
});
