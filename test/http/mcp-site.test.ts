import { expect, it } from 'vitest';
import { httpSuite } from './harness.js';
import { connectMcp, expectToolError } from './mcp-client.js';
import { readerHelpers } from './reader/reader-helpers.js';

/** The read-only MCP server of every published site, at `<site URL>/~mcp`, through the SDK's client on both adapters. */
httpSuite('site MCP server', (h) => {
  const r = readerHelpers(h);

  /** The path of a site's (or section's) server, with a query. */
  const serverPath = (url: string, query = '') => `${new URL(url).pathname}/~mcp${query}`;

  /** A site with two sections, Guides (Welcome, Setup) and API (Reference). */
  async function handbook() {
    const guide = await r.spaceWith('Guide', [
      { title: 'Welcome', description: 'Start here', document: { markdown: 'Read about kettles.\n\n## Boiling\n\nBoil the kettle.\n' } },
      { title: 'Setup', document: { markdown: 'Put the kettle on.\n' } },
    ]);
    const api = await r.spaceWith('API', [{ title: 'Reference', document: { markdown: 'The kettle endpoint.\n' } }]);
    const created = await r.createSite({ title: 'Handbook' });
    await r.addSection(created.id, guide, 'Guides');
    await r.addSection(created.id, api, 'API');
    await r.publish(created.id);
    const published = await r.published(created.id);
    const [guides, apiSection] = published.structure.structure;
    return { id: created.id as string, url: published.site.urls.published as string, guides: guides.urls.published as string, api: apiSection.urls.published as string };
  }

  it('lists its tools, and calls each: search across sections, get_page by URL and by path, list_pages; pages as resources', async () => {
    const site = await handbook();
    const mcp = await connectMcp(h(), null, serverPath(site.url));
    try {
      const { tools } = await mcp.client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['get_page', 'list_pages', 'search']);
      expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);

      const found = await mcp.ok('search', { query: 'kettle' });
      expect(found.hits.map((hit: any) => hit.title).sort()).toEqual(['Reference', 'Setup', 'Welcome']);
      const welcome = found.hits.find((hit: any) => hit.title === 'Welcome');
      expect(welcome).toMatchObject({ url: `${site.guides}/welcome`, markdownUrl: `${site.guides}/welcome.md`, section: 'Guides' });
      expect(welcome.excerpts.length).toBeGreaterThan(0);
      expect((await mcp.ok('search', { query: 'kettle', limit: 1 })).hits).toHaveLength(1);
      expectToolError(await mcp.call('search', { query: '' }), 400, /^query: /);

      const byUrl = await mcp.ok('get_page', { page: `${site.guides}/welcome` });
      expect(byUrl).toEqual({
        title: 'Welcome',
        url: `${site.guides}/welcome`,
        markdownUrl: `${site.guides}/welcome.md`,
        markdown: '# Welcome\n\nStart here\n\nRead about kettles.\n\n## Boiling\n\nBoil the kettle.\n',
      });
      expect((await mcp.ok('get_page', { page: `${site.guides}/welcome.md` })).markdown).toBe(byUrl.markdown);
      expect((await mcp.ok('get_page', { page: 'api/reference' })).markdown).toBe('# Reference\n\nThe kettle endpoint.\n');
      expect((await mcp.ok('get_page', { page: 'welcome' })).title).toBe('Welcome');
      expectToolError(await mcp.call('get_page', { page: 'no/such/page' }), 404, 'page: no page of this site at no/such/page');
      expectToolError(await mcp.call('get_page', { page: 'https://elsewhere.example/welcome' }), 404, /^page: no page/);

      const structure = await mcp.ok('list_pages');
      expect(structure).toMatchObject({ title: 'Handbook', url: site.url, llms: `${site.url}/llms.txt` });
      expect(structure.sections.map((section: any) => section.title)).toEqual(['Guides', 'API']);
      expect(structure.sections[0].groups[0].pages.map((page: any) => page.markdownUrl)).toEqual([`${site.guides}/welcome.md`, `${site.guides}/setup.md`]);

      const { resources } = await mcp.client.listResources();
      expect(resources.map((resource) => resource.name)).toEqual(['Welcome', 'Setup', 'Reference']);
      const read = await mcp.client.readResource({ uri: resources[2].uri });
      expect(read.contents).toEqual([{ uri: `${site.api}/reference.md`, mimeType: 'text/markdown', text: '# Reference\n\nThe kettle endpoint.\n' }]);
    } finally {
      await mcp.close();
    }
    // A section's server reads that section.
    const section = await connectMcp(h(), null, serverPath(site.api));
    try {
      expect((await section.ok('search', { query: 'kettle' })).hits.map((hit: any) => hit.title)).toEqual(['Reference']);
      expect((await section.ok('get_page', { page: 'reference' })).title).toBe('Reference');
    } finally {
      await section.close();
    }
  });

  it('answers only POST, and leaves other paths ending in ~mcp to the reader', async () => {
    const site = await r.publishedSite([{ title: 'Welcome', document: { markdown: 'Hi.\n' } }]);
    const get = await h().send(serverPath(site.url));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const bad = await h().send(serverPath(site.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'not json' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: { code: 400, message: expect.stringMatching(/JSON-RPC/) } });
    expect((await h().send(`${new URL(site.url).pathname}/welcome/~mcp`, { method: 'POST', body: '{}' })).status).toBe(405);
  });

  it('keeps the site\'s visibility: share-link key, visitor token as bearer (401 with a challenge), conditions', async () => {
    const shared = await r.publishedSite([{ title: 'Secret', document: { markdown: 'Shared.\n' } }], { visibility: 'share-link' });
    await expect(connectMcp(h(), null, serverPath(shared.url))).rejects.toMatchObject({ code: 404 });
    const link = await r.shareLink(shared.id);
    const withKey = await connectMcp(h(), null, serverPath(shared.url, `?share=${link.key}`));
    try {
      expect((await withKey.ok('get_page', { page: 'secret' })).markdown).toBe('# Secret\n\nShared.\n');
    } finally {
      await withKey.close();
    }

    const guarded = await r.publishedSite([{ title: 'Members', document: { markdown: 'Inside.\n' } }], { visibility: 'visitor-auth' });
    const refused = await h().send(serverPath(guarded.url), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="Handbook"');
    await expect(connectMcp(h(), null, serverPath(guarded.url))).rejects.toMatchObject({ code: 401 });
    await expect(connectMcp(h(), await r.token('forged'), serverPath(guarded.url))).rejects.toMatchObject({ code: 401 });
    const token = await r.token(await r.privateKey(guarded.id));
    const member = await connectMcp(h(), token, serverPath(guarded.url));
    try {
      expect((await member.ok('search', { query: 'inside' })).hits.map((hit: any) => hit.title)).toEqual(['Members']);
    } finally {
      await member.close();
    }

    const adaptive = await r.betaSite();
    const anonymous = await connectMcp(h(), null, serverPath(adaptive.url));
    try {
      expect((await anonymous.ok('search', { query: 'beta' })).hits).toEqual([]);
      expectToolError(await anonymous.call('get_page', { page: `${adaptive.betaUrl}/beta-page` }), 404, /^page: no page/);
    } finally {
      await anonymous.close();
    }
    const beta = await connectMcp(h(), adaptive.betaToken, serverPath(adaptive.url));
    try {
      expect((await beta.ok('search', { query: 'beta' })).hits.map((hit: any) => hit.title)).toEqual(['Beta page']);
    } finally {
      await beta.close();
    }
  });
});
