import { expect, it } from 'vitest';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** Who may read a published site: its visibility and what is left out (Part 3); share-links.test.ts and publishing-auth.test.ts hold the keys. */
httpSuite('reader visibility', (h) => {
  const r = readerHelpers(h);

  async function siteOf(body: Record<string, unknown>, visibility = 'public') {
    const space = await r.spaceWith('Guide', [{ title: 'Welcome', document: { markdown: 'Hello.\n' } }], visibility);
    const created = await r.createSite({ title: 'Handbook', spaces: [space], ...body });
    await r.publish(created.id);
    const published = await r.published(created.id);
    return { id: created.id as string, space, url: published.site.urls.published as string };
  }

  it('opens public sites to anyone; unlisted ones too, with noindex', async () => {
    const open = await siteOf({});
    const html = await r.page(open.url);
    expect(html).not.toContain('noindex');
    const unlisted = await siteOf({ visibility: 'unlisted' });
    expect(await r.page(unlisted.url)).toContain('<meta name="robots" content="noindex">');
  });

  it('answers 404 for an unpublished site, a deleted space and a private space, and an unknown site', async () => {
    const site = await siteOf({});
    r.ok(await h().owner.post(`${r.site(site.id)}/unpublish`, {}));
    expect((await r.read(site.url)).status).toBe(404);
    r.ok(await h().owner.post(`${r.site(site.id)}/publish`, {}));
    expect((await r.read(site.url)).status).toBe(200);
    r.ok(await h().owner.patch(`/v1/spaces/${site.space}`, { visibility: 'private' }));
    expect((await r.read(site.url)).status).toBe(404);
    r.ok(await h().owner.patch(`/v1/spaces/${site.space}`, { visibility: 'public' }));
    expect((await h().owner.delete(`/v1/spaces/${site.space}`)).status).toBe(205);
    expect((await r.read(site.url)).status).toBe(404);
    expect((await r.read(`${new URL(site.url).origin}/published/o/${h().organizationId}/no-such-site`)).status).toBe(404);
  });

  it('keeps hidden pages out of the tree but readable at their URL; a link page redirects to its target', async () => {
    const space = await r.spaceWith('Guide', [
      { title: 'Welcome', document: { markdown: 'Hello.\n' } },
      { title: 'Secret', hidden: true, document: { markdown: 'Hidden.\n' } },
      { type: 'link', title: 'Elsewhere', target: { kind: 'url', url: 'https://example.com/x' } },
    ]);
    const created = await r.createSite({ title: 'Handbook', spaces: [space] });
    await r.publish(created.id);
    const url = (await r.published(created.id)).site.urls.published;
    const first = await r.page(url);
    expect(first).not.toContain('Secret');
    expect(r.hrefs(first)).toContain('https://example.com/x');
    expect(r.heading(await r.page(`${url}/secret`))).toContain('Secret');
    const link = await r.read(`${url}/elsewhere`);
    expect(link.status).toBe(302);
    expect(link.headers.get('location')).toBe('https://example.com/x');
  });

  it("redirects a space's published URL to its place on a published site, and serves a public space alone", async () => {
    const site = await siteOf({});
    const space = r.ok(await h().owner.get(`/v1/spaces/${site.space}`));
    const redirected = await r.read(space.urls.published);
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get('location')).toBe(site.url);
    const alone = await r.spaceWith('Alone', [{ title: 'Only', document: { markdown: 'Solo.\n' } }], 'unlisted');
    const aloneUrl = r.ok(await h().owner.get(`/v1/spaces/${alone}`)).urls.published;
    const html = await r.page(aloneUrl);
    expect(r.heading(html)).toContain('Only');
    expect(html).toContain('noindex');
    const hidden = await r.spaceWith('Hidden', [{ title: 'Only', document: { markdown: 'Solo.\n' } }], 'share-link');
    expect((await r.read(r.ok(await h().owner.get(`/v1/spaces/${hidden}`)).urls.published)).status).toBe(404);
  });

  it("leads a space's published URL to a share-link site only with the site's key", async () => {
    const site = await siteOf({ visibility: 'share-link' });
    const url = r.ok(await h().owner.get(`/v1/spaces/${site.space}`)).urls.published;
    expect((await r.read(url)).status).toBe(404);
    expect((await r.read(`${url}?share=wrong`)).status).toBe(404);
    const { key: shareKey } = await r.shareLink(site.id);
    const redirected = await r.read(`${url}/welcome?share=${shareKey}`);
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get('location')).toBe(`${site.url}/welcome?share=${shareKey}`);
    expect(r.heading(await r.page(redirected.headers.get('location')!))).toContain('Welcome');
  });
});
