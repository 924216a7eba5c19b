import { expect, it } from 'vitest';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** llms.txt and llms-full.txt of a published site and of its sections: content, links, visibility and caching. */
httpSuite('reader llms.txt', (h) => {
  const r = readerHelpers(h);

  /** Reads a text that must answer 200 as text/plain; answers it. */
  async function text(url: string, options = {}): Promise<string> {
    const response = await r.read(url, options);
    expect(response.status, `${url}: ${response.text.slice(0, 300)}`).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    return response.text;
  }

  /** A site with two sections: Guides (two site spaces, a page group, a hidden and a nested page) and API. */
  async function handbook() {
    const guide = await r.spaceWith('Guide', [
      { title: 'Welcome', ref: 'welcome', description: 'Start here', document: { markdown: 'Read the [setup](./setup).\n' } },
      { title: 'Setup', ref: 'setup', document: { markdown: 'Install it.\n' } },
      { title: 'Deep', into: 'setup', document: { markdown: 'Deeper.\n' } },
      { title: 'Secret', hidden: true, document: { markdown: 'Hidden but readable.\n' } },
      { title: 'Extras', type: 'group', ref: 'extras' },
      { title: 'FAQ', into: 'extras', description: 'Questions [and] answers', document: { markdown: 'Ask.\n' } },
    ]);
    const v2 = await r.spaceWith('Guide v2', [{ title: 'New welcome', document: { markdown: 'Version two.\n' } }]);
    const api = await r.spaceWith('API', [{ title: 'Reference', document: { markdown: 'Endpoints.\n' } }]);
    const created = await r.createSite({ title: 'Handbook' });
    const section = await r.addSection(created.id, guide, 'Guides');
    await r.addSiteSpace(created.id, v2, section.id);
    await r.addSection(created.id, api, 'API');
    await r.publish(created.id);
    const published = await r.published(created.id);
    const [guides, apiSection] = published.structure.structure;
    return { id: created.id as string, url: published.site.urls.published as string, guides: guides.urls.published as string, v2: guides.siteSpaces[1].urls.published as string, api: apiSection.urls.published as string };
  }

  it('lists every page of the site with its .md URL and description, one ## per section, site space and page group', async () => {
    const site = await handbook();
    const index = await text(`${site.url}/llms.txt`);
    expect(index).toBe(
      [
        '# Handbook',
        '',
        '> Start here',
        '',
        `Each page is Markdown at its URL plus \`.md\`. All pages in one file: ${site.url}/llms-full.txt. An MCP server to search and read this site: ${site.url}/~mcp.`,
        '',
        '## Guides › Guide',
        '',
        `- [Welcome](${site.guides}/welcome.md): Start here`,
        `- [Setup](${site.guides}/setup.md)`,
        `- [Deep](${site.guides}/setup/deep.md)`,
        `- [Secret](${site.guides}/secret.md)`,
        '',
        '## Guides › Guide › Extras',
        '',
        `- [FAQ](${site.guides}/extras/faq.md): Questions [and] answers`,
        '',
        '## Guides › Guide v2',
        '',
        `- [New welcome](${site.v2}/new-welcome.md)`,
        '',
        '## API',
        '',
        `- [Reference](${site.api}/reference.md)`,
        '',
      ].join('\n'),
    );
    // Every URL it lists answers the page's Markdown.
    for (const [, url] of index.matchAll(/\]\((http[^)]+\.md)\)/g)) expect((await r.read(url)).status, url).toBe(200);
    // A section's own index lists its pages only.
    const apiIndex = await text(`${site.api}/llms.txt`);
    expect(apiIndex).toContain('# Handbook › API\n');
    expect(apiIndex).toContain(`All pages in one file: ${site.api}/llms-full.txt.`);
    expect(apiIndex).toContain(`- [Reference](${site.api}/reference.md)`);
    expect(apiIndex).not.toContain('Welcome');
  });

  it('holds every page\'s Markdown in llms-full.txt, in tree order, hidden pages included', async () => {
    const site = await handbook();
    const full = await text(`${site.url}/llms-full.txt`);
    const titles = [...full.matchAll(/^# (.+)$/gm)].map((match) => match[1]);
    expect(titles).toEqual(['Handbook', 'Welcome', 'Setup', 'Deep', 'Secret', 'FAQ', 'New welcome', 'Reference']);
    expect(full).toContain(`# Welcome\n\nStart here\n\nRead the [setup](${site.guides}/setup.md).\n\n# Setup\n\nInstall it.\n`);
    expect(full).toContain('# Secret\n\nHidden but readable.\n');
    expect(full.endsWith('# Reference\n\nEndpoints.\n')).toBe(true);
    const apiFull = await text(`${site.api}/llms-full.txt`);
    expect([...apiFull.matchAll(/^# (.+)$/gm)].map((match) => match[1])).toEqual(['Handbook › API', 'Reference']);
  });

  it('answers a conditional request with 304 until the content changes; robots.txt names both files', async () => {
    const site = await r.publishedSite([{ title: 'Welcome', document: { markdown: 'First.\n' } }]);
    for (const name of ['llms.txt', 'llms-full.txt']) {
      const first = await r.read(`${site.url}/${name}`);
      const etag = first.headers.get('etag')!;
      expect(first.headers.get('cache-control')).toBe('public, no-cache');
      expect(first.headers.get('x-robots-tag')).toBeNull();
      expect((await r.read(`${site.url}/${name}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    }
    const etag = (await r.read(`${site.url}/llms-full.txt`)).headers.get('etag')!;
    const pageId = r.ok(await h().owner.get(`/v1/spaces/${site.space}/content`)).pages[0].id;
    await r.write(site.space, [{ operation: 'update_page', page: pageId, document: { markdown: 'Second.\n' } }]);
    const changed = await r.read(`${site.url}/llms-full.txt`, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('# Welcome\n\nSecond.\n');
    const robots = await text(`${site.url}/robots.txt`);
    expect(robots).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${site.url}/sitemap.xml\n# LLMs: ${site.url}/llms.txt\n# LLMs: ${site.url}/llms-full.txt\n`);
  });

  it('refuses llms.txt as a page slug, and answers 404 under a path that is no site or section', async () => {
    const site = await r.publishedSite([{ title: 'Welcome', document: { markdown: 'Hi.\n' } }]);
    const request = r.ok(await h().owner.post(`/v1/spaces/${site.space}/change-requests`, {}), 201);
    const refused = await h().owner.post(`/v1/spaces/${site.space}/change-requests/${request.id}/content`, {
      changes: [{ operation: 'insert_page', title: 'A page', slug: 'llms.txt', document: { markdown: 'A page called llms.txt.\n' } }],
    });
    expect(refused.status).toBe(400);
    expect(await text(`${site.url}/llms.txt`)).toContain('[Welcome]');
    expect((await r.read(`${site.url}/welcome/llms.txt`)).status).toBe(404);
    expect((await r.read(`${site.url}/no/such/llms-full.txt`)).status).toBe(404);
  });

  it('keeps the visibility of the site: share links, visitor tokens and adaptive conditions', async () => {
    const shared = await r.publishedSite([{ title: 'Secret', document: { markdown: 'Shared.\n' } }], { visibility: 'share-link' });
    expect((await r.read(`${shared.url}/llms.txt`)).status).toBe(404);
    const link = await r.shareLink(shared.id);
    const withKey = await r.read(`${shared.url}/llms-full.txt?share=${link.key}`);
    expect(withKey.text).toContain('# Secret\n\nShared.\n');
    expect(withKey.headers.get('cache-control')).toBe('private, no-cache');
    expect(withKey.headers.get('x-robots-tag')).toBe('noindex');
    expect(await text(`${shared.url}/llms.txt`, { headers: { cookie: withKey.headers.get('set-cookie')!.split(';')[0] } })).toContain('[Secret]');

    const guarded = await r.publishedSite([{ title: 'Members', document: { markdown: 'Inside.\n' } }], { visibility: 'visitor-auth' });
    expect((await r.read(`${guarded.url}/llms.txt`)).status).toBe(401);
    const token = await r.token(await r.privateKey(guarded.id));
    expect(await text(`${guarded.url}/llms.txt?jwt_token=${token}`)).toContain('[Members]');

    const { url, betaToken } = await r.betaSite();
    expect(await text(`${url}/llms-full.txt`)).not.toContain('Beta page');
    expect(await text(`${url}/llms-full.txt?jwt_token=${betaToken}`)).toContain('# Beta page\n\nFor beta users.\n');
  });
});
