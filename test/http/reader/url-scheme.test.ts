import { expect, it } from 'vitest';
import { expectRefusals } from '../bad-input.js';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/**
 * The reader's URL scheme (core/sites/urls.ts): a page whose path begins with a segment a section or a site
 * space has is linked under a URL that spells out the segment its site space would leave out, its old URL
 * leads there, and no section, site space or page may take one of the reader's own names.
 */
httpSuite('reader URL scheme', (h) => {
  const r = readerHelpers(h);

  /** Follows every link of a document under `base` and returns the title each answers with. */
  async function titlesOfLinks(html: string, base: string): Promise<Map<string, string | undefined>> {
    const titles = new Map<string, string | undefined>();
    for (const href of r.hrefs(html)) {
      if (!href.startsWith(`${base}/`) || href.includes('/~search') || href.includes('#') || titles.has(href)) continue;
      titles.set(href, r.heading(await r.page(href)));
    }
    return titles;
  }

  it('links a page group named like its default section, and a page named like a variant, where they open', async () => {
    const handbook = await r.spaceWith('Handbook', [
      { title: 'Welcome', document: { markdown: 'Hello.\n' } },
      { ref: 'g', type: 'group', title: 'Guides' },
      { title: 'Install', into: 'g', document: { markdown: 'Put the kettle on.\n' } },
      { title: 'Usage', into: 'g', document: { markdown: 'Pour.\n' } },
      { title: 'V2', document: { markdown: 'The second version, as a page.\n' } },
    ]);
    const v2 = await r.spaceWith('V2', [{ title: 'Version two', document: { markdown: 'Newer.\n' } }]);
    const reference = await r.spaceWith('Reference', [{ title: 'Endpoints', document: { markdown: 'GET /tea\n' } }]);
    const other = await r.spaceWith('Reference', [{ title: 'Reference variant', document: { markdown: 'Also reference.\n' } }]);
    const created = await r.createSite({ title: 'Docs' });
    const guides = await r.addSection(created.id, handbook, 'Guides');
    await r.addSiteSpace(created.id, v2, guides.id);
    // A variant of the default section whose path ("reference") is the path of another section.
    await r.addSiteSpace(created.id, other, guides.id);
    const section = await r.addSection(created.id, reference, 'Reference');
    expect([guides.path, section.path]).toEqual(['guides', 'reference']);
    await r.publish(created.id);
    const published = await r.published(created.id);
    const base = published.site.urls.published as string;
    const [ssHandbook, ssV2, ssOther] = published.structure.structure[0].siteSpaces;
    expect(ssV2.urls.published).toBe(`${base}/v2`);
    // Spelled out with its section: "/reference" is the other section.
    expect(ssOther.urls.published).toBe(`${base}/guides/reference`);
    expect(published.structure.structure[1].urls.published).toBe(`${base}/reference`);
    expect(r.heading(await r.page(ssOther.urls.published))).toBe('Reference variant');
    expect(r.heading(await r.page(`${base}/reference`))).toBe('Endpoints');
    expect(ssHandbook.urls.published).toBe(base);

    const home = await r.page(base);
    const titles = await titlesOfLinks(home, base);
    expect(titles.get(`${base}/guides/guides/install`)).toBe('Install');
    expect(titles.get(`${base}/guides/guides/usage`)).toBe('Usage');
    expect(titles.get(`${base}/handbook/v2`)).toBe('V2');
    expect(titles.get(`${base}/welcome`)).toBe('Welcome');
    for (const [url, title] of titles) expect(title, url).toBeDefined();
    // Previous and next lead there too.
    const install = await r.page(`${base}/guides/guides/install`);
    expect(install).toContain(`rel="next" href="${base}/guides/guides/usage"`);
    expect(install).toContain(`rel="prev" href="${base}/welcome"`);

    // The URLs they had before (the section "reads" them first) lead where they are now.
    for (const [old, now] of [
      [`${base}/guides/install`, `${base}/guides/guides/install`],
      [`${base}/v2/version-two`, undefined],
    ] as const) {
      const response = await r.read(old);
      if (now === undefined) expect(response.status, old).toBe(200);
      else expect([response.status, response.headers.get('location')], old).toEqual([308, now]);
    }
    // A search hit and the sitemap use the new URLs, and every sitemap entry answers.
    expect(r.hrefs(await r.page(`${base}/~search?q=kettle`))).toContain(`${base}/guides/guides/install`);
    const sitemap = (await r.read(`${base}/sitemap.xml`)).text;
    const entries = [...sitemap.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1].replace(/&amp;/g, '&'));
    expect(entries).toContain(`${base}/guides/guides/install`);
    for (const entry of entries) expect((await r.read(entry)).status, entry).toBe(200);
  });

  it('links a page of a site without sections named like a site space under its site space', async () => {
    const main = await r.spaceWith('Main', [
      { title: 'Home', document: { markdown: 'Home.\n' } },
      { title: 'Beta', document: { markdown: 'The beta page.\n' } },
    ]);
    const beta = await r.spaceWith('Beta', [{ title: 'Beta home', document: { markdown: 'Beta.\n' } }]);
    const created = await r.createSite({ title: 'Docs', spaces: [main, beta] });
    await r.publish(created.id);
    const published = await r.published(created.id);
    const base = published.site.urls.published as string;
    const titles = await titlesOfLinks(await r.page(base), base);
    expect(titles.get(`${base}/main/beta`)).toBe('Beta');
    expect(titles.get(`${base}/beta`)).toBe('Beta home');
    // The space's own URL leads to the page where it opens.
    const response = await r.read(`${new URL(base).origin}/published/s/${main}/beta`);
    expect([response.status, response.headers.get('location')]).toEqual([302, `${base}/main/beta`]);
  });

  it("refuses the reader's own names as sections', site spaces' and pages' paths; titles never make one", async () => {
    const space = await r.spaceWith('Handbook', [{ title: 'Sitemap.xml', document: { markdown: 'A page named like a file.\n' } }]);
    const content = r.ok(await h().owner.get(`/v1/spaces/${space}/content`));
    expect(content.pages[0].slug).toBe('sitemap-xml');
    const created = await r.createSite({ title: 'Docs' });
    const section = await r.addSection(created.id, space, 'Guides');
    const siteSpace = section.siteSpaces[0];
    const before = await r.stored();
    const names = ['~search', '~mcp', 'sitemap.xml', 'robots.txt', 'llms.txt', 'LLMS-FULL.TXT', 'Favicon.ico', 'intro.md'];
    const refusals = names.map((path) => [{ path }, /^path: must not/] as [Record<string, string>, RegExp]);
    await expectRefusals((body) => h().owner.patch(`${r.site(created.id)}/sections/${section.id}`, body), refusals);
    await expectRefusals((body) => h().owner.patch(`${r.site(created.id)}/site-spaces/${siteSpace.id}`, body), refusals);
    expect(await r.stored()).toEqual(before);
    const request = r.ok(await h().owner.post(`/v1/spaces/${space}/change-requests`, {}), 201);
    await expectRefusals(
      (slug) => h().owner.post(`/v1/spaces/${space}/change-requests/${request.id}/content`, { changes: [{ operation: 'insert_page', title: 'Page', slug, document: { markdown: 'x\n' } }] }),
      names.map((slug) => [slug, /slug: must not/] as [string, RegExp]),
    );
    // Paths that merely contain the characters stay allowed.
    r.ok(await h().owner.patch(`${r.site(created.id)}/sections/${section.id}`, { path: 'a~b.mdx' }));
  });
});
