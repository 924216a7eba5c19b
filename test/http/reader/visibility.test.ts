import { expect, it } from 'vitest';
import { MAX_VISITOR_TOKEN_SECONDS } from '../../../src/core/sites/reader/admission.js';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** Who may read a published site: its visibility, its keys, and what is left out (Part 3). */
httpSuite('reader visibility', (h) => {
  const r = readerHelpers(h);

  async function siteOf(body: Record<string, unknown>, visibility = 'public') {
    const space = await r.spaceWith('Guide', [{ title: 'Welcome', document: { markdown: 'Hello.\n' } }], visibility);
    const created = await r.createSite({ title: 'Handbook', spaces: [space], ...body });
    await r.publish(created.id);
    const published = await r.published(created.id);
    return { id: created.id as string, space, url: published.site.urls.published as string };
  }

  const { keys, token } = r;

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

  it('opens a share-link site only with its key, then by the cookie it sets; a rotated key no longer opens it', async () => {
    const site = await siteOf({ visibility: 'share-link' });
    expect((await r.read(site.url)).status).toBe(404);
    expect((await r.read(`${site.url}?share=wrong`)).status).toBe(404);
    const { shareKey } = await keys(site.id);
    // The URLs the API gives with shareKey carry it, and open the site.
    const shared = (await r.published(site.id, `?shareKey=${shareKey}`)).site.urls.published;
    const opened = await r.read(shared);
    expect(opened.status).toBe(200);
    const cookie = opened.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(new RegExp(`^dp_share=${shareKey}; Path=${new URL(site.url).pathname}; HttpOnly; SameSite=Lax`));
    expect((await r.read(site.url, { headers: { cookie: `dp_share=${shareKey}` } })).status).toBe(200);
    expect(await r.page(site.url, { headers: { cookie: `dp_share=${shareKey}` } })).toContain('noindex');
    const rotated = r.ok(await h().owner.post(`${r.site(site.id)}/reader-keys/rotate`, { key: 'share' }));
    expect(rotated.shareKey).not.toBe(shareKey);
    expect((await r.read(site.url, { headers: { cookie: `dp_share=${shareKey}` } })).status).toBe(404);
    expect((await r.read(`${site.url}?share=${rotated.shareKey}`)).status).toBe(200);
  });

  it('answers 401 with a page that says so for a visitor-auth site without a valid visitor token', async () => {
    const site = await siteOf({ visibility: 'visitor-auth' });
    const denied = await r.read(site.url);
    expect(denied.status).toBe(401);
    expect(denied.text).toContain('open only to authenticated visitors');
    const { visitorAuthKey } = await keys(site.id);
    expect((await r.read(`${site.url}?jwt_token=${await token('another key')}`)).status).toBe(401);
    expect((await r.read(`${site.url}?jwt_token=${await token(visitorAuthKey, {}, -60)}`)).status).toBe(401);
    expect((await r.read(`${site.url}?jwt_token=not.a.jwt`)).status).toBe(401);
    const jwt = await token(visitorAuthKey);
    const opened = await r.read(`${site.url}?jwt_token=${jwt}`);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('set-cookie')).toMatch(/^dp_visitor=[\w.-]+; Path=\S+; HttpOnly; SameSite=Lax$/);
    expect((await r.read(site.url, { headers: { cookie: `dp_visitor=${jwt}` } })).status).toBe(200);
    r.ok(await h().owner.post(`${r.site(site.id)}/reader-keys/rotate`, { key: 'visitorAuth' }));
    expect((await r.read(site.url, { headers: { cookie: `dp_visitor=${jwt}` } })).status).toBe(401);
  });

  it(`refuses a visitor token without an exp, or one valid for more than ${MAX_VISITOR_TOKEN_SECONDS / 86_400} days, and keeps no cookie of it`, async () => {
    const site = await siteOf({ visibility: 'visitor-auth' });
    const { visitorAuthKey } = await keys(site.id);
    for (const seconds of [null, MAX_VISITOR_TOKEN_SECONDS + 1, 10 * 365 * 86_400]) {
      const refused = await r.read(`${site.url}?jwt_token=${await token(visitorAuthKey, {}, seconds)}`);
      expect(refused.status, `exp in ${seconds} s`).toBe(401);
      expect(refused.text).toContain('open only to authenticated visitors');
      expect(refused.headers.get('set-cookie')).toBeNull();
    }
    // The longest allowed opens it, until it expires.
    const longest = await token(visitorAuthKey, {}, MAX_VISITOR_TOKEN_SECONDS);
    expect((await r.read(`${site.url}?jwt_token=${longest}`)).status).toBe(200);
    h().clock.advance(MAX_VISITOR_TOKEN_SECONDS * 1000 + 1000);
    expect((await r.read(site.url, { headers: { cookie: `dp_visitor=${longest}` } })).status).toBe(401);
  });

  it('lets only admins read and rotate the reader keys, and refuses an unknown key name', async () => {
    const site = await siteOf({});
    const editor = await h().user('create');
    expect((await editor.get(`${r.site(site.id)}/reader-keys`)).status).toBe(403);
    expect((await editor.post(`${r.site(site.id)}/reader-keys/rotate`, { key: 'share' })).status).toBe(403);
    const before = await keys(site.id);
    const refused = await h().owner.post(`${r.site(site.id)}/reader-keys/rotate`, { key: 'other' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^key: /);
    expect(await keys(site.id)).toEqual(before);
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
    const { shareKey } = await keys(site.id);
    const redirected = await r.read(`${url}/welcome?share=${shareKey}`);
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get('location')).toBe(`${site.url}/welcome?share=${shareKey}`);
    expect(r.heading(await r.page(redirected.headers.get('location')!))).toContain('Welcome');
  });
});
