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
});
