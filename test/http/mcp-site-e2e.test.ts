import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { expect, it } from 'vitest';
import { createSiteMcpServer } from '../../src/mcp.js';
import { httpSuite } from './harness.js';
import { connectMcp } from './mcp-client.js';
import { readerHelpers } from './reader/reader-helpers.js';

/** An agent on both servers: it writes and publishes through the author server, then finds and reads the page through the site's. */
httpSuite('site MCP server, end to end', (h) => {
  const r = readerHelpers(h);

  it('opens a change request, adds a page, merges and publishes through /mcp; the site server finds the page and reads it as Markdown', async () => {
    const spaceId = await r.spaceWith('Guide', [{ title: 'Welcome', document: { markdown: 'Hello.\n' } }]);
    const site = await r.createSite({ title: 'Handbook', spaces: [spaceId] });
    const author = await connectMcp(h(), h().owner.token);
    try {
      const changeRequestId = (await author.ok('open_change_request', { spaceId, subject: 'Add the parrot guide' })).id;
      await author.ok('edit_pages', { spaceId, changeRequestId, changes: [{ operation: 'insert_page', title: 'Parrots', markdown: 'Feed the **parrot** twice a day.' }] });
      await author.ok('merge_change_request', { spaceId, changeRequestId });
      await author.ok('publish_site', { organizationId: h().organizationId, siteId: site.id });
    } finally {
      await author.close();
    }
    const url = (await r.published(site.id)).site.urls.published as string;
    const reader = await connectMcp(h(), null, `${new URL(url).pathname}/~mcp`);
    try {
      const { hits } = await reader.ok('search', { query: 'parrot' });
      expect(hits.map((hit: any) => [hit.title, hit.url])).toEqual([['Parrots', `${url}/parrots`]]);
      const page = await reader.ok('get_page', { page: hits[0].url });
      expect(page.markdown).toBe('# Parrots\n\nFeed the **parrot** twice a day.\n');
      expect((await r.read(hits[0].markdownUrl)).text).toBe(page.markdown);
    } finally {
      await reader.close();
    }
  });

  it('serves the same server to an app that embeds the library, over a transport of its own', async () => {
    const site = await r.publishedSite([{ title: 'Parrots', document: { markdown: 'Feed the parrot.\n' } }], { visibility: 'share-link' });
    const link = await r.shareLink(site.id);
    const connect = async (share?: string) => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const server = createSiteMcpServer(h().platform, { site: { organizationId: h().organizationId, name: site.id }, ...(share !== undefined && { share }) });
      await server.connect(serverSide);
      const client = new Client({ name: 'embedded', version: '1.0.0' });
      await client.connect(clientSide);
      return client;
    };
    const keyed = await connect(link.key);
    const read = await keyed.callTool({ name: 'get_page', arguments: { page: 'parrots' } });
    expect((read.structuredContent as any).markdown).toBe('# Parrots\n\nFeed the parrot.\n');
    await keyed.close();
    const stranger = await connect();
    const refused = await stranger.callTool({ name: 'list_pages', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toEqual({ error: { code: 404, message: 'There is no published site here' } });
    await stranger.close();
  });
});
