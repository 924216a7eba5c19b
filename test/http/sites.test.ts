import { expect, it } from 'vitest';
import { INDEXES, TABLES } from '../../src/core/records.js';
import type { MemberRole } from '../../src/core/roles.js';
import { expectRefusals } from './bad-input.js';
import { httpSuite, walkPages } from './harness.js';
import { SITE_KEYS, siteHelpers } from './site-helpers.js';

/** The site endpoints: create, list, get, patch, delete, publish; every field, filter, limit, pattern and bad input. */

const ROLES_BELOW_ADMIN: (MemberRole | null)[] = ['create', 'review', 'edit', 'comment', 'read', null];

httpSuite('sites', (h) => {
  const { sites, site, ok, createSite, spaces, addSection, addSiteSpace, stored, space, ids, outline } = siteHelpers(h);
  const origin = (body: Record<string, any>) => (body.urls.location as string).replace(/\/v1\/.*$/, '');

  it('creates a site with 201, a Location header and every field of the Site table, and reads it back', async () => {
    h().clock.advance(60_000);
    const created = await h().owner.post(sites(), {});
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(Object.keys(created.body).sort()).toEqual(SITE_KEYS);
    expect(created.body).toEqual({
      object: 'site',
      id: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
      type: 'basic',
      title: 'Untitled site',
      visibility: 'public',
      published: false,
      siteSpaces: 0,
      createdAt: '2026-03-01T10:01:00.000Z',
      adaptiveContent: { enabled: false },
      ads: { status: 'pending', submittable: false },
      features: [],
      urls: {
        location: expect.stringMatching(new RegExp(`^http://[^/]+/v1/orgs/${h().organizationId}/sites/${id}$`)),
        app: expect.stringMatching(new RegExp(`^http://[^/]+/app/o/${h().organizationId}/sites/${id}$`)),
      },
    });
    expect(created.headers.get('location')).toBe(created.body.urls.location);
    expect(ok(await h().owner.get(site(id)))).toEqual(created.body);
    expect((await createSite()).id).not.toBe(id);
  });

  it('creates with a type, a title, a visibility and spaces: site spaces at the root in that order, the first the default', async () => {
    const [a, b] = await spaces('Alpha', 'Beta');
    const created = await createSite({ type: 'premium', title: 'Handbook', visibility: 'unlisted', spaces: [b, a] });
    expect(created).toMatchObject({ type: 'premium', title: 'Handbook', visibility: 'unlisted', siteSpaces: 2 });
    expect(created.features).toEqual([{ id: 'sites-multivariant-site', plan: 'premium', frozen: false }]);
    const list = ok(await h().owner.get(`${site(created.id)}/site-spaces`));
    expect(list.items.map((item: any) => [item.space.id, item.default, item.path])).toEqual([
      [b, true, 'beta'],
      [a, false, 'alpha'],
    ]);
    for (const type of ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium']) {
      expect((await createSite({ type })).type).toBe(type);
    }
    for (const visibility of ['public', 'unlisted', 'share-link', 'visitor-auth']) {
      expect((await createSite({ visibility })).visibility).toBe(visibility);
    }
    expect((await createSite({ title: 'xy' })).title).toBe('xy');
    expect((await createSite({ title: 't'.repeat(128) })).title).toBe('t'.repeat(128));
    expect((await createSite({ spaces: [] })).siteSpaces).toBe(0);
  });

  it('creates a new empty space for spaces: "empty", titled after the site', async () => {
    const before = await ids(await h().owner.get(`/v1/orgs/${h().organizationId}/spaces`));
    const created = await createSite({ title: `Guide ${'g'.repeat(60)}`, spaces: 'empty' });
    const after = await ids(await h().owner.get(`/v1/orgs/${h().organizationId}/spaces`));
    expect(after).toHaveLength(before.length + 1);
    const [siteSpace] = ok(await h().owner.get(`${site(created.id)}/site-spaces`)).items;
    expect(siteSpace.space).toMatchObject({ title: `Guide ${'g'.repeat(44)}`, visibility: 'private', organization: h().organizationId });
    expect(after).toContain(siteSpace.space.id);
    expect(siteSpace.default).toBe(true);
  });

  it('refuses a bad create with 400 naming the field, and stores nothing', async () => {
    const [mine] = await spaces('Mine');
    const other = await h().organization();
    const foreign = await space({ title: 'Theirs' }, other.owner, other.organizationId);
    const trashed = await space({ title: 'Trashed' });
    expect((await h().owner.delete(`/v1/spaces/${trashed.id}`)).status).toBe(205);
    await createSite({ title: 'Keep' });
    const before = await stored([h().organizationId, other.organizationId]);
    await expectRefusals((body) => h().owner.post(sites(), body), [
      [{ title: 'x' }, /^title: must be 2 to 128 characters$/],
      [{ title: 't'.repeat(129) }, /^title: must be 2 to 128 characters$/],
      [{ title: 5 }, /^title: must be string/],
      [{ type: 'enterprise' }, /^type: must be /],
      [{ visibility: 'private' }, /^visibility: must be /],
      [{ visibility: 'in-collection' }, /^visibility: must be /],
      [{ spaces: 'sample' }, /^spaces: must be a list of space ids, or "empty"/],
      [{ spaces: 'x' }, /^spaces: must be a list of space ids, or "empty"/],
      [{ spaces: [42] }, /^spaces/],
      [{ spaces: [mine, mine] }, new RegExp(`^spaces\\.1: space ${mine} is listed twice$`)],
      [{ spaces: [mine, 'no-such-space'] }, /^spaces\.1: no space no-such-space in organization /],
      [{ spaces: [foreign.id] }, new RegExp(`^spaces\\.0: no space ${foreign.id} in organization `)],
      [{ spaces: [trashed.id] }, new RegExp(`^spaces\\.0: space ${trashed.id} is deleted`)],
      [{ spaces: Array.from({ length: 101 }, () => mine) }, /^spaces: must have at most 100 entries$/],
    ]);
    expect(await stored([h().organizationId, other.organizationId])).toEqual(before);
  });

  it('lets members with the create role or above create sites, and only with spaces they can see', async () => {
    const hidden = await space({ title: 'Admins only' });
    expect((await h().owner.patch(`/v1/spaces/${hidden.id}`, { defaultLevel: null })).status).toBe(200);
    const creator = await h().user('create');
    expect((await creator.post(sites(), { title: 'By creator' })).status).toBe(201);
    const refused = await creator.post(sites(), { spaces: [hidden.id] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(new RegExp(`^spaces\\.0: no space ${hidden.id} in organization`));
    for (const role of ['review', 'edit', 'comment', 'read', null] as const) {
      const caller = await h().user(role);
      const response = await caller.post(sites(), { title: `By ${role}` });
      expect(response.status, `role ${role}`).toBe(403);
    }
    expect(ok(await h().owner.get(sites())).count).toBe(1);
  });

  it('answers 404 to a non-member and for unknown or foreign sites, 403 to guests reading', async () => {
    const id = (await createSite({ title: 'Hidden' })).id;
    const other = await h().organization();
    const foreign = await createSite({ title: 'Foreign' }, other.owner, other.organizationId);
    const stranger = other.owner;
    const paths = [site(id), `${site(id)}/site-spaces`, `${site(id)}/sections`, `${site(id)}/section-groups`, `${site(id)}/published`, `${site(id)}/adaptive-schema`];
    for (const path of [sites(), ...paths]) expect((await stranger.get(path)).status, path).toBe(404);
    expect((await stranger.post(sites(), {})).status).toBe(404);
    expect((await stranger.patch(site(id), { title: 'Mine' })).status).toBe(404);
    expect((await stranger.delete(site(id))).status).toBe(404);
    for (const missing of ['no-such-site', foreign.id]) {
      expect((await h().owner.get(site(missing))).status).toBe(404);
      expect((await h().owner.patch(site(missing), { title: 'Taken' })).status).toBe(404);
      expect((await h().owner.delete(site(missing))).status).toBe(404);
      expect((await h().owner.post(`${site(missing)}/publish`)).status).toBe(404);
    }
    expect((await h().owner.get('/v1/orgs/no-such-org/sites')).status).toBe(404);
    const guest = await h().user(null);
    for (const path of [sites(), ...paths]) expect((await guest.get(path)).status, path).toBe(403);
    const reader = await h().user('read');
    expect(ok(await reader.get(site(id))).title).toBe('Hidden');
    expect(ok(await other.owner.get(site(foreign.id, other.organizationId))).title).toBe('Foreign');
  });

  it('lists sites oldest first with an exact count, and pages through them', async () => {
    const created = [];
    for (let i = 0; i < 7; i++) created.push((await createSite({ title: `Site ${i}` })).id);
    const list = ok(await h().owner.get(sites()));
    expect(list.count).toBe(7);
    expect(list.next).toBeUndefined();
    expect(list.items.map((item: any) => item.id)).toEqual(created);
    for (const item of list.items) expect(Object.keys(item).sort()).toEqual(SITE_KEYS);
    for (const limit of [1, 2, 3, 7, 1000]) {
      expect((await walkPages(h().owner, sites(), limit)).map((item) => item.id)).toEqual(created);
    }
    const first = ok(await h().owner.get(`${sites()}?limit=2`));
    expect(first.count).toBe(7);
    expect(first.items).toHaveLength(2);
    expect(first.next.page).toEqual(expect.any(String));
    const reader = await h().user('read');
    expect(ok(await reader.get(sites())).count).toBe(7);
    await expectRefusals((query: string) => h().owner.get(`${sites()}?${query}`), [
      ['limit=0', /^limit: must be at least 1$/],
      ['limit=1001', /^limit: must be at most 1000$/],
      ['limit=two', /^limit: must be a whole number$/],
      ['page=not-a-cursor', /^page: is not a cursor this API returned$/],
      ['published=maybe', /^published: must be true or false$/],
      [`title=${'t'.repeat(129)}`, /^title: must be at most 128 characters$/],
    ]);
  });

  it('filters by title (case-insensitive substring), by space and by published state, together too', async () => {
    const [a, b] = await spaces('A space', 'B space');
    const guide = await createSite({ title: 'User Guide', spaces: [a] });
    const api = await createSite({ title: 'API reference', spaces: [b] });
    const sectioned = await createSite({ title: 'Guides and more' });
    await addSection(sectioned.id, b);
    await createSite({ title: 'Empty' });
    const filter = async (query: string) => {
      const body = ok(await h().owner.get(`${sites()}?${query}`));
      expect(body.count).toBe(body.items.length);
      return body.items.map((item: any) => item.id);
    };
    expect(await filter('title=guide')).toEqual([guide.id, sectioned.id]);
    expect(await filter('title=GUIDE')).toEqual([guide.id, sectioned.id]);
    expect(await filter('title=r%20gu')).toEqual([guide.id]);
    expect(await filter('title=zzz')).toEqual([]);
    expect(await filter('title=')).toHaveLength(4);
    expect(await filter(`space=${a}`)).toEqual([guide.id]);
    // A space in a section counts too.
    expect(await filter(`space=${b}`)).toEqual([api.id, sectioned.id]);
    expect(await filter('space=no-such-space')).toEqual([]);
    expect(await filter('published=true')).toEqual([]);
    expect(ok(await h().owner.post(`${site(api.id)}/publish`)).published).toBe(true);
    expect(ok(await h().owner.post(`${site(sectioned.id)}/publish`)).published).toBe(true);
    expect(await filter('published=true')).toEqual([api.id, sectioned.id]);
    expect(await filter('published=false')).toHaveLength(2);
    expect(await filter(`published=true&space=${b}&title=guides`)).toEqual([sectioned.id]);
    expect(await filter(`published=false&space=${b}`)).toEqual([]);
    const paged = ok(await h().owner.get(`${sites()}?published=true&limit=1`));
    expect(paged.count).toBe(2);
    expect(paged.items.map((item: any) => item.id)).toEqual([api.id]);
  });

  it('updates the title, visibility, basename and adaptive content, keeping what is absent', async () => {
    const created = await createSite({ title: 'Before' });
    const updated = ok(await h().owner.patch(site(created.id), { title: 'After', visibility: 'share-link', basename: 'docs' }));
    expect(updated).toMatchObject({ title: 'After', visibility: 'share-link', basename: 'docs', published: false });
    expect(updated.features).toEqual([{ id: 'sites-share-links', plan: 'basic', frozen: false }]);
    const adaptive = ok(await h().owner.patch(site(created.id), { adaptiveContent: { enabled: true } }));
    expect(adaptive).toMatchObject({ title: 'After', visibility: 'share-link', basename: 'docs', adaptiveContent: { enabled: true } });
    expect(adaptive.features.map((feature: any) => feature.id)).toEqual(['sites-adaptive-content', 'sites-share-links']);
    const empty = ok(await h().owner.patch(site(created.id), {}));
    expect(empty).toEqual(adaptive);
    expect(ok(await h().owner.patch(site(created.id), { visibility: 'visitor-auth', adaptiveContent: { enabled: false } })).features).toEqual([
      { id: 'sites-visitor-authentication', plan: 'basic', frozen: false },
    ]);
    expect(ok(await h().owner.patch(site(created.id), { basename: 'b'.repeat(100) })).basename).toBe('b'.repeat(100));
    expect(ok(await h().owner.patch(site(created.id), { basename: 'x' })).basename).toBe('x');
    expect(ok(await h().owner.get(site(created.id)))).toMatchObject({ title: 'After', basename: 'x', visibility: 'visitor-auth' });
  });

  it('sets and removes the proxy and the hostname, enforcing their patterns, and uses them in published URLs', async () => {
    const created = await createSite({ title: 'Docs' });
    const withProxy = ok(await h().owner.patch(site(created.id), { proxy: 'example.com/docs' }));
    expect(withProxy.proxy).toEqual({
      origin: 'example.com/docs',
      target: `${origin(created)}/published/o/${h().organizationId}/${created.id}`,
    });
    expect(withProxy.features.map((feature: any) => feature.id)).toEqual(['sites-custom-subdirectory']);
    expect(withProxy.urls.published).toBeUndefined();
    expect(ok(await h().owner.post(`${site(created.id)}/publish`)).urls.published).toBe('https://example.com/docs');
    for (const proxy of ['www.example.co.uk/developer/docs', 'my-site.io/a_b/c-d', `example.com/${'a'.repeat(500)}`]) {
      expect(ok(await h().owner.patch(site(created.id), { proxy })).proxy.origin).toBe(proxy);
    }
    const withHostname = ok(await h().owner.patch(site(created.id), { proxy: null, hostname: 'docs.example.com' }));
    expect(withHostname.proxy).toBeUndefined();
    expect(withHostname.hostname).toBe('docs.example.com');
    expect(withHostname.urls.published).toBe('https://docs.example.com');
    expect(withHostname.features.map((feature: any) => feature.id)).toEqual(['sites-custom-domain']);
    // With a basename and neither a proxy nor a hostname, the default URL ends with the basename.
    const plain = ok(await h().owner.patch(site(created.id), { hostname: null, basename: 'handbook' }));
    expect(plain.hostname).toBeUndefined();
    expect(plain.urls.published).toBe(`${origin(created)}/published/o/${h().organizationId}/handbook`);
    const before = await stored();
    await expectRefusals((body) => h().owner.patch(site(created.id), body), [
      [{ proxy: 'example.com' }, /^proxy: must be a domain followed by a path/],
      [{ proxy: 'https://example.com/docs' }, /^proxy: must be a domain followed by a path/],
      [{ proxy: 'example.com/docs/' }, /^proxy: must be a domain followed by a path/],
      [{ proxy: 'localhost/docs' }, /^proxy: must be a domain followed by a path/],
      [{ proxy: `example.com/${'a'.repeat(501)}` }, /^proxy: must be at most 512 characters$/],
      [{ proxy: 7 }, /^proxy: /],
      [{ hostname: 'example.com' }, /^hostname: must be a lower-case hostname/],
      [{ hostname: 'Docs.Example.com' }, /^hostname: must be a lower-case hostname/],
      [{ hostname: 'docs..example.com' }, /^hostname: must be a lower-case hostname/],
      [{ hostname: '-docs.example.com' }, /^hostname: must be a lower-case hostname/],
      [{ hostname: 'docs.example.com.' }, /^hostname: must be a lower-case hostname/],
      [{ hostname: `${'a'.repeat(64)}.example.com` }, /^hostname: must be a lower-case hostname/],
      [{ hostname: `${'a.'.repeat(256)}com` }, /^hostname: must be at most 512 characters$/],
      [{ title: 'x' }, /^title: must be 2 to 128 characters$/],
      [{ title: 't'.repeat(129) }, /^title: must be 2 to 128 characters$/],
      [{ visibility: 'private' }, /^visibility: must be /],
      [{ basename: '' }, /^basename: must be 1 to 100 characters$/],
      [{ basename: 'b'.repeat(101) }, /^basename: must be 1 to 100 characters$/],
      [{ basename: null }, /^basename: /],
      [{ adaptiveContent: true }, /^adaptiveContent: /],
      [{ adaptiveContent: {} }, /^adaptiveContent\.enabled: is required$/],
      [{ adaptiveContent: { enabled: 'yes' } }, /^adaptiveContent\.enabled: /],
      [{ type: 'premium', title: 'x' }, /^title: /],
    ]);
    expect(await stored()).toEqual(before);
    expect(ok(await h().owner.patch(site(created.id), { hostname: 'a1.b-2.c3' })).hostname).toBe('a1.b-2.c3');
  });

  it('keeps hostnames unique across sites and basenames unique within the organization (409)', async () => {
    const first = await createSite({ title: 'First' });
    const second = await createSite({ title: 'Second' });
    const other = await h().organization();
    const foreign = await createSite({ title: 'Foreign' }, other.owner, other.organizationId);
    ok(await h().owner.patch(site(first.id), { hostname: 'docs.acme.test', basename: 'docs' }));
    const before = await stored([h().organizationId, other.organizationId]);
    const taken = await h().owner.patch(site(second.id), { hostname: 'docs.acme.test' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toMatch(/^hostname: docs\.acme\.test is already the hostname of another site$/);
    expect((await other.owner.patch(site(foreign.id, other.organizationId), { hostname: 'docs.acme.test' })).status).toBe(409);
    const basename = await h().owner.patch(site(second.id), { basename: 'docs' });
    expect(basename.status).toBe(409);
    expect(basename.body.error.message).toMatch(/^basename: docs is already the basename of another site/);
    expect(await stored([h().organizationId, other.organizationId])).toEqual(before);
    // Another organization may use the basename; a site may set its own values again.
    expect(ok(await other.owner.patch(site(foreign.id, other.organizationId), { basename: 'docs' })).basename).toBe('docs');
    expect(ok(await h().owner.patch(site(first.id), { hostname: 'docs.acme.test', basename: 'docs' })).basename).toBe('docs');
    // Once released, a hostname can be taken.
    ok(await h().owner.patch(site(first.id), { hostname: null }));
    expect(ok(await h().owner.patch(site(second.id), { hostname: 'docs.acme.test' })).hostname).toBe('docs.acme.test');
  });

  it('sets the default site space of the root, or of the default section, and the default section', async () => {
    const [a, b, c, d] = await spaces('A', 'B', 'C', 'D');
    const created = await createSite({ spaces: [a, b] });
    const [ssA, ssB] = ok(await h().owner.get(`${site(created.id)}/site-spaces`)).items;
    ok(await h().owner.patch(site(created.id), { defaultSiteSpace: ssB.id }));
    expect(await outline(created.id)).toEqual([ssA.id, `${ssB.id}*`]);
    const first = await addSection(created.id, c, 'Second');
    const [gathered] = ok(await h().owner.get(`${site(created.id)}/sections`)).items;
    expect(gathered.siteSpaces.map((item: any) => [item.id, item.default])).toEqual([
      [ssA.id, false],
      [ssB.id, true],
    ]);
    const extra = await addSiteSpace(created.id, d, first.id);
    // The default section is the gathered one: defaultSiteSpace must be one of its site spaces.
    const before = await stored();
    await expectRefusals((body) => h().owner.patch(site(created.id), body), [
      [{ defaultSiteSpace: extra.id }, new RegExp(`^defaultSiteSpace: no site space ${extra.id} in the default section ${gathered.id} `)],
      [{ defaultSiteSpace: 'no-such-site-space' }, /^defaultSiteSpace: no site space no-such-site-space in the default section /],
      [{ defaultSiteSection: 'no-such-section' }, /^defaultSiteSection: no section no-such-section in site /],
      [{ defaultSiteSection: first.id, defaultSiteSpace: ssA.id }, new RegExp(`^defaultSiteSpace: no site space ${ssA.id} in the default section ${first.id} `)],
      [{ defaultSiteSpace: '' }, /^defaultSiteSpace: must not be empty$/],
    ]);
    expect(await stored()).toEqual(before);
    ok(await h().owner.patch(site(created.id), { defaultSiteSpace: ssA.id }));
    ok(await h().owner.patch(site(created.id), { defaultSiteSection: first.id, defaultSiteSpace: extra.id }));
    expect(await outline(created.id)).toEqual([
      { [`section:${gathered.id}`]: [`${ssA.id}*`, ssB.id] },
      { [`section:${first.id}*`]: [first.siteSpaces[0].id, `${extra.id}*`] },
    ]);
    // A site without sections has no default section to choose.
    const flat = await createSite({ spaces: [a] });
    const refused = await h().owner.patch(site(flat.id), { defaultSiteSection: first.id });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(`defaultSiteSection: site ${flat.id} has no sections`);
    const foreignSpace = await h().owner.patch(site(flat.id), { defaultSiteSpace: ssA.id });
    expect(foreignSpace.status).toBe(400);
    expect(foreignSpace.body.error.message).toMatch(new RegExp(`^defaultSiteSpace: no site space ${ssA.id} in the root of site ${flat.id}$`));
  });

  it('lets only admins change, publish and delete a site', async () => {
    const created = await createSite({ title: 'Guarded' });
    const before = await stored();
    for (const role of ROLES_BELOW_ADMIN) {
      const caller = await h().user(role);
      expect((await caller.patch(site(created.id), { title: 'Taken' })).status, `patch as ${role}`).toBe(403);
      expect((await caller.delete(site(created.id))).status, `delete as ${role}`).toBe(403);
      expect((await caller.post(`${site(created.id)}/publish`)).status, `publish as ${role}`).toBe(403);
      expect((await caller.post(`${site(created.id)}/unpublish`)).status, `unpublish as ${role}`).toBe(403);
    }
    expect(await stored()).toEqual(before);
    const admin = await h().user('admin');
    expect(ok(await admin.patch(site(created.id), { title: 'By admin' })).title).toBe('By admin');
  });

  it('publishes and unpublishes (the public API endpoints), idempotently', async () => {
    const created = await createSite({ title: 'Launch' });
    const published = ok(await h().owner.post(`${site(created.id)}/publish`));
    expect(published).toMatchObject({ published: true, ads: { status: 'pending', submittable: true } });
    expect(published.urls.published).toBe(`${origin(created)}/published/o/${h().organizationId}/${created.id}`);
    expect(ok(await h().owner.post(`${site(created.id)}/publish`))).toEqual(published);
    ok(await h().owner.patch(site(created.id), { visibility: 'unlisted' }));
    expect(ok(await h().owner.get(site(created.id))).ads).toEqual({ status: 'pending', submittable: false });
    const unpublished = ok(await h().owner.post(`${site(created.id)}/unpublish`));
    expect(unpublished.published).toBe(false);
    expect(unpublished.urls.published).toBeUndefined();
    expect(ok(await h().owner.post(`${site(created.id)}/unpublish`))).toEqual(unpublished);
  });

  it('deletes a site with 205 and its parts, keeps its spaces, and clears the organization default content', async () => {
    const [a, b] = await spaces('A', 'B');
    const doomed = await createSite({ spaces: [a] });
    await addSection(doomed.id, b);
    ok(await h().owner.post(`${site(doomed.id)}/section-groups`, { title: 'Group' }), 201);
    const kept = await createSite({ spaces: [a, b] });
    ok(await h().owner.patch(`/v1/orgs/${h().organizationId}`, { defaultContent: { type: 'site', site: doomed.id } }));
    const deleted = await h().owner.delete(site(doomed.id));
    expect(deleted.status).toBe(205);
    expect(deleted.text).toBe('');
    expect((await h().owner.get(site(doomed.id))).status).toBe(404);
    expect((await h().owner.delete(site(doomed.id))).status).toBe(404);
    const leftovers = await h().platform.store.read(async (tx) => {
      const counts = [];
      for (const [table, index] of [
        [TABLES.siteSpaces, INDEXES.siteSpacesBySite],
        [TABLES.siteSections, INDEXES.siteSectionsBySite],
        [TABLES.siteSectionGroups, INDEXES.siteSectionGroupsBySite],
      ] as const) {
        counts.push((await tx.list(table, { index, value: doomed.id, limit: 0 })).count);
      }
      return counts;
    });
    expect(leftovers).toEqual([0, 0, 0]);
    expect(ok(await h().owner.get(`/v1/orgs/${h().organizationId}`)).defaultContent).toBeUndefined();
    expect(ok(await h().owner.get(`/v1/spaces/${a}`)).id).toBe(a);
    expect(ok(await h().owner.get(site(kept.id))).siteSpaces).toBe(2);
    expect(ok(await h().owner.get(`${sites()}?space=${a}`)).items.map((item: any) => item.id)).toEqual([kept.id]);
  });

  it('keeps siteSpaces exact: adds, deletes, and spaces purged after their restore window leave the site', async () => {
    const [a, b, c] = await spaces('A', 'B', 'C');
    const created = await createSite({ spaces: [a, b] });
    const count = async () => ok(await h().owner.get(site(created.id))).siteSpaces;
    expect(await count()).toBe(2);
    const third = await addSiteSpace(created.id, c);
    expect(await count()).toBe(3);
    expect((await h().owner.delete(`${site(created.id)}/site-spaces/${third.id}`)).status).toBe(205);
    expect(await count()).toBe(2);
    // A deleted space stays on the site while it can be restored, then leaves with it.
    expect((await h().owner.delete(`/v1/spaces/${a}`)).status).toBe(205);
    expect(await count()).toBe(2);
    h().clock.advance(7 * 24 * 3600 * 1000 + 1);
    expect(await h().platform.purgeDeletedSpaces()).toBe(1);
    expect(await count()).toBe(1);
    const [left] = ok(await h().owner.get(`${site(created.id)}/site-spaces`)).items;
    expect(left).toMatchObject({ default: true, space: { id: b } });
    expect(ok(await h().owner.get(`${sites()}?space=${a}`)).count).toBe(0);
    // The default that took over stays the default when it moves.
    const added = await addSiteSpace(created.id, c);
    ok(await h().owner.post(`${site(created.id)}/site-spaces/${left.id}/move`, {}));
    expect(await outline(created.id)).toEqual([added.id, `${left.id}*`]);
  });

  it('drops a space from the sites of its organization when it is transferred to another one', async () => {
    const [a, b] = await spaces('A', 'B');
    const created = await createSite({ spaces: [a, b] });
    const other = await h().organization();
    await h().platform.addUser({ organizationId: other.organizationId, email: h().owner.email, name: 'Olive Owner', role: 'admin' });
    expect((await h().owner.post(`/v1/spaces/${a}/transfer`, { organization: other.organizationId })).status).toBe(200);
    expect(ok(await h().owner.get(site(created.id))).siteSpaces).toBe(1);
    expect(ok(await h().owner.get(`${site(created.id)}/site-spaces`)).items.map((item: any) => [item.space.id, item.default])).toEqual([[b, true]]);
  });
});
