import { expect, it } from 'vitest';
import { httpSuite } from '../harness.js';
import { connectMcp } from '../mcp-client.js';
import { readerHelpers } from './reader-helpers.js';

/**
 * The texts for AI tools of a share-link site (llms.txt, llms-full.txt, `.md` pages, the site's MCP server)
 * read with a share key: their links carry it, so that an agent, which keeps no cookie, is let in where they
 * lead. A text served without a key names none.
 */
httpSuite('reader AI texts and share keys', (h) => {
  const r = readerHelpers(h);

  /** A share-link site of two pages, the first linking the second, and one of its share links. */
  async function sharedSite() {
    const site = await r.publishedSite(
      [
        { title: 'Welcome', ref: 'welcome', document: { markdown: 'Read the [setup](./setup) and its [steps](./setup#steps).\n' } },
        { title: 'Setup', ref: 'setup', document: { markdown: '## Steps\n\nInstall it.\n' } },
      ],
      { visibility: 'share-link' },
    );
    return { ...site, link: await r.shareLink(site.id) };
  }

  /** The absolute URLs a text names. */
  const urlsIn = (text: string) => [...text.matchAll(/https?:\/\/[^\s)>\]]+?(?=[.]?[\s)>\]]|[.]?$)/gm)].map((match) => match[0]);

  /** Reads a URL with nothing but what it holds (no cookie), and answers its status. */
  const statusOf = async (url: string) => (await r.read(url.split('#')[0])).status;

  it('carries the key in every link of llms.txt, llms-full.txt and a .md page read with it, and each link lets an agent in', async () => {
    const site = await sharedSite();
    const share = `?share=${encodeURIComponent(site.link.key)}`;
    const index = (await r.read(`${site.url}/llms.txt${share}`)).text;
    expect(index).toContain(`- [Welcome](${site.url}/welcome.md${share})`);
    expect(index).toContain(`- [Setup](${site.url}/setup.md${share})`);
    expect(index).toContain(`All pages in one file: ${site.url}/llms-full.txt${share}.`);
    expect(index).toContain(`${site.url}/~mcp${share}.`);
    const full = (await r.read(`${site.url}/llms-full.txt${share}`)).text;
    expect(full).toContain(`Read the [setup](${site.url}/setup.md${share}) and its [steps](${site.url}/setup.md${share}#steps).`);
    const page = (await r.read(`${site.url}/welcome.md${share}`)).text;
    expect(page).toBe(`# Welcome\n\nRead the [setup](${site.url}/setup.md${share}) and its [steps](${site.url}/setup.md${share}#steps).\n`);
    const links = [...urlsIn(index), ...urlsIn(full), ...urlsIn(page)].filter((url) => !url.endsWith('/~mcp' + share));
    expect(links.length).toBeGreaterThan(5);
    for (const url of links) {
      expect(url, url).toContain(share);
      expect(await statusOf(url), url).toBe(200);
    }
  });

  it('carries the key that came in the cookie, and each key its own: an ETag and a kept part are a key\'s alone', async () => {
    const site = await sharedSite();
    const other = await r.shareLink(site.id, 'Partners');
    const first = await r.read(`${site.url}/llms-full.txt?share=${site.link.key}`);
    const cookie = first.headers.get('set-cookie')!.split(';')[0];
    const byCookie = await r.read(`${site.url}/welcome.md`, { headers: { cookie } });
    expect(byCookie.text).toContain(`(${site.url}/setup.md?share=${encodeURIComponent(site.link.key)})`);
    const second = await r.read(`${site.url}/llms-full.txt?share=${other.key}`);
    expect(second.text).toContain(`(${site.url}/setup.md?share=${encodeURIComponent(other.key)})`);
    expect(second.text).not.toContain(site.link.key);
    expect(second.headers.get('etag')).not.toBe(first.headers.get('etag'));
    expect(first.headers.get('etag')).not.toContain(site.link.key);
    expect((await r.read(`${site.url}/llms-full.txt?share=${other.key}`, { headers: { 'if-none-match': first.headers.get('etag')! } })).status).toBe(200);
  });

  it('names no key where none let the visitor in: a public site read with one, and a revoked key', async () => {
    const open = await r.publishedSite([
      { title: 'Welcome', ref: 'welcome', document: { markdown: 'Read the [setup](./setup).\n' } },
      { title: 'Setup', ref: 'setup', document: { markdown: 'Install it.\n' } },
    ]);
    for (const name of ['llms.txt', 'llms-full.txt', 'welcome.md']) {
      const response = await r.read(`${open.url}/${name}?share=guessed`);
      expect(response.status, name).toBe(200);
      expect(response.text, name).not.toContain('share=');
    }
    const site = await sharedSite();
    r.ok(await h().owner.delete(`/v1/orgs/${h().organizationId}/sites/${site.id}/share-links/${site.link.id}`), 205);
    expect((await r.read(`${site.url}/llms.txt?share=${site.link.key}`)).status).toBe(404);
  });

  it('gives URLs that carry the key from the site\'s MCP server reached with one', async () => {
    const site = await sharedSite();
    const share = `?share=${encodeURIComponent(site.link.key)}`;
    const mcp = await connectMcp(h(), null, `${new URL(site.url).pathname}/~mcp${share}`);
    try {
      const page = await mcp.ok('get_page', { page: 'welcome' });
      expect(page).toMatchObject({ url: `${site.url}/welcome${share}`, markdownUrl: `${site.url}/welcome.md${share}` });
      expect(page.markdown).toContain(`(${site.url}/setup.md${share})`);
      const hit = (await mcp.ok('search', { query: 'install' })).hits[0];
      expect(hit).toMatchObject({ url: `${site.url}/setup${share}`, markdownUrl: `${site.url}/setup.md${share}` });
      expect(hit.excerpts.every((excerpt: { url: string }) => excerpt.url.startsWith(`${site.url}/setup${share}`))).toBe(true);
      const structure = await mcp.ok('list_pages');
      expect(structure).toMatchObject({ llms: `${site.url}/llms.txt${share}`, llmsFull: `${site.url}/llms-full.txt${share}` });
      const { resources } = await mcp.client.listResources();
      expect(resources.map((resource) => resource.uri)).toEqual([`${site.url}/welcome.md${share}`, `${site.url}/setup.md${share}`]);
      expect((await mcp.client.readResource({ uri: resources[1].uri })).contents[0]).toMatchObject({ text: '# Setup\n\n## Steps\n\nInstall it.\n' });
      for (const url of [page.url, page.markdownUrl, structure.llms, structure.llmsFull]) expect(await statusOf(url), url).toBe(200);
    } finally {
      await mcp.close();
    }
  });
});
