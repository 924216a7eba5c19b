import { expect, it } from 'vitest';
import { INDEXES, TABLES } from '../../src/core/records.js';
import type { MemberRole } from '../../src/core/roles.js';
import { expectRefusals } from './bad-input.js';
import { httpSuite, walkPages } from './harness.js';
import { siteHelpers } from './site-helpers.js';

/** The share links of a site (the public API's `…/share-links`): list, create, update, delete; admins only. */
httpSuite('site share links', (h) => {
  const { site, ok, createSite, stored } = siteHelpers(h);
  const links = (siteId: string) => `${site(siteId)}/share-links`;

  async function publishedSite(body: Record<string, unknown> = { visibility: 'share-link' }) {
    const created = await createSite(body);
    ok(await h().owner.post(`${site(created.id)}/publish`));
    return created;
  }

  it('creates a named, active link with its key in its published URL and a Location, and lists it', async () => {
    const created = await publishedSite();
    h().clock.advance(1000);
    const response = await h().owner.post(links(created.id), { name: 'Reviewers' });
    expect(response.status).toBe(201);
    const link = response.body;
    expect(Object.keys(link).sort()).toEqual(['active', 'createdAt', 'id', 'name', 'object', 'urls']);
    expect(link).toMatchObject({ object: 'share-link', name: 'Reviewers', active: true, createdAt: '2026-03-01T10:00:02.000Z' });
    expect(response.headers.get('location')).toBe(`${new URL(created.urls.location).origin}${links(created.id)}/${link.id}`);
    const url = new URL(link.urls.published);
    expect(`${url.origin}${url.pathname}`).toBe(created.urls.location.replace(/\/v1\/orgs\/(\w+)\/sites\/(\w+)$/, '/published/o/$1/$2'));
    // The key: an HMAC (43 characters) then the link's id, letters, digits, _ and - only.
    const key = url.searchParams.get('share')!;
    expect(key).toMatch(new RegExp(`^[A-Za-z0-9_-]{43}${link.id}$`));
    expect(ok(await h().owner.get(links(created.id)))).toEqual({ items: [link], count: 1 });
  });

  it('gives no published URL while the site is unpublished, and accepts an empty name', async () => {
    const created = await createSite({ visibility: 'share-link' });
    const link = ok(await h().owner.post(links(created.id), { name: '' }), 201);
    expect(link.urls).toEqual({});
    expect(link.name).toBe('');
  });

  it('lists oldest first in pages, and searches by name (any case) or by key', async () => {
    const created = await publishedSite();
    const made = [];
    for (const name of ['Alpha reviewers', 'Beta', 'alphabet soup', 'Gamma']) {
      h().clock.advance(1000);
      made.push(ok(await h().owner.post(links(created.id), { name }), 201));
    }
    expect((await walkPages(h().owner, links(created.id), 3)).map((link) => link.name)).toEqual(['Alpha reviewers', 'Beta', 'alphabet soup', 'Gamma']);
    const alpha = ok(await h().owner.get(`${links(created.id)}?search=ALPHA`));
    expect(alpha.items.map((link: any) => link.name)).toEqual(['Alpha reviewers', 'alphabet soup']);
    expect(alpha.count).toBe(2);
    const key = new URL(made[3].urls.published).searchParams.get('share');
    expect(ok(await h().owner.get(`${links(created.id)}?search=${key}`)).items.map((link: any) => link.id)).toEqual([made[3].id]);
    expect(ok(await h().owner.get(`${links(created.id)}?search=nothing`))).toEqual({ items: [], count: 0 });
  });

  it('renames a link and turns it off and on, keeping its key; deletes it (205), then 404', async () => {
    const created = await publishedSite();
    const link = ok(await h().owner.post(links(created.id), { name: 'Reviewers' }), 201);
    const renamed = ok(await h().owner.patch(`${links(created.id)}/${link.id}`, { name: 'Editors' }));
    expect(renamed).toEqual({ ...link, name: 'Editors' });
    const off = ok(await h().owner.patch(`${links(created.id)}/${link.id}`, { active: false }));
    expect(off).toEqual({ ...renamed, active: false });
    expect(ok(await h().owner.get(links(created.id))).items).toEqual([off]);
    const deleted = await h().owner.delete(`${links(created.id)}/${link.id}`);
    expect(deleted.status).toBe(205);
    expect(ok(await h().owner.get(links(created.id)))).toEqual({ items: [], count: 0 });
    expect((await h().owner.delete(`${links(created.id)}/${link.id}`)).status).toBe(404);
    expect((await h().owner.patch(`${links(created.id)}/${link.id}`, { active: true })).status).toBe(404);
  });

  it("refuses bad bodies with 400 and another site's link with 404, and stores nothing", async () => {
    const created = await publishedSite();
    const other = await publishedSite();
    const link = ok(await h().owner.post(links(created.id), { name: 'Reviewers' }), 201);
    const before = await stored();
    await expectRefusals((body) => h().owner.post(links(created.id), body), [
      [{}, /^name: /],
      [{ name: 'x'.repeat(51) }, /^name: must be at most 50 characters$/],
      [{ name: 5 }, /^name: /],
    ]);
    await expectRefusals((body) => h().owner.patch(`${links(created.id)}/${link.id}`, body), [
      [{}, /^body: give active, name or both$/],
      [{ active: 'yes' }, /^active: /],
      [{ name: 'x'.repeat(51) }, /^name: /],
    ]);
    expect((await h().owner.patch(`${links(other.id)}/${link.id}`, { active: false })).status).toBe(404);
    expect((await h().owner.delete(`${links(other.id)}/${link.id}`)).status).toBe(404);
    expect(await stored()).toEqual(before);
  });

  it('lets only admins list and change share links; other organizations get 404', async () => {
    const created = await publishedSite();
    const link = ok(await h().owner.post(links(created.id), { name: 'Reviewers' }), 201);
    const before = await stored();
    for (const role of ['create', 'review', 'edit', 'comment', 'read', null] as (MemberRole | null)[]) {
      const caller = await h().user(role);
      expect((await caller.get(links(created.id))).status, `list as ${role}`).toBe(403);
      expect((await caller.post(links(created.id), { name: 'Mine' })).status, `create as ${role}`).toBe(403);
      expect((await caller.patch(`${links(created.id)}/${link.id}`, { active: false })).status, `update as ${role}`).toBe(403);
      expect((await caller.delete(`${links(created.id)}/${link.id}`)).status, `delete as ${role}`).toBe(403);
    }
    const stranger = (await h().organization()).owner;
    expect((await stranger.get(links(created.id))).status).toBe(404);
    expect((await stranger.post(links(created.id), { name: 'Mine' })).status).toBe(404);
    expect((await stranger.delete(`${links(created.id)}/${link.id}`)).status).toBe(404);
    expect(await stored()).toEqual(before);
    const admin = await h().user('admin');
    expect((await admin.get(links(created.id))).status).toBe(200);
  });

  it('deletes the links of a deleted site', async () => {
    const created = await publishedSite();
    ok(await h().owner.post(links(created.id), { name: 'Reviewers' }), 201);
    expect((await h().owner.delete(site(created.id))).status).toBe(205);
    const left = await h().platform.store.read((tx) => tx.list(TABLES.siteShareLinks, { index: INDEXES.siteShareLinksBySite, value: created.id }));
    expect(left.count).toBe(0);
  });
});
