import { expect, it } from 'vitest';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** What a page says of itself in its <head>: its canonical URL, its description, Open Graph and Twitter tags, theme-color. */
httpSuite('reader page metadata', (h) => {
  const r = readerHelpers(h);

  /** The <head> of a document. */
  const head = (text: string) => /<head>([\s\S]*?)<\/head>/.exec(text)?.[1] ?? '';
  /** The content of a <meta> by its name or property, or undefined; every one when `all`. */
  const meta = (text: string, key: string) => [...head(text).matchAll(/<meta (?:name|property)="([^"]+)" content="([^"]*)"[^>]*>/g)].filter((match) => match[1] === key).map((match) => match[2]);
  const canonical = (text: string) => [...head(text).matchAll(/<link rel="canonical" href="([^"]*)">/g)].map((match) => match[1]);

  it('names one canonical URL for a page that several URLs serve, and says it in Open Graph and Twitter tags', async () => {
    const site = await r.publishedSite([
      { title: 'Welcome', ref: 'welcome', description: 'Start "here" <now>', document: { markdown: 'Hello.\n' } },
      { title: 'Setup', ref: 'setup', document: { markdown: 'Steps.\n' } },
    ]);
    const root = await r.page(site.url);
    const own = `${site.url}/welcome`;
    expect(canonical(root)).toEqual([own]);
    expect(canonical(await r.page(own))).toEqual([own]);
    expect(canonical(await r.page(`${site.url}/setup`))).toEqual([`${site.url}/setup`]);
    expect(head(root)).toContain('<meta name="description" content="Start &quot;here&quot; &lt;now&gt;">');
    expect(meta(root, 'og:type')).toEqual(['website']);
    expect(meta(root, 'og:site_name')).toEqual(['Handbook']);
    expect(meta(root, 'og:title')).toEqual(['Welcome']);
    expect(meta(root, 'og:url')).toEqual([own]);
    expect(meta(root, 'og:description')).toEqual(['Start &quot;here&quot; &lt;now&gt;']);
    expect(meta(root, 'twitter:card')).toEqual(['summary']);
    expect(meta(root, 'twitter:title')).toEqual(['Welcome']);
    expect(meta(root, 'twitter:description')).toEqual(['Start &quot;here&quot; &lt;now&gt;']);
    // No image where the page and the site have none.
    expect(meta(root, 'og:image')).toEqual([]);
    expect(meta(root, 'twitter:image')).toEqual([]);
    // A page that stands for no page has no canonical URL and nothing to share.
    const missing = await r.read(`${site.url}/no/such/page`);
    expect(canonical(missing.text)).toEqual([]);
    expect(meta(missing.text, 'og:url')).toEqual([]);
  });

  it("describes a page without a description by its first paragraph, as plain text of at most 160 characters", async () => {
    const long = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');
    const site = await r.publishedSite([
      { title: 'Marked', ref: 'marked', document: { markdown: '## Heading first\n\n![logo](https://images.example/l.png)\n\nSome **bold** `code` and a [link](https://example.com) <b>tag</b> & more\nover two lines.\n\nSecond paragraph.\n' } },
      { title: 'Long', ref: 'long', document: { markdown: `${long}\n` } },
      { title: 'Code only', ref: 'code', document: { markdown: '```js\nlet x = 1;\n```\n' } },
    ]);
    const marked = await r.page(`${site.url}/marked`);
    // The image alone is a paragraph of its alt text: the first with text.
    expect(meta(marked, 'description')).toEqual(['logo']);
    const withText = await r.publishedSite([{ title: 'Marked', document: { markdown: '> Some **bold** `code` and a [link](https://example.com) <b>tag</b> & more\n> over two lines.\n\nSecond.\n' } }]);
    expect(meta(await r.page(withText.url), 'description')).toEqual(['Some bold code and a link tag &amp; more over two lines.']);
    const cut = meta(await r.page(`${site.url}/long`), 'description')[0];
    expect(cut.length).toBeLessThanOrEqual(160);
    expect(cut).toMatch(/^word0 word1 .* word\d+…$/);
    expect(long.startsWith(cut.slice(0, -1))).toBe(true);
    expect(meta(await r.page(`${site.url}/code-only`), 'description')).toEqual([]);
  });

  it("shares a page's cover as its image, else the site's social preview, as a large Twitter card", async () => {
    const space = await r.spaceWith('Guide', []);
    await r.write(space, [
      { operation: 'insert_page', title: 'Covered', cover: { ref: { kind: 'url', url: 'https://images.example/c.png' } }, document: { markdown: 'Text.\n' } },
      { operation: 'insert_page', title: 'Plain', document: { markdown: 'Text.\n' } },
    ]);
    const created = await r.createSite({ title: 'Handbook', spaces: [space] });
    await r.publish(created.id);
    const url = (await r.published(created.id)).site.urls.published as string;
    const covered = await r.page(url);
    expect(meta(covered, 'og:image')).toEqual(['https://images.example/c.png']);
    expect(meta(covered, 'twitter:image')).toEqual(['https://images.example/c.png']);
    expect(meta(covered, 'twitter:card')).toEqual(['summary_large_image']);
    const plainUrl = `${url}/plain`;
    expect(meta(await r.page(plainUrl), 'og:image')).toEqual([]);
    await r.customize(created.id, (settings) => (settings.socialPreview = { url: 'https://images.example/social.png' }));
    const plain = await r.page(plainUrl);
    expect(meta(plain, 'og:image')).toEqual(['https://images.example/social.png']);
    expect(meta(plain, 'twitter:card')).toEqual(['summary_large_image']);
    expect(meta(await r.page(url), 'og:image')).toEqual(['https://images.example/c.png']);
  });

  it("sets theme-color from the primary color: one per color scheme, or the one of the site's fixed mode", async () => {
    const site = await r.publishedSite([{ title: 'Welcome', document: { markdown: 'Hi.\n' } }]);
    const before = head(await r.page(site.url));
    expect(before).toContain('<meta name="theme-color" content="#346DDB" media="(prefers-color-scheme: light)"><meta name="theme-color" content="#346DDB" media="(prefers-color-scheme: dark)">');
    await r.customize(site.id, (settings) => (settings.styling.primaryColor = { light: '#C0FFEE', dark: '#123456' }));
    const both = await r.page(site.url);
    expect(head(both)).toContain('<meta name="theme-color" content="#C0FFEE" media="(prefers-color-scheme: light)"><meta name="theme-color" content="#123456" media="(prefers-color-scheme: dark)">');
    await r.customize(site.id, (settings) => {
      settings.styling.primaryColor = { light: '#C0FFEE', dark: '#123456' };
      settings.themes = { default: 'dark', toggeable: false };
    });
    expect(meta(await r.page(site.url), 'theme-color')).toEqual(['#123456']);
    // The 404 page of the site wears its colors too.
    expect(meta((await r.read(`${site.url}/nowhere`)).text, 'theme-color')).toEqual(['#123456']);
  });
});
