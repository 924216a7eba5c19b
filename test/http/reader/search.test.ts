import { expect, it } from 'vitest';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** Search over a site space (a results page without script, a fragment for the instant search), sitemap.xml and robots.txt. */
httpSuite('reader search and crawlers', (h) => {
  const r = readerHelpers(h);

  it('searches the site space and links each hit to its published URL', async () => {
    const site = await r.publishedSite([
      { title: 'Welcome', document: { markdown: 'Hello.\n' } },
      { title: 'Install', document: { markdown: 'Intro.\n\n## Requirements\n\nYou need a kettle to brew tea.\n' } },
      { title: 'Kettle internals', noIndex: true, document: { markdown: 'How the kettle works inside.\n' } },
    ]);
    const html = await r.page(`${site.url}/~search?q=kettle`);
    // The page marked noIndex is left out of the results and of their count.
    const results = html.slice(html.indexOf('<div class="results">'));
    expect(results).toContain('1 result for “kettle”');
    expect(r.hrefs(results)).not.toContain(`${site.url}/kettle-internals`);
    expect(r.hrefs(html)).toContain(`${site.url}/install`);
    expect(r.hrefs(html)).toContain(`${site.url}/install#requirements`);
    expect(html).toContain('value="kettle"');
    const fragment = await r.read(`${site.url}/~search?q=kettle&fragment=1`);
    expect(fragment.status).toBe(200);
    expect(fragment.text.startsWith('<div class="results">')).toBe(true);
    expect(fragment.headers.get('content-security-policy')).toBe("default-src 'none'; base-uri 'none'; frame-ancestors 'self'");
    expect(await r.page(`${site.url}/~search?q=nothingmatches`)).toContain('No results for “nothingmatches”');
    expect(await r.page(`${site.url}/~search`)).toContain('Type some words to search.');
  });

  it('gives a public site a sitemap of its indexable pages and a robots.txt pointing at it; others ask not to be crawled', async () => {
    const site = await r.publishedSite([
      { title: 'Welcome', document: { markdown: 'Hello.\n' } },
      { title: 'Private notes', hidden: true, document: { markdown: 'Hidden.\n' } },
      { title: 'Not for robots', noRobotsIndex: true, document: { markdown: 'Nope.\n' } },
    ]);
    const sitemap = await r.read(`${site.url}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect([...sitemap.text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1])).toEqual([`${site.url}/welcome`]);
    expect(await r.page(`${site.url}/not-for-robots`)).toContain('<meta name="robots" content="noindex">');
    const robots = await r.read(`${site.url}/robots.txt`);
    expect(robots.text).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${site.url}/sitemap.xml\n# LLMs: ${site.url}/llms.txt\n# LLMs: ${site.url}/llms-full.txt\n`);
    r.ok(await h().owner.patch(r.site(site.id), { visibility: 'unlisted' }));
    expect((await r.read(`${site.url}/robots.txt`)).text).toBe('User-agent: *\nDisallow: /\n');
    expect((await r.read(`${site.url}/sitemap.xml`)).status).toBe(404);
  });
});
