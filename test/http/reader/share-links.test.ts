import { expect, it } from 'vitest';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** Share-link sites: any active share link opens them, each revoked on its own; its key is unguessable. */
httpSuite('reader share links', (h) => {
  const r = readerHelpers(h);
  const shared = () => r.publishedSite([{ title: 'Welcome', document: { markdown: 'Hello.\n' } }], { visibility: 'share-link' });
  const withCookie = (key: string) => ({ headers: { cookie: `dp_share=${key}` } });

  it('opens a share-link site with a live link, then by the cookie it sets; never without one', async () => {
    const site = await shared();
    expect((await r.read(site.url)).status).toBe(404);
    expect((await r.read(`${site.url}?share=wrong`)).status).toBe(404);
    const link = await r.shareLink(site.id);
    expect(link.url).toBe(`${site.url}?share=${link.key}`);
    const opened = await r.read(link.url);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('set-cookie') ?? '').toMatch(new RegExp(`^dp_share=${link.key}; Path=${new URL(site.url).pathname}; HttpOnly; SameSite=Lax`));
    const page = await r.page(site.url, withCookie(link.key));
    expect(page).toContain('noindex');
    // The URLs the API gives with the link's key as shareKey carry it, and open the site.
    expect((await r.read((await r.published(site.id, `?shareKey=${link.key}`)).site.urls.published)).status).toBe(200);
  });

  it('revokes a deleted link alone: another link still opens the site', async () => {
    const site = await shared();
    const first = await r.shareLink(site.id, 'Reviewers');
    const second = await r.shareLink(site.id, 'Partners');
    expect(second.key).not.toBe(first.key);
    expect((await h().owner.delete(`${r.site(site.id)}/share-links/${first.id}`)).status).toBe(205);
    expect((await r.read(first.url)).status).toBe(404);
    expect((await r.read(site.url, withCookie(first.key))).status).toBe(404);
    expect((await r.read(second.url)).status).toBe(200);
    expect((await r.read(site.url, withCookie(second.key))).status).toBe(200);
  });

  it('closes the site to an inactive link until it is active again, with the same key', async () => {
    const site = await shared();
    const link = await r.shareLink(site.id);
    r.ok(await h().owner.patch(`${r.site(site.id)}/share-links/${link.id}`, { active: false }));
    expect((await r.read(link.url)).status).toBe(404);
    const again = r.ok(await h().owner.patch(`${r.site(site.id)}/share-links/${link.id}`, { active: true }));
    expect(again.urls.published).toBe(link.url);
    expect((await r.read(link.url)).status).toBe(200);
  });

  it("refuses a key made from another link's id, another site's link, and a key of a deleted site", async () => {
    const site = await shared();
    const other = await shared();
    const link = await r.shareLink(site.id);
    const foreign = await r.shareLink(other.id);
    const mac = link.key.slice(0, 43);
    // The HMAC of one link does not open the site under another link's id, nor the other site.
    expect((await r.read(`${site.url}?share=${mac}${foreign.id}`)).status).toBe(404);
    expect((await r.read(`${other.url}?share=${link.key}`)).status).toBe(404);
    expect((await r.read(`${site.url}?share=${mac}`)).status).toBe(404);
    expect((await r.read(`${site.url}?share=${foreign.key}`)).status).toBe(404);
    expect((await h().owner.delete(r.site(site.id))).status).toBe(205);
    expect((await r.read(link.url)).status).toBe(404);
  });

  it('lets a link open nothing while the site is public: the site is open to all anyway', async () => {
    const site = await shared();
    const link = await r.shareLink(site.id);
    r.ok(await h().owner.patch(r.site(site.id), { visibility: 'public' }));
    expect((await r.read(site.url)).status).toBe(200);
    r.ok(await h().owner.patch(r.site(site.id), { visibility: 'share-link' }));
    expect((await r.read(site.url)).status).toBe(404);
    expect((await r.read(link.url)).status).toBe(200);
  });
});
