import { expect, it } from 'vitest';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/**
 * The reader's layout around a page: `lang` and `dir` from the space's language (else the site's locale),
 * the skip link, the menu button that shows the page tree on a phone, breadcrumbs, the last-updated date,
 * and regions that scroll (code, tables) that a keyboard can reach.
 */
httpSuite('reader layout', (h) => {
  const r = readerHelpers(h);
  const htmlTag = (text: string) => /<html[^>]*>/.exec(text)?.[0];
  const breadcrumbs = (text: string) => /<nav class="breadcrumbs"[^>]*>([\s\S]*?)<\/nav>/.exec(text)?.[1];
  const lastUpdated = (text: string) => /<p class="last-updated">[^<]*<time datetime="([^"]+)">([^<]+)<\/time><\/p>/.exec(text);

  it("gives pages lang and dir from the space's language, else from the site's locale, and the reader's words from the locale", async () => {
    const site = await r.publishedSite([{ title: 'Welcome', document: { markdown: 'Hello.\n' } }]);
    expect(htmlTag(await r.page(site.url))).toBe('<html lang="en" dir="ltr">');
    await r.customize(site.id, (settings) => (settings.internationalization.locale = 'de'));
    expect(htmlTag(await r.page(site.url))).toBe('<html lang="de" dir="ltr">');
    r.ok(await h().owner.patch(`/v1/spaces/${site.space}`, { language: 'ar' }));
    const arabic = await r.page(site.url);
    expect(htmlTag(arabic)).toBe('<html lang="ar" dir="rtl">');
    // The reader's own words stay the locale's.
    expect(arabic).toContain('Zum Inhalt springen');
    expect(arabic).toContain('Zuletzt aktualisiert');
    // Its 404 and search pages are the space's too; a space's own URL as well.
    const missing = await r.read(`${site.url}/nowhere`);
    expect(missing.status).toBe(404);
    expect(htmlTag(missing.text)).toBe('<html lang="ar" dir="rtl">');
    expect(htmlTag(await r.page(`${site.url}/~search?q=hello`))).toBe('<html lang="ar" dir="rtl">');
    r.ok(await h().owner.patch(`/v1/spaces/${site.space}`, { language: 'he' }));
    expect(htmlTag(await r.page(site.url))).toBe('<html lang="he" dir="rtl">');
    r.ok(await h().owner.patch(`/v1/spaces/${site.space}`, { language: 'ja' }));
    expect(htmlTag(await r.page(site.url))).toBe('<html lang="ja" dir="ltr">');
    const alone = await r.spaceWith('Alone', [{ title: 'Solo', document: { markdown: 'Solo.\n' } }]);
    r.ok(await h().owner.patch(`/v1/spaces/${alone}`, { language: 'ar' }));
    const space = r.ok(await h().owner.get(`/v1/spaces/${alone}`));
    expect(htmlTag(await r.page(space.urls.published))).toBe('<html lang="ar" dir="rtl">');
  });

  it("gives a visitor-auth site's 401 page the locale's lang, a skip link, and no menu", async () => {
    const site = await r.publishedSite([{ title: 'Welcome', document: { markdown: 'Hello.\n' } }], { visibility: 'visitor-auth' });
    r.ok(await h().owner.patch(`/v1/spaces/${site.space}`, { language: 'ar' }));
    await r.customize(site.id, (settings) => (settings.internationalization.locale = 'fr'));
    const refused = await r.read(site.url);
    expect(refused.status).toBe(401);
    // Nothing of the site's content is shown, its language neither.
    expect(htmlTag(refused.text)).toBe('<html lang="fr" dir="ltr">');
    expect(refused.text).toContain('<a class="skip-link" href="#content">Aller au contenu</a>');
    expect(refused.text).not.toContain('id="menu-toggle"');
  });

  it('starts with a skip link to the content and has a menu button for the page tree that needs no script', async () => {
    const site = await r.publishedSite([
      { title: 'Welcome', document: { markdown: 'Hello.\n' } },
      { title: 'Setup', document: { markdown: 'Steps.\n' } },
    ]);
    const html = await r.page(site.url);
    const body = html.slice(html.indexOf('<body>') + '<body>'.length).trimStart();
    expect(body.startsWith('<a class="skip-link" href="#content">Skip to content</a>')).toBe(true);
    expect(html).toContain('<main id="content">');
    // The checkbox comes before the header and the layout, whose tree it shows (the style sheet's ~ rules); its label is in the header.
    const toggle = html.indexOf('<input type="checkbox" id="menu-toggle" class="menu-toggle">');
    expect(toggle).toBeGreaterThan(0);
    expect(toggle).toBeLessThan(html.indexOf('<header class="site">'));
    expect(html).toMatch(/<header class="site">[\s\S]*<label for="menu-toggle" class="menu-button"><span aria-hidden="true">☰<\/span> Menu<\/label>[\s\S]*<\/header>/);
    expect(html.indexOf('<aside class="tree"')).toBeGreaterThan(toggle);
    expect(html).toContain('.menu-toggle:checked~.layout aside.tree{display:block}');
    // A page that hides its table of contents has no tree, and so no menu.
    await r.write(site.space, [{ operation: 'insert_page', title: 'Bare', layout: { tableOfContents: false }, document: { markdown: 'Bare.\n' } }]);
    const bare = await r.page(`${site.url}/bare`);
    expect(bare).not.toContain('id="menu-toggle"');
    expect(bare).toContain('class="skip-link"');
  });

  it('shows breadcrumbs from the group and ancestors of a page, linking the pages, and none on a top-level page', async () => {
    const site = await r.publishedSite([
      { type: 'group', ref: 'guides', title: 'Guides' },
      { title: 'Install', ref: 'install', into: 'guides', document: { markdown: 'Install.\n' } },
      { title: 'On <Linux>', ref: 'linux', into: 'install', document: { markdown: 'Linux.\n' } },
      { title: 'Debian', into: 'linux', document: { markdown: 'Debian.\n' } },
      { title: 'About', document: { markdown: 'About.\n' } },
    ]);
    const paths = new Map<string, string>();
    const walk = (list: { title: string; path: string; pages?: unknown[] }[]) => {
      for (const page of list) {
        paths.set(page.title, `${site.url}/${page.path}`);
        walk((page.pages ?? []) as never);
      }
    };
    walk(r.ok(await h().owner.get(`/v1/spaces/${site.space}/content/pages`)).pages);
    const html = await r.page(paths.get('Debian')!);
    expect(html).toContain('<nav class="breadcrumbs" aria-label="Breadcrumbs">');
    expect(breadcrumbs(html)).toBe(
      `<ol><li>Guides</li><li><a href="${paths.get('Install')}">Install</a></li><li><a href="${paths.get('On <Linux>')}">On &lt;Linux&gt;</a></li></ol>`,
    );
    expect(breadcrumbs(await r.page(paths.get('Install')!))).toBe('<ol><li>Guides</li></ol>');
    expect(breadcrumbs(await r.page(paths.get('About')!))).toBeUndefined();
  });

  it("dates each page by its own last change, as the locale writes it, unless its layout hides metadata", async () => {
    const site = await r.publishedSite([
      { title: 'Welcome', document: { markdown: 'Hello.\n' } },
      { title: 'Setup', document: { markdown: 'Steps.\n' } },
    ]);
    const pages = r.ok(await h().owner.get(`/v1/spaces/${site.space}/content/pages`)).pages as { id: string; title: string }[];
    const [welcome, setup] = pages;
    const first = lastUpdated(await r.page(site.url));
    expect(first?.[1]).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(first?.[2]).toBe(new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(first![1])));
    // A change to another page leaves this one's date; a change to its body moves it.
    h().clock.advance(3 * 86_400_000);
    await r.write(site.space, [{ operation: 'update_page', page: setup.id, document: { markdown: 'More steps.\n' } }]);
    expect(lastUpdated(await r.page(site.url))?.[1]).toBe(first![1]);
    const moved = lastUpdated(await r.page(`${site.url}/setup`));
    expect(Date.parse(moved![1]) - Date.parse(first![1])).toBeGreaterThanOrEqual(3 * 86_400_000);
    await r.customize(site.id, (settings) => (settings.internationalization.locale = 'fr'));
    const french = lastUpdated(await r.page(site.url));
    expect(french?.[0]).toContain('Dernière mise à jour');
    expect(french?.[2]).toBe(new Intl.DateTimeFormat('fr', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(first![1])));
    await r.write(site.space, [{ operation: 'update_page', page: welcome.id, layout: { metadata: false } }]);
    expect(lastUpdated(await r.page(site.url))).toBeNull();
  });

  it('lets a keyboard reach code blocks and tables that scroll: focusable regions with a label', async () => {
    const site = await r.publishedSite([
      { title: 'Code', document: { markdown: '```js\nconst x = 1;\n```\n\n```\nplain\n```\n\n| a | b |\n| - | - |\n| 1 | 2 |\n' } },
    ]);
    const html = await r.page(site.url);
    expect(html).toContain('<pre class="code" tabindex="0" role="region" aria-label="Code: js"><code class="hljs language-js">');
    expect(html).toContain('<pre class="code" tabindex="0" role="region" aria-label="Code"><code class="hljs">');
    expect(html).toContain('<div class="table" tabindex="0" role="region" aria-label="Table"><table>');
  });
});
