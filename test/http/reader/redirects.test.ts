import { expect, it } from 'vitest';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** The reader follows a site's live redirects from paths it has nothing at, and sends old URLs of moved pages to their new place. */
httpSuite('reader redirects', (h) => {
  const r = readerHelpers(h);
  const create = async (siteId: string, body: Record<string, unknown>) => r.ok(await h().owner.post(`${r.site(siteId)}/redirects`, body), 201);
  const pages = [
    { title: 'Welcome', ref: 'welcome', document: { markdown: 'Hello.\n' } },
    { title: 'Setup', ref: 'setup', document: { markdown: 'Steps.\n' } },
  ];

  async function pageIds(spaceId: string) {
    const listed = r.ok(await h().owner.get(`/v1/spaces/${spaceId}/content/pages`)).pages as { id: string; title: string; pages: any[] }[];
    return Object.fromEntries(listed.map((page) => [page.title, page.id]));
  }

  it('answers a live redirect with 308 when permanent on a public site, 307 when not, to each kind of destination', async () => {
    const site = await r.publishedSite(pages);
    const { Setup } = await pageIds(site.space);
    const siteSpace = (await r.published(site.id)).structure.structure[0].id;
    await create(site.id, { source: '/old-setup', destination: { kind: 'site-page', siteSpaceId: siteSpace, pageId: Setup }, permanent: true });
    await create(site.id, { source: '/home', destination: { kind: 'site-space', siteSpaceId: siteSpace } });
    await create(site.id, { source: '/elsewhere', destination: { kind: 'external', url: 'https://example.com/new' }, permanent: true });
    const moved = await r.read(`${site.url}/old-setup`);
    expect(moved.status).toBe(308);
    expect(moved.headers.get('location')).toBe(`${site.url}/setup`);
    expect(moved.headers.get('cache-control')).toBe('no-store');
    const home = await r.read(`${site.url}/home`);
    expect([home.status, home.headers.get('location')]).toEqual([307, site.url]);
    const away = await r.read(`${site.url}/elsewhere`);
    expect([away.status, away.headers.get('location')]).toEqual([308, 'https://example.com/new']);
    expect(r.heading(await r.page(`${site.url}/setup`))).toContain('Setup');
  });

  it('follows wildcards with the captured rest, never hides a page, and ignores drafts and deleted redirects', async () => {
    const site = await r.publishedSite(pages);
    await create(site.id, { source: '/docs/*', destination: { kind: 'external', url: 'https://new.example.com/docs' }, captureWildcard: true });
    await create(site.id, { source: '/blog*', destination: { kind: 'external', url: 'https://blog.example.com/' } });
    await create(site.id, { source: '/setup', destination: { kind: 'external', url: 'https://example.com/never' } });
    const draft = await create(site.id, { source: '/draft', destination: { kind: 'external', url: 'https://example.com/draft' }, draft: true });
    expect((await r.read(`${site.url}/docs/a/b%20c`)).headers.get('location')).toBe('https://new.example.com/docs/a/b%20c');
    expect((await r.read(`${site.url}/blog-2020/post`)).headers.get('location')).toBe('https://blog.example.com/');
    // A page at the path wins over a redirect from it.
    expect(r.heading(await r.page(`${site.url}/setup`))).toContain('Setup');
    expect((await r.read(`${site.url}/draft`)).status).toBe(404);
    r.ok(await h().owner.patch(`${r.site(site.id)}/redirects/${draft.id}`, { draft: false }));
    expect((await r.read(`${site.url}/draft`)).status).toBe(307);
    expect((await h().owner.delete(`${r.site(site.id)}/redirects/${draft.id}`)).status).toBe(205);
    expect((await r.read(`${site.url}/draft`)).status).toBe(404);
  });

  it('redirects with 307 on a share-link site, only for visitors it admits, keeping their key in a cookie', async () => {
    const site = await r.publishedSite(pages, { visibility: 'share-link' });
    await create(site.id, { source: '/old', destination: { kind: 'external', url: 'https://example.com/new' }, permanent: true });
    expect((await r.read(`${site.url}/old`)).status).toBe(404);
    const link = await r.shareLink(site.id);
    const followed = await r.read(`${site.url}/old?share=${link.key}`);
    expect(followed.status).toBe(307);
    expect(followed.headers.get('location')).toBe('https://example.com/new');
    expect(followed.headers.get('set-cookie') ?? '').toMatch(new RegExp(`^dp_share=${link.key};`));
  });

  it('sends the old URL of a moved or renamed page, and of its subpages, to the new one (308), after each merge', async () => {
    const site = await r.publishedSite([...pages, { title: 'Linux', into: 'setup', document: { markdown: 'On Linux.\n' } }]);
    const { Setup, Welcome } = await pageIds(site.space);
    expect(r.heading(await r.page(`${site.url}/setup/linux`))).toContain('Linux');
    await r.write(site.space, [{ operation: 'update_page', page: Setup, slug: 'installation' }]);
    const renamed = await r.read(`${site.url}/setup`);
    expect([renamed.status, renamed.headers.get('location')]).toEqual([308, `${site.url}/installation`]);
    expect((await r.read(`${site.url}/setup/linux`)).headers.get('location')).toBe(`${site.url}/installation/linux`);
    // Moved again, under another page: both old URLs lead to where it is now.
    await r.write(site.space, [{ operation: 'update_page', page: Setup, into: Welcome }]);
    expect((await r.read(`${site.url}/setup`)).headers.get('location')).toBe(`${site.url}/welcome/installation`);
    expect((await r.read(`${site.url}/installation`)).headers.get('location')).toBe(`${site.url}/welcome/installation`);
    expect(r.heading(await r.page(`${site.url}/welcome/installation/linux`))).toContain('Linux');
    // A new page at an old path is served, not redirected; a deleted page's old URL is a 404.
    await r.write(site.space, [{ operation: 'insert_page', title: 'Setup', document: { markdown: 'New setup.\n' } }]);
    expect(r.heading(await r.page(`${site.url}/setup`))).toContain('Setup');
    await r.write(site.space, [{ operation: 'delete_page', page: Setup }]);
    expect((await r.read(`${site.url}/installation`)).status).toBe(404);
  });

  it('keeps the old URL of a page that a change request renamed while the space changed meanwhile (a three-way merge)', async () => {
    const site = await r.publishedSite(pages);
    const { Setup, Welcome } = await pageIds(site.space);
    h().clock.advance(1000);
    const request = r.ok(await h().owner.post(`/v1/spaces/${site.space}/change-requests`, {}), 201);
    r.ok(await h().owner.post(`/v1/spaces/${site.space}/change-requests/${request.id}/content`, { changes: [{ operation: 'update_page', page: Setup, slug: 'install' }] }));
    await r.write(site.space, [{ operation: 'update_page', page: Welcome, document: { markdown: 'Hello again.\n' } }]);
    r.ok(await h().owner.post(`/v1/spaces/${site.space}/change-requests/${request.id}/merge`, {}));
    const moved = await r.read(`${site.url}/setup`);
    expect([moved.status, moved.headers.get('location')]).toEqual([308, `${site.url}/install`]);
  });

  it('sends the old URL of a moved page read on its own space URL too (public space, 308)', async () => {
    const space = await r.spaceWith('Alone', pages, 'unlisted');
    const { Setup } = await pageIds(space);
    const url = r.ok(await h().owner.get(`/v1/spaces/${space}`)).urls.published;
    await r.write(space, [{ operation: 'update_page', page: Setup, slug: 'install' }]);
    const moved = await r.read(`${url}/setup`);
    expect([moved.status, moved.headers.get('location')]).toEqual([308, `${url}/install`]);
  });
});
