import { expect, it } from 'vitest';
import { DEFAULT_FAVICON_SVG } from '../../../src/reader/favicon.js';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** A favicon at favicon.ico of every site, of its hostname and of the server, and linked from every page: the customization's, or a small default. */
httpSuite('reader favicon', (h) => {
  const r = readerHelpers(h);
  const pages = [{ title: 'Welcome', document: { markdown: 'Hi.\n' } }];
  /** The <link rel="icon"> tags of a document. */
  const icons = (text: string) => [...text.matchAll(/<link rel="icon"[^>]*>/g)].map((match) => match[0]);

  /** GETs a favicon.ico as sent: its status, type, Location and body. */
  async function favicon(path: string, host?: string) {
    const response = host ? await h().sendToHost(host, path) : await h().send(path, { redirect: 'manual' });
    return { status: response.status, type: response.headers.get('content-type'), location: response.headers.get('location'), text: await response.text() };
  }

  it('answers the default at the server root, at a site without one, and links it from every page', async () => {
    const site = await r.publishedSite(pages);
    const path = new URL(site.url).pathname;
    for (const at of ['/favicon.ico', `${path}/favicon.ico`]) {
      const icon = await favicon(at);
      expect([icon.status, icon.type, icon.text], at).toEqual([200, 'image/svg+xml', DEFAULT_FAVICON_SVG]);
    }
    // Pages link the site's favicon.ico by its URL (no page links a data: URL the site did not choose).
    const link = `<link rel="icon" href="${site.url}/favicon.ico" type="image/svg+xml">`;
    expect(icons(await r.page(site.url))).toEqual([link]);
    expect(icons((await r.read(`${site.url}/nowhere`)).text)).toEqual([link]);
    // A page outside any site links none: the browser asks the host's /favicon.ico.
    expect(icons((await h().request('GET', '/published/x', { token: null })).text)).toEqual([]);
    expect((await h().request('POST', '/favicon.ico', { token: null })).status).toBe(404);
  });

  it("answers the customization's emoji as an SVG and its image by a redirect, at the site's path and its hostname", async () => {
    const site = await r.publishedSite(pages);
    r.ok(await h().owner.patch(r.site(site.id), { hostname: 'docs.acme.test' }));
    const url = (await r.published(site.id)).site.urls.published as string;
    const path = new URL(site.url).pathname;
    await r.customize(site.id, (settings) => (settings.favicon = { emoji: '1f4d8' }));
    for (const [at, host] of [[`${path}/favicon.ico`], ['/favicon.ico', 'docs.acme.test']]) {
      const icon = await favicon(at!, host);
      expect([icon.status, icon.type], at).toEqual([200, 'image/svg+xml']);
      expect(icon.text).toContain('📘</text></svg>');
    }
    expect(icons(await (await h().sendToHost('docs.acme.test', '/')).text())).toEqual([
      `<link rel="icon" href="data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">📘</text></svg>')}" type="image/svg+xml">`,
    ]);
    await r.customize(site.id, (settings) => (settings.favicon = { icon: { light: 'https://acme.test/light.png', dark: 'https://acme.test/dark.png' } }));
    for (const [at, host] of [[`${path}/favicon.ico`], ['/favicon.ico', 'docs.acme.test']]) {
      const icon = await favicon(at!, host);
      expect([icon.status, icon.location], at).toEqual([302, 'https://acme.test/light.png']);
    }
    expect(url).toBe('https://docs.acme.test');
  });

  it('answers the default for a site the visitor may not know of: a share-link one without its key, or none at all', async () => {
    const site = await r.publishedSite(pages, {}, 'public');
    await r.customize(site.id, (settings) => (settings.favicon = { emoji: '1f4d8' }));
    r.ok(await h().owner.patch(r.site(site.id), { visibility: 'share-link' }));
    const path = new URL(site.url).pathname;
    expect((await favicon(`${path}/favicon.ico`)).text).toBe(DEFAULT_FAVICON_SVG);
    expect((await favicon('/published/o/nobody/nothing/favicon.ico')).text).toBe(DEFAULT_FAVICON_SVG);
    expect((await favicon('/favicon.ico', 'unknown.acme.test')).text).toBe(DEFAULT_FAVICON_SVG);
    // Its pages, to a visitor with the key, link its own.
    const shared = await r.page((await r.shareLink(site.id)).url);
    expect(icons(shared)[0]).toContain(encodeURIComponent('📘'));
    await r.customize(site.id, () => {});
    expect(icons(await r.page((await r.shareLink(site.id, 'Other')).url))).toEqual([`<link rel="icon" href="${site.url}/favicon.ico" type="image/svg+xml">`]);
  });
});
