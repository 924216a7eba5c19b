import { expect, it } from 'vitest';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** A site with a custom hostname: its urls.published is https://<hostname>, and requests that come to that host read it. */
httpSuite('reader at a custom hostname', (h) => {
  const r = readerHelpers(h);

  /** GETs a path as a request that came to `host` (the Host header on node:http, the URL's host through Fetch). */
  async function getAt(host: string, path: string): Promise<{ status: number; text: string; type: string }> {
    const response = await h().sendToHost(host, path);
    return { status: response.status, text: await response.text(), type: response.headers.get('content-type') ?? '' };
  }

  it('serves the site, its pages, robots.txt and sitemap.xml at its hostname, and leaves other hosts and the API alone', async () => {
    const site = await r.publishedSite([{ title: 'Welcome', document: { markdown: 'Hi.\n' } }, { title: 'Setup', document: { markdown: 'Set.\n' } }]);
    r.ok(await h().owner.patch(r.site(site.id), { hostname: 'docs.acme.test' }));
    expect((await r.published(site.id)).site.urls.published).toBe('https://docs.acme.test');
    const home = await getAt('docs.acme.test', '/');
    expect(home.status).toBe(200);
    expect(home.type).toBe('text/html; charset=utf-8');
    expect(home.text).toContain('href="https://docs.acme.test/setup"');
    expect((await getAt('docs.acme.test', '/setup')).text).toContain('<h1 class="page-title">Setup</h1>');
    expect((await getAt('docs.acme.test', '/robots.txt')).text).toBe(
      'User-agent: *\nAllow: /\n\nSitemap: https://docs.acme.test/sitemap.xml\n# LLMs: https://docs.acme.test/llms.txt\n# LLMs: https://docs.acme.test/llms-full.txt\n',
    );
    expect((await getAt('docs.acme.test', '/sitemap.xml')).text).toContain('<loc>https://docs.acme.test/welcome</loc>');
    expect((await getAt('docs.acme.test', '/nothing-here')).status).toBe(404);
    // Another host, and the API's own paths, are the API's: `/` there is the server's landing page.
    const other = await getAt('other.acme.test', '/');
    expect(other.status).toBe(200);
    expect(other.text).toContain('<title>docs-platform ');
    expect(JSON.parse((await getAt('docs.acme.test', '/v1/nothing')).text).error.message).toBe('No endpoint GET /v1/nothing');
    r.ok(await h().owner.post(`${r.site(site.id)}/unpublish`, {}));
    const unpublished = await getAt('docs.acme.test', '/');
    expect(unpublished.text).not.toContain('Welcome');
    expect(unpublished.text).toContain('<title>docs-platform ');
    expect(JSON.parse((await getAt('docs.acme.test', '/setup')).text).error.code).toBe(404);
  });

  it("serves a proxied site at the proxy's target, with links through the proxy", async () => {
    const site = await r.publishedSite([{ title: 'Welcome', document: { markdown: 'Hi.\n' } }, { title: 'Setup', document: { markdown: 'Set.\n' } }]);
    r.ok(await h().owner.patch(r.site(site.id), { proxy: 'www.acme.test/docs' }));
    const { urls, proxy } = (await r.published(site.id)).site;
    expect(urls.published).toBe('https://www.acme.test/docs');
    const response = await r.read(proxy.target);
    expect(r.hrefs(response.text)).toContain('https://www.acme.test/docs/setup');
    // The search box sends its queries through the proxy too, which the CSP allows.
    expect(response.text).toContain('action="https://www.acme.test/docs/~search"');
    expect(response.headers.get('content-security-policy')).toContain("form-action 'self' https://www.acme.test;");
    expect(r.heading(await r.page(`${proxy.target}/setup`))).toBe('Setup');
  });
});
