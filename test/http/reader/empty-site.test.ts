import { expect, it } from 'vitest';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** A published site with nothing to read says why, in its own layout, with a 404: no spaces, only private ones, none for this visitor, no pages. */
httpSuite('reader empty sites', (h) => {
  const r = readerHelpers(h);

  /** Reads a URL that must be a 404 in the site's layout, marked noindex, and returns its title. */
  async function emptyPage(url: string, options = {}): Promise<string | undefined> {
    const response = await r.read(url, options);
    expect(response.status, url).toBe(404);
    expect(response.text).toContain('<meta name="robots" content="noindex">');
    expect(response.text).toContain('>Handbook</a>');
    expect(response.text).not.toContain('Page not found');
    return r.heading(response.text);
  }

  it('says a site shows no space yet, at its URL and under it', async () => {
    const created = await r.createSite({ title: 'Handbook' });
    await r.publish(created.id);
    const url = (await r.published(created.id)).site.urls.published as string;
    expect(await emptyPage(url)).toBe('Nothing published yet');
    expect(await emptyPage(`${url}/some/page`)).toBe('Nothing published yet');
  });

  it('says every space of a site is private, and reads it once one is not; in the locale of the site', async () => {
    const space = await r.spaceWith('Guide', [{ title: 'Welcome', document: { markdown: 'Hello.\n' } }], 'private');
    const created = await r.createSite({ title: 'Handbook', spaces: [space] });
    await r.publish(created.id);
    const url = (await r.published(created.id)).site.urls.published as string;
    const page = await r.read(url);
    expect(await emptyPage(url)).toBe('This site’s content is private');
    expect(page.text).toContain('Every space this site shows is private');
    await r.customize(created.id, (settings) => (settings.internationalization.locale = 'fr'));
    expect(await emptyPage(url)).toBe('Le contenu de ce site est privé');
    r.ok(await h().owner.patch(`/v1/spaces/${space}`, { visibility: 'public' }));
    expect(r.heading(await r.page(url))).toBe('Welcome');
  });

  it('says none of the sections is shown to a visitor whose claims leave them all out', async () => {
    const space = await r.spaceWith('Beta', [{ title: 'Beta features', document: { markdown: 'For beta users.\n' } }]);
    const created = await r.createSite({ title: 'Handbook' });
    await r.setSchema(created.id);
    const section = await r.addSection(created.id, space, 'Beta');
    r.ok(await h().owner.patch(`${r.site(created.id)}/sections/${section.id}`, { condition: 'visitor.claims.isBeta' }));
    await r.publish(created.id);
    const url = (await r.published(created.id)).site.urls.published as string;
    expect(await emptyPage(url)).toBe('Nothing to read here for you');
    const token = await r.token(await r.privateKey(created.id), { isBeta: true });
    expect(r.heading(await r.page(`${url}?jwt_token=${token}`))).toBe('Beta features');
  });

  it('says a site space has no pages yet; a path under it is still an ordinary 404', async () => {
    const space = await r.spaceWith('Guide', []);
    const created = await r.createSite({ title: 'Handbook', spaces: [space] });
    await r.publish(created.id);
    const url = (await r.published(created.id)).site.urls.published as string;
    expect(await emptyPage(url)).toBe('No pages yet');
    const missing = await r.read(`${url}/nothing-here`);
    expect([missing.status, r.heading(missing.text)]).toEqual([404, 'Page not found']);
  });
});
