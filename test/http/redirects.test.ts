import { expect, it } from 'vitest';
import { INDEXES, TABLES } from '../../src/core/records.js';
import type { MemberRole } from '../../src/core/roles.js';
import { expectRefusals } from './bad-input.js';
import { httpSuite, walkPages } from './harness.js';
import { readerHelpers } from './reader/reader-helpers.js';

/** A site's redirects (the public API's `…/redirects` and `…/redirect`): create, bulk upsert, list, update, delete, resolve. */
httpSuite('site redirects', (h) => {
  const r = readerHelpers(h);
  const redirects = (siteId: string) => `${r.site(siteId)}/redirects`;
  const resolve = (siteId: string, source: string, query = '') => h().owner.get(`${r.site(siteId)}/redirect?source=${encodeURIComponent(source)}${query}`);

  /** A published site with sections Guides (default; a page Setup) and API, and its parts. */
  async function siteWithParts(visibility = 'public') {
    const guide = await r.spaceWith('Guide', [
      { title: 'Welcome', document: { markdown: 'Hello.\n' } },
      { title: 'Setup', document: { markdown: 'Steps.\n' } },
    ]);
    const api = await r.spaceWith('API', [{ title: 'Reference', document: { markdown: 'Endpoints.\n' } }]);
    const created = await r.createSite({ title: 'Handbook', visibility });
    const guides = await r.addSection(created.id, guide, 'Guides');
    const apiSection = await r.addSection(created.id, api, 'API');
    await r.publish(created.id);
    const [, setup] = r.ok(await h().owner.get(`/v1/spaces/${guide}/content/pages`)).pages;
    const url = (await r.published(created.id)).site.urls.published as string;
    return { id: created.id, url, guide, api, guides, apiSection, guideSiteSpace: guides.siteSpaces[0].id as string, setup: setup.id as string };
  }

  const create = async (siteId: string, body: Record<string, unknown>) => r.ok(await h().owner.post(redirects(siteId), body), 201);

  it('creates a redirect with its defaults, and resolves a path to where it leads', async () => {
    const site = await siteWithParts();
    h().clock.advance(1000);
    const now = h().clock.now().toISOString();
    const made = await create(site.id, { source: '/old/setup', destination: { kind: 'site-page', siteSpaceId: site.guideSiteSpace, pageId: site.setup } });
    expect(made).toEqual({
      object: 'site-redirect',
      id: made.id,
      source: '/old/setup',
      draft: false,
      captureWildcard: false,
      permanent: false,
      destination: { kind: 'site-page', siteSpaceId: site.guideSiteSpace, pageId: site.setup },
      createdAt: now,
    });
    expect(r.ok(await resolve(site.id, '/old/setup'))).toEqual({ redirect: made, target: `${site.url}/setup` });
    expect(r.ok(await h().owner.get(redirects(site.id)))).toEqual({ items: [made], count: 1 });
  });

  it('takes every kind of destination, a page by space and path too, and leads each to its URL', async () => {
    const site = await siteWithParts();
    const cases: [Record<string, unknown>, Record<string, unknown>, string][] = [
      [{ kind: 'site-section', siteSectionId: site.apiSection.id }, { kind: 'site-section', siteSectionId: site.apiSection.id }, `${site.url}/api`],
      [{ kind: 'site-space', siteSpaceId: site.guideSiteSpace }, { kind: 'site-space', siteSpaceId: site.guideSiteSpace }, site.url],
      [{ kind: 'path', spaceId: site.guide, path: '/setup' }, { kind: 'site-page', siteSpaceId: site.guideSiteSpace, pageId: site.setup }, `${site.url}/setup`],
      [{ kind: 'external', url: 'https://example.com/docs?x=1' }, { kind: 'external', url: 'https://example.com/docs?x=1' }, 'https://example.com/docs?x=1'],
    ];
    for (const [index, [destination, stored, target]] of cases.entries()) {
      const made = await create(site.id, { source: `/from-${index}`, destination, permanent: true });
      expect(made.destination).toEqual(stored);
      expect(r.ok(await resolve(site.id, `/from-${index}`)).target).toBe(target);
    }
  });

  it('matches wildcard sources by their longest prefix, with the rest added when captured; exact sources first', async () => {
    const site = await siteWithParts();
    await create(site.id, { source: '/docs/*', destination: { kind: 'external', url: 'https://new.example.com/guide/' }, captureWildcard: true });
    await create(site.id, { source: '/docs/api/*', destination: { kind: 'site-section', siteSectionId: site.apiSection.id } });
    await create(site.id, { source: '/v1*', destination: { kind: 'external', url: 'https://old.example.com/v1' }, captureWildcard: true });
    const exact = await create(site.id, { source: '/docs/api/exact', destination: { kind: 'external', url: 'https://example.com/exact' } });
    expect(r.ok(await resolve(site.id, '/docs/install/linux')).target).toBe('https://new.example.com/guide/install/linux');
    expect(r.ok(await resolve(site.id, '/docs/api/pets')).target).toBe(`${site.url}/api`);
    expect(r.ok(await resolve(site.id, '/docs/api/exact')).redirect).toEqual(exact);
    expect(r.ok(await resolve(site.id, '/v1-beta/x')).target).toBe('https://old.example.com/v1-beta/x');
    // Sources match percent-decoded: another spelling of the same path finds them.
    await create(site.id, { source: '/caf%C3%A9', destination: { kind: 'external', url: 'https://example.com/cafe' } });
    expect(r.ok(await resolve(site.id, '/caf%c3%a9')).target).toBe('https://example.com/cafe');
  });

  it('answers 404 for a path no live redirect matches, or whose destination is gone; adds the share key on a share-link site', async () => {
    const site = await siteWithParts('share-link');
    expect((await resolve(site.id, '/nothing')).status).toBe(404);
    await create(site.id, { source: '/draft', destination: { kind: 'site-section', siteSectionId: site.apiSection.id }, draft: true });
    expect((await resolve(site.id, '/draft')).status).toBe(404);
    await create(site.id, { source: '/api', destination: { kind: 'site-section', siteSectionId: site.apiSection.id } });
    expect(r.ok(await resolve(site.id, '/api', '&shareKey=abc')).target).toBe(`${site.url}/api?share=abc`);
    expect((await h().owner.delete(`${r.site(site.id)}/sections/${site.apiSection.id}`)).status).toBe(205);
    expect((await resolve(site.id, '/api')).status).toBe(404);
  });

  it('refuses bad sources and destinations with 400, a source taken with 409, and stores nothing', async () => {
    const site = await siteWithParts();
    const other = await siteWithParts();
    await create(site.id, { source: '/taken', destination: { kind: 'external', url: 'https://example.com' } });
    const before = await r.stored();
    const to = { kind: 'external', url: 'https://example.com' };
    await expectRefusals((body) => h().owner.post(redirects(site.id), body), [
      [{ destination: to }, /^source: is required$/],
      [{ source: 'old', destination: to }, /^source: must be a path such as \/old\/page/],
      [{ source: '/', destination: to }, /^source: must be a path/],
      [{ source: '/a/*/b', destination: to }, /^source: must be a path/],
      [{ source: '/*', destination: to }, /^source: must be a path/],
      [{ source: '/a b', destination: to }, /^source: must be a path/],
      [{ source: `/${'a'.repeat(512)}`, destination: to }, /^source: must be at most 512 characters$/],
      [{ source: '/x' }, /^destination: is required$/],
      [{ source: '/x', destination: { kind: 'external', url: 'javascript:alert(1)' } }, /^destination\.url: must be an http or https URL$/],
      [{ source: '/x', destination: { kind: 'moon' } }, /^destination\.kind: /],
      [{ source: '/x', destination: { kind: 'site-section', siteSectionId: other.apiSection.id } }, /^destination\.siteSectionId: No section/],
      [{ source: '/x', destination: { kind: 'site-space', siteSpaceId: other.guideSiteSpace } }, /^destination\.siteSpaceId: No site space/],
      [{ source: '/x', destination: { kind: 'site-page', siteSpaceId: site.guideSiteSpace, pageId: 'nope' } }, /^destination\.pageId: no page nope/],
      [{ source: '/x', destination: { kind: 'path', spaceId: other.guide, path: 'setup' } }, /^destination\.spaceId: site \w+ does not show space/],
      [{ source: '/x', destination: { kind: 'path', spaceId: site.guide, path: 'nowhere' } }, /^destination\.path: no page at nowhere/],
      [{ source: '/x', destination: to, permanent: 'yes' }, /^permanent: /],
    ]);
    const taken = await h().owner.post(redirects(site.id), { source: '/taken', destination: to });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toMatch(/^source: a live redirect of site \w+ is already from \/taken/);
    expect(await r.stored()).toEqual(before);
    // A draft may have the source of a live one, and another site the same source.
    await create(site.id, { source: '/taken', destination: to, draft: true });
    await create(other.id, { source: '/taken', destination: to });
  });

  it('lists live or draft redirects, newest first, by update or by source, with search and pages', async () => {
    const site = await siteWithParts();
    const to = { kind: 'external', url: 'https://example.com' };
    const made = [];
    for (const source of ['/b', '/c', '/a', '/Café']) {
      h().clock.advance(1000);
      made.push(await create(site.id, { source: source === '/Café' ? '/Caf%C3%A9' : source, destination: to }));
    }
    const draft = await create(site.id, { source: '/d', destination: to, draft: true });
    h().clock.advance(1000);
    r.ok(await h().owner.patch(`${redirects(site.id)}/${made[0].id}`, { permanent: true }));
    const sources = async (query: string) => (await walkPages(h().owner, `${redirects(site.id)}${query}`, 2)).map((item) => item.source);
    expect(await sources('')).toEqual(['/Caf%C3%A9', '/a', '/c', '/b']);
    expect(await sources('?orderBy=updatedAt')).toEqual(['/b', '/Caf%C3%A9', '/a', '/c']);
    expect(await sources('?orderBy=source')).toEqual(['/Caf%C3%A9', '/a', '/b', '/c']);
    expect(await sources('?draft=true')).toEqual(['/d']);
    expect(r.ok(await h().owner.get(`${redirects(site.id)}?draft=true`)).items).toEqual([draft]);
    expect(await sources('?search=CAFÉ')).toEqual(['/Caf%C3%A9']);
    expect(await sources('?search=%2Fa')).toEqual(['/a']);
  });

  it('updates a redirect, going live from draft; refuses a source taken (409) and an unknown redirect (404)', async () => {
    const site = await siteWithParts();
    const to = { kind: 'external', url: 'https://example.com' };
    const live = await create(site.id, { source: '/live', destination: to });
    const draft = await create(site.id, { source: '/draft', destination: to, draft: true });
    h().clock.advance(5000);
    const now = h().clock.now().toISOString();
    const updated = r.ok(await h().owner.patch(`${redirects(site.id)}/${draft.id}`, { source: '/new', permanent: true, captureWildcard: true, destination: { kind: 'site-section', siteSectionId: site.apiSection.id } }));
    expect(updated).toEqual({ ...draft, source: '/new', permanent: true, captureWildcard: true, destination: { kind: 'site-section', siteSectionId: site.apiSection.id }, updatedAt: now });
    // Nothing changes: no new updatedAt.
    h().clock.advance(5000);
    expect(r.ok(await h().owner.patch(`${redirects(site.id)}/${draft.id}`, { permanent: true }))).toEqual(updated);
    expect((await resolve(site.id, '/new')).status).toBe(404);
    const promoted = r.ok(await h().owner.patch(`${redirects(site.id)}/${draft.id}`, { draft: false }));
    expect(promoted.draft).toBe(false);
    expect(r.ok(await resolve(site.id, '/new')).target).toBe(`${site.url}/api`);
    const clash = await h().owner.patch(`${redirects(site.id)}/${draft.id}`, { source: '/live' });
    expect(clash.status).toBe(409);
    expect((await h().owner.patch(`${redirects(site.id)}/${live.id}`, { destination: { kind: 'path', spaceId: site.guide, path: 'setup' } })).status).toBe(400);
    expect((await h().owner.patch(`${redirects(site.id)}/nope`, { permanent: true })).status).toBe(404);
  });

  it('deletes a redirect (205), then 404; a deleted site takes its redirects with it', async () => {
    const site = await siteWithParts();
    const made = await create(site.id, { source: '/gone', destination: { kind: 'external', url: 'https://example.com' } });
    expect((await h().owner.delete(`${redirects(site.id)}/${made.id}`)).status).toBe(205);
    expect((await h().owner.delete(`${redirects(site.id)}/${made.id}`)).status).toBe(404);
    expect((await resolve(site.id, '/gone')).status).toBe(404);
    await create(site.id, { source: '/kept', destination: { kind: 'external', url: 'https://example.com' } });
    expect((await h().owner.delete(r.site(site.id))).status).toBe(205);
    const left = await h().platform.store.read((tx) => tx.list(TABLES.siteRedirects, { index: INDEXES.siteRedirectsBySite, value: site.id }));
    expect(left.count).toBe(0);
  });

  it('creates, updates, deletes and publishes in bulk, each on its own, answering each result', async () => {
    const site = await siteWithParts();
    const to = { kind: 'external', url: 'https://example.com/a' };
    const existing = await create(site.id, { source: '/existing', destination: to });
    const live = await create(site.id, { source: '/page', destination: to });
    await create(site.id, { source: '/page', destination: { kind: 'path', spaceId: site.guide, path: 'setup' }, draft: true, permanent: true });
    const response = await h().owner.put(redirects(site.id), {
      redirects: [
        { source: '/new', destination: { kind: 'site-section', siteSectionId: site.apiSection.id }, permanent: true },
        { source: '/existing', destination: { kind: 'external', url: 'https://example.com/b' } },
        { source: '/staged', intent: 'draft', destination: to },
        { source: '/bad', destination: { kind: 'site-section', siteSectionId: 'nope' } },
        { source: '/missing', destination: null },
        { source: '/page', intent: 'publish' },
        { source: '/nothing', intent: 'publish' },
        { source: '/existing', destination: null },
      ],
    });
    expect(response.status).toBe(200);
    const [created, updated, staged, bad, missing, published, nothing, deleted] = response.body.results;
    expect(created).toEqual({ status: 'created', source: '/new', draft: false, id: created.id });
    expect(updated).toEqual({ status: 'updated', source: '/existing', draft: false, id: existing.id });
    expect(staged).toEqual({ status: 'created', source: '/staged', draft: true, id: staged.id });
    expect(bad).toEqual({ status: 'error', source: '/bad', draft: false, error: 'destination.siteSectionId: No section nope in site ' + site.id });
    expect(missing).toMatchObject({ status: 'error', source: '/missing', draft: false });
    expect(published).toEqual({ status: 'published', source: '/page', draft: false, id: live.id });
    expect(nothing).toEqual({ status: 'error', source: '/nothing', draft: false, error: 'there is no draft redirect from /nothing to publish' });
    expect(deleted).toEqual({ status: 'deleted', source: '/existing', draft: false });
    expect(r.ok(await resolve(site.id, '/page'))).toMatchObject({ target: `${site.url}/setup`, redirect: { id: live.id, permanent: true, draft: false } });
    expect(r.ok(await h().owner.get(`${redirects(site.id)}?draft=true`)).items.map((item: any) => item.source)).toEqual(['/staged']);
    expect((await resolve(site.id, '/existing')).status).toBe(404);
    expect((await resolve(site.id, '/bad')).status).toBe(404);
  });

  it('refuses a bulk request that is not one with 400, and stores nothing', async () => {
    const site = await siteWithParts();
    const before = await r.stored();
    const item = { source: '/x', destination: { kind: 'external', url: 'https://example.com' } };
    await expectRefusals((body) => h().owner.put(redirects(site.id), body), [
      [{}, /^redirects: is required$/],
      [{ redirects: [] }, /^redirects: must have at least one redirect$/],
      [{ redirects: Array.from({ length: 501 }, (_, at) => ({ ...item, source: `/x${at}` })) }, /^redirects: must have at most 500 redirects$/],
      [{ redirects: [{ source: '/x' }] }, /^redirects\.0\.destination: is required/],
      [{ redirects: [item, { source: 'x', destination: null }] }, /^redirects\.1\.source: /],
      [{ redirects: [{ ...item, intent: 'maybe' }] }, /^redirects\.0\.intent: /],
    ]);
    expect(await r.stored()).toEqual(before);
  });

  it('lets members with a role read redirects and only admins change them; other organizations get 404', async () => {
    const site = await siteWithParts();
    const to = { kind: 'external', url: 'https://example.com' };
    const made = await create(site.id, { source: '/x', destination: to });
    for (const role of ['create', 'review', 'edit', 'comment', 'read', null] as (MemberRole | null)[]) {
      const caller = await h().user(role);
      const reads = role === null ? 403 : 200;
      expect((await caller.get(redirects(site.id))).status, `list as ${role}`).toBe(reads);
      expect((await caller.get(`${r.site(site.id)}/redirect?source=/x`)).status, `resolve as ${role}`).toBe(reads);
      expect((await caller.post(redirects(site.id), { source: '/y', destination: to })).status, `create as ${role}`).toBe(403);
      expect((await caller.put(redirects(site.id), { redirects: [{ source: '/y', destination: to }] })).status, `bulk as ${role}`).toBe(403);
      expect((await caller.patch(`${redirects(site.id)}/${made.id}`, { permanent: true })).status, `update as ${role}`).toBe(403);
      expect((await caller.delete(`${redirects(site.id)}/${made.id}`)).status, `delete as ${role}`).toBe(403);
    }
    const stranger = (await h().organization()).owner;
    expect((await stranger.get(redirects(site.id))).status).toBe(404);
    expect((await stranger.get(`${r.site(site.id)}/redirect?source=/x`)).status).toBe(404);
    expect((await stranger.post(redirects(site.id), { source: '/y', destination: to })).status).toBe(404);
    expect((await stranger.delete(`${redirects(site.id)}/${made.id}`)).status).toBe(404);
    expect(r.ok(await h().owner.get(redirects(site.id))).items).toEqual([made]);
  });
});
