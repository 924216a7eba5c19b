import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** The reader: a published site's URLs answer its pages in its layout, with navigation, previous and next. */
httpSuite('reader pages', (h) => {
  const r = readerHelpers(h);

  it('serves every published URL of a site with sections and two site spaces', async () => {
    const guide = await r.spaceWith('Guide', [
      { title: 'Welcome', ref: 'welcome', emoji: '👋', description: 'Start here', document: { markdown: 'Read the [setup](/pages/setup).\n\n## Install\n\n```js\nconst x = 1;\n```\n' } },
      { title: 'Setup', ref: 'setup', document: { markdown: 'Install it.\n' } },
    ]);
    const v2 = await r.spaceWith('Guide v2', [{ title: 'New welcome', document: { markdown: 'Version two.\n' } }]);
    const api = await r.spaceWith('API', [{ title: 'Reference', document: { markdown: 'Endpoints.\n' } }]);
    const created = await r.createSite({ title: 'Handbook' });
    const section = await r.addSection(created.id, guide, 'Guides');
    await r.addSiteSpace(created.id, v2, section.id);
    await r.addSection(created.id, api, 'API');
    await r.publish(created.id);
    const published = await r.published(created.id);

    const site = await r.page(published.site.urls.published);
    expect(r.heading(site)).toContain('Welcome');
    expect(site).toContain('👋');
    expect(site).toContain('Start here');
    expect(site).toContain('<span class="hljs-keyword">const</span>');
    expect(site).toMatch(/<h2 id="install"><a class="anchor" href="#install"/);
    const [guides, apiSection] = published.structure.structure;
    expect(r.heading(await r.page(guides.urls.published))).toContain('Welcome');
    expect(r.heading(await r.page(apiSection.urls.published))).toContain('Reference');
    expect(r.heading(await r.page(guides.siteSpaces[1].urls.published))).toContain('New welcome');
    // The body's link to a page leads to its published URL, and next leads there too.
    const setupUrl = `${guides.urls.published}/setup`;
    expect(r.hrefs(site)).toContain(setupUrl);
    expect(site).toMatch(/rel="next" href="[^"]*\/setup"/);
    expect(r.heading(await r.page(setupUrl))).toContain('Setup');
  });

  it('shows images and files through their download URLs, and a broken page link as text', async () => {
    const space = await r.spaceWith('Guide', []);
    const { files } = await r.write(space, [{ operation: 'insert_files', files: [{ name: 'pixel.png', contentType: 'image/png', base64: 'iVBORw0KGgo=' }] }]);
    await r.write(space, [{ operation: 'insert_page', title: 'Pictures', document: { markdown: `![a pixel](/files/${files[0].id}) [download](/files/${files[0].id}) [gone](/pages/nosuchpage)\n` } }]);
    const created = await r.createSite({ title: 'Handbook', spaces: [space] });
    await r.publish(created.id);
    const html = await r.page((await r.published(created.id)).site.urls.published);
    const src = /<img src="([^"]+)" alt="a pixel"/.exec(html)?.[1].replace(/&amp;/g, '&');
    expect(src).toMatch(/\/v1\/downloads\/[^/]+\/pixel\.png$/);
    expect(r.hrefs(html)).toContain(src);
    const image = await h().request('GET', new URL(src!).pathname, { token: null });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(html).toMatch(/download<\/a> gone<\/p>/);
  });

  it('honours a page\'s layout: its cover image when shown, and no title, outline or pagination when hidden', async () => {
    const space = await r.spaceWith('Guide', []);
    const { files } = await r.write(space, [{ operation: 'insert_files', files: [{ name: 'cover.png', contentType: 'image/png', base64: 'iVBORw0KGgo=' }] }]);
    await r.write(space, [
      { operation: 'insert_page', title: 'Covered', cover: { ref: { kind: 'file', file: files[0].id } }, layout: { coverSize: 'full' }, document: { markdown: '## Part\n\nText.\n' } },
      { operation: 'insert_page', title: 'Bare', cover: { ref: { kind: 'url', url: 'https://images.example/c.png' } }, layout: { cover: false, title: false, outline: false, pagination: false }, document: { markdown: '## Part\n\nText.\n' } },
    ]);
    const created = await r.createSite({ title: 'Handbook', spaces: [space] });
    await r.publish(created.id);
    const url = (await r.published(created.id)).site.urls.published;
    const covered = await r.page(url);
    const src = /<figure class="cover cover-full"><img src="([^"]+)"/.exec(covered)?.[1].replace(/&amp;/g, '&');
    expect(src).toMatch(/\/v1\/downloads\/[^/]+\/cover\.png$/);
    expect(covered).toContain('<h1 class="page-title">');
    expect(covered).toContain('class="pagination"');
    const bare = await r.page(`${url}/bare`);
    expect(bare).not.toContain('<figure class="cover');
    expect(bare).not.toContain('images.example');
    expect(bare).not.toContain('<h1 class="page-title">');
    expect(bare).not.toContain('class="outline"');
    expect(bare).not.toContain('class="pagination"');
  });

  it('allows exactly its own inline script and style by their hashes', async () => {
    const site = await r.publishedSite([{ title: 'Welcome', document: { markdown: 'Hi.\n' } }]);
    const response = await r.read(site.url);
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const script = /<script>([\s\S]*?)<\/script>/.exec(response.text)![1];
    const style = /<style>([\s\S]*?)<\/style>/.exec(response.text)![1];
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain(`script-src ${hash(script)};`);
    expect(csp).toContain(`style-src ${hash(style)};`);
    expect(csp).toMatch(/^default-src 'none';/);
    // One small script: instant search, menus, the outline that follows, and code blocks' copy buttons.
    expect(Buffer.byteLength(script)).toBeLessThan(2304);
  });
});
