import { expect, it } from 'vitest';
import type { MemberRole } from '../../src/core/roles.js';
import { expectRefusals } from './bad-input.js';
import { httpSuite } from './harness.js';
import { siteHelpers } from './site-helpers.js';

/** A site's publishing auth (the public API's `…/publishing/auth`): its private key, fallback and logout URLs; admins only. */
httpSuite('site publishing auth', (h) => {
  const { site, ok, createSite, stored } = siteHelpers(h);
  const auth = (siteId: string) => `${site(siteId)}/publishing/auth`;

  it('gives the custom backend and a private key, the same on every read and for no other site', async () => {
    const created = await createSite({ visibility: 'visitor-auth' });
    const first = ok(await h().owner.get(auth(created.id)));
    expect(Object.keys(first).sort()).toEqual(['backend', 'object', 'privateKey']);
    expect(first).toMatchObject({ object: 'publishing-auth', backend: 'custom' });
    expect(first.privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(ok(await h().owner.get(auth(created.id)))).toEqual(first);
    expect(ok(await h().owner.get(auth((await createSite()).id))).privateKey).not.toBe(first.privateKey);
  });

  it('sets, keeps and removes the fallback and logout URLs', async () => {
    const created = await createSite({ visibility: 'visitor-auth' });
    const key = ok(await h().owner.get(auth(created.id))).privateKey;
    const set = ok(await h().owner.patch(auth(created.id), { backend: 'custom', fallbackURL: 'https://auth.acme.test/login', logoutURL: 'https://auth.acme.test/logout' }));
    expect(set).toEqual({ object: 'publishing-auth', backend: 'custom', privateKey: key, fallbackURL: 'https://auth.acme.test/login', logoutURL: 'https://auth.acme.test/logout' });
    // Absent: kept; null: removed.
    const kept = ok(await h().owner.patch(auth(created.id), { backend: 'custom', logoutURL: null }));
    expect(kept).toEqual({ object: 'publishing-auth', backend: 'custom', privateKey: key, fallbackURL: 'https://auth.acme.test/login' });
    expect(ok(await h().owner.get(auth(created.id)))).toEqual(kept);
  });

  it('regenerates the private key: a new one each time, kept by later reads', async () => {
    const created = await createSite({ visibility: 'visitor-auth' });
    const before = ok(await h().owner.get(auth(created.id))).privateKey;
    const once = ok(await h().owner.post(`${auth(created.id)}/regenerate`));
    const twice = ok(await h().owner.post(`${auth(created.id)}/regenerate`));
    expect(new Set([before, once.privateKey, twice.privateKey]).size).toBe(3);
    expect(ok(await h().owner.get(auth(created.id)))).toEqual(twice);
  });

  it('refuses bad bodies and the integration backend with 400, and stores nothing', async () => {
    const created = await createSite({ visibility: 'visitor-auth' });
    const before = await stored();
    await expectRefusals((body) => h().owner.patch(auth(created.id), body), [
      [{}, /^backend: /],
      [{ backend: 'oauth' }, /^backend: must be \("custom" \| "integration"\)/],
      [{ backend: 'integration' }, /^backend: docs-platform has no integrations/],
      [{ backend: 'custom', fallbackURL: 'javascript:alert(1)' }, /^fallbackURL: must be an http or https URL$/],
      [{ backend: 'custom', fallbackURL: 'login' }, /^fallbackURL: must be an absolute URL$/],
      [{ backend: 'custom', logoutURL: `https://a.test/${'x'.repeat(2048)}` }, /^logoutURL: must be at most 2048 characters$/],
    ]);
    expect(await stored()).toEqual(before);
  });

  it('lets only admins read or change it; other organizations get 404', async () => {
    const created = await createSite({ visibility: 'visitor-auth' });
    const before = await stored();
    for (const role of ['create', 'review', 'edit', 'comment', 'read', null] as (MemberRole | null)[]) {
      const caller = await h().user(role);
      expect((await caller.get(auth(created.id))).status, `get as ${role}`).toBe(403);
      expect((await caller.patch(auth(created.id), { backend: 'custom' })).status, `patch as ${role}`).toBe(403);
      expect((await caller.post(`${auth(created.id)}/regenerate`)).status, `regenerate as ${role}`).toBe(403);
    }
    const stranger = (await h().organization()).owner;
    expect((await stranger.get(auth(created.id))).status).toBe(404);
    expect((await stranger.post(`${auth(created.id)}/regenerate`)).status).toBe(404);
    expect(await stored()).toEqual(before);
    expect((await (await h().user('admin')).get(auth(created.id))).status).toBe(200);
  });
});
