import { strToU8, zipSync, type Zippable } from 'fflate';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/adapters/fetch/index.js';
import { TABLES } from '../../src/core/records.js';
import { MAX_IMPORT_BYTES, MAX_IMPORT_PAGES, MAX_UNZIPPED_BYTES, MAX_ZIP_ENTRIES, MAX_ZIP_ENTRY_BYTES } from '../../src/core/content/import/schemas.js';
import { authoring, md } from './authoring.js';
import { httpSuite } from './harness.js';
import { startImportSources, type ImportSourceServer } from './import-sources.js';

/**
 * Importing content from a URL (POST .../content/import) into a space and into a change request: Markdown,
 * HTML, a web page and zip archives served by a local HTTP server, and every way an import is refused
 * (with the store left as it was).
 */

let web: ImportSourceServer;
beforeAll(async () => {
  web = await startImportSources();
});
afterAll(async () => {
  await web.close();
});

/** A PNG header of some size: enough for the dimensions of files. */
function png(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(bytes.buffer).setUint32(16, width);
  new DataView(bytes.buffer).setUint32(20, height);
  return bytes;
}

/** A 1x1 GIF. */
const GIF = Uint8Array.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0x80, 0, 0, 0xff, 0xff, 0xff, 0, 0, 0, 0x21, 0xf9, 4, 1, 0, 0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3b]);
const LOGO = png(120, 40);

/** Text entries as bytes, others as they are. */
const zip = (entries: Record<string, string | Uint8Array>) =>
  zipSync(Object.fromEntries(Object.entries(entries).map(([path, body]) => [path, typeof body === 'string' ? strToU8(body) : body])) as Zippable);

/** A documentation folder as a GitHub archive holds it: wrapped in one folder, with images and clutter. */
const DOCS_ZIP = zip({
  'docs-main/README.md': '# Welcome\n\nSee [setup](guides/setup.md#install) and ![logo](assets/logo.png).\n',
  'docs-main/guides/README.md': '# Guides\n\nAll guides. Back [home](../README.md).\n',
  'docs-main/guides/setup.md': '---\ndescription: How to set up\n---\n# Setup\n\n## Install\n\nBack to [guides](./), on to [deep](advanced/deep.md "Deep"), see ![diagram](../assets/diagram.gif) and [away](https://example.com/x).\n',
  'docs-main/guides/advanced/deep.md': 'Deep content, [missing](nowhere.md).\n',
  'docs-main/10-last.md': '# Last\n',
  'docs-main/2-second.md': 'Second, with ![logo again](/assets/logo.png).\n',
  'docs-main/assets/logo.png': LOGO,
  'docs-main/assets/diagram.gif': GIF,
  'docs-main/assets/unused.png': png(1, 1),
  'docs-main/notes.txt': 'not a page',
  '__MACOSX/docs-main/._README.md': new Uint8Array([0, 5, 22, 7, 0, 2, 0, 0]),
});

/** An export with a table of contents: its order, nesting, groups and links win over the folders. */
const SUMMARY_ZIP = zip({
  'SUMMARY.md': [
    '# Table of contents',
    '',
    '* [Intro](README.md)',
    '* [Guide](guide.md)',
    '  * [Child](sub/child.md)',
    '* [Elsewhere](https://example.com/docs)',
    '',
    '## Reference',
    '',
    '* [API](api.md)',
    '* [Not there](missing.md)',
    '',
  ].join('\n'),
  'README.md': 'Intro body links to [the child](sub/child.md).\n',
  'guide.md': '# The guide\n\nGuide body.\n',
  'sub/child.md': 'Child body.\n',
  'api.md': 'API body.\n',
  'unlisted.md': 'Not in the table of contents.\n',
});

/** A zip whose central directory says one entry inflates to `declared` bytes. */
function withDeclaredSize(archive: Uint8Array, declared: number): Uint8Array {
  const bytes = archive.slice();
  const view = new DataView(bytes.buffer);
  for (let at = bytes.length - 22; at >= 0; at--) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    view.setUint32(at + 24, declared, true);
    return bytes;
  }
  throw new Error('no central directory entry');
}

/** A zip bomb that lies: 4 MiB of zeros (a few KiB compressed) declaring 10 bytes. */
const LYING_BOMB = withDeclaredSize(zipSync({ 'bomb.md': new Uint8Array(4 * 1024 * 1024) }, { level: 9 }), 10);

httpSuite(
  'content import',
  (h) => {
    const a = authoring(h);
    const importInto = (spaceId: string, body: unknown, changeRequestId?: string, caller = h().owner) => {
      h().clock.advance(1000);
      return caller.post(`${a.contentOf(spaceId, changeRequestId)}/import`, body);
    };

    /** A space with one page of its own (in its current revision), and a change request on it. */
    async function fixture() {
      const space = await a.space();
      const cr = await a.changeRequest(space.id);
      const edited = await a.batch(space.id, cr.id, [{ operation: 'insert_page', title: 'Existing', document: md('Already here.') }]);
      await a.moveSpaceTo(space.id, edited.revision);
      const fresh = await a.changeRequest(space.id);
      return { space: { ...space, revision: edited.revision }, cr: fresh };
    }

    /** Downloads bytes through the Fetch handler. */
    async function download(url: string) {
      const response = await createFetchHandler(h().platform)(new Request(url));
      return new Uint8Array(await response.arrayBuffer());
    }

    it('imports a Markdown file as one page at the end of the top level, in a new revision of the space', async () => {
      const { space } = await fixture();
      const url = web.serve('/docs/guide.md', {
        type: 'text/markdown; charset=utf-8',
        body: '---\ndescription: All about it\nemoji: "1f680"\n---\n# Getting  started\n\nRead [the other](other.md#part), see ![logo](../img/logo.png), [top](#getting-started), [mail](mailto:a@b.c).\n',
      });
      const before = await h().owner.get(a.spaces(space.id));
      const imported = await importInto(space.id, { url, source: 'markdown' });
      expect(imported.status, imported.text).toBe(201);
      expect(imported.body).toEqual({ revision: expect.any(String), importedResources: 1, totalResources: 1 });
      const content = await h().owner.get(a.contentOf(space.id));
      expect(content.body).toMatchObject({ id: imported.body.revision, parents: [space.revision], type: 'edits' });
      // `Location` names the new revision, which reads as the space's content does.
      const location = new URL(imported.headers.get('location')!);
      expect(location.pathname).toBe(`/v1/spaces/${space.id}/revisions/${imported.body.revision}`);
      const revision = await h().owner.get(location.pathname);
      expect(revision.status).toBe(200);
      const shape = (body: any) => [body.id, body.parents, body.type, body.pages.map((page: any) => [page.id, page.title, page.path]), body.files];
      expect(shape(revision.body)).toEqual(shape(content.body));
      expect(revision.body.urls.app).toMatch(new RegExp(`/s/${space.id}/~/revisions/${imported.body.revision}$`));
      expect((await h().owner.get(`/v1/spaces/${space.id}/revisions/nope`)).status).toBe(404);
      expect((await h().owner.get(`/v1/spaces/${space.id}/revisions/${space.revision}`)).body.id).toBe(space.revision);
      const after = await h().owner.get(a.spaces(space.id));
      expect(after.body.revision).toBe(imported.body.revision);
      expect(after.body.updatedAt).not.toBe(before.body.updatedAt);
      const tree = await a.pages(space.id);
      expect(a.outline(tree)).toEqual([['Existing', 'existing'], ['Getting started', 'getting-started']]);
      expect([tree[1].description, tree[1].emoji]).toEqual(['All about it', '1f680']);
      const page = await a.page(space.id, undefined, tree[1].id);
      expect(page.markdown).toBe(
        `Read [the other](${web.base}/docs/other.md#part), see ![logo](${web.base}/img/logo.png), [top](#getting-started), [mail](mailto:a@b.c).\n`,
      );
      // The page that was there is untouched.
      expect((await a.page(space.id, undefined, tree[0].id)).markdown).toBe('Already here.\n');
    });

    it('titles a Markdown page by its file name when it has no heading, and takes untyped or plain text', async () => {
      const { space } = await fixture();
      for (const [path, type] of [
        ['/release-notes.md', undefined],
        ['/plain_text.md', 'text/plain'],
      ] as const) {
        const url = web.serve(path, { type, body: 'Just text.\n' });
        expect((await importInto(space.id, { url, source: 'markdown' })).status).toBe(201);
      }
      expect(a.outline(await a.pages(space.id))).toEqual([['Existing', 'existing'], ['Release notes', 'release-notes'], ['Plain text', 'plain-text']]);
    });

    it('imports an HTML file: the whole body as Markdown, scripts and navigation left out, links made absolute', async () => {
      const { space } = await fixture();
      const url = web.serve('/export/page.html', {
        type: 'text/html; charset=utf-8',
        body: `<!doctype html><html><head><title>Tab title</title><script>var x = 1;</script></head><body>
          <nav><a href="/home">Menu</a></nav>
          <h1>Hello <em>HTML</em></h1>
          <p>Some <strong>bold</strong> text with <a href="next.html">a link</a> and <img src="/img/a.png" alt="pic">.</p>
          <ul><li>one</li><li>two</li></ul>
          <table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>
          <pre><code class="language-js">let a = 1;</code></pre>
          <footer>Kept: html takes the whole body</footer>
          <script>alert(1)</script>
        </body></html>`,
      });
      const imported = await importInto(space.id, { url, source: 'html' });
      expect(imported.status, imported.text).toBe(201);
      expect(imported.body).toMatchObject({ importedResources: 1, totalResources: 1 });
      const tree = await a.pages(space.id);
      expect(tree[1].title).toBe('Hello HTML');
      expect((await a.page(space.id, undefined, tree[1].id)).markdown).toBe(
        [
          `Some **bold** text with [a link](${web.base}/export/next.html) and ![pic](${web.base}/img/a.png).`,
          '',
          '- one',
          '- two',
          '',
          '| A | B |',
          '| - | - |',
          '| 1 | 2 |',
          '',
          '```js',
          'let a = 1;',
          '```',
          '',
          'Kept: html takes the whole body',
          '',
        ].join('\n'),
      );
    });

    it('imports a web page: only its main content, titled by its <title> when no heading opens it, links resolved against <base>', async () => {
      const { space } = await fixture();
      const url = web.serve('/site/article', {
        type: 'text/html',
        body: `<html><head><title>Site article</title><base href="/docs/v2/"></head><body>
          <header>Site header</header><nav>Menu</nav>
          <main><p class="crumbs">Docs / Article</p><h2>Part</h2><p>Main text, <a href="rel/page">relative</a>, <a href="#part">anchor</a>.</p><aside>Related</aside></main>
          <footer>Footer</footer>
        </body></html>`,
      });
      const imported = await importInto(space.id, { url, source: 'website' });
      expect(imported.status, imported.text).toBe(201);
      const tree = await a.pages(space.id);
      expect(a.outline(tree)).toEqual([['Existing', 'existing'], ['Site article', 'site-article']]);
      expect((await a.page(space.id, undefined, tree[1].id)).markdown).toBe(
        `Docs / Article\n\n## Part\n\nMain text, [relative](${web.base}/docs/v2/rel/page), [anchor](#part).\n`,
      );
      // Without <main>: the body without its header, footer and navigation.
      const bare = web.serve('/site/bare.html', { type: 'text/html', body: '<body><header>H</header><h1>Bare</h1><p>Body.</p><footer>F</footer></body>' });
      expect((await importInto(space.id, { url: bare, source: 'website' })).status).toBe(201);
      const again = await a.pages(space.id);
      expect(again[2].title).toBe('Bare');
      expect((await a.page(space.id, undefined, again[2].id)).markdown).toBe('Body.\n');
    });

    it('imports a zip of Markdown files and images as a page tree whose links point at the pages and files', async () => {
      const { space } = await fixture();
      const url = web.serve('/docs.zip', { type: 'application/zip', body: DOCS_ZIP });
      const imported = await importInto(space.id, { url, source: 'zip' });
      expect(imported.status, imported.text).toBe(201);
      // 7 pages (one, Advanced, is a folder without a README) and 2 files; unused.png, notes.txt and the
      // __MACOSX entry were read and skipped.
      expect(imported.body).toEqual({ revision: expect.any(String), importedResources: 9, totalResources: 12 });
      const tree = await a.pages(space.id);
      expect(a.outline(tree)).toEqual([
        ['Existing', 'existing'],
        ['Welcome', 'welcome'],
        ['2 second', '2-second'],
        ['Last', 'last'],
        ['Guides', 'guides', [['Advanced', 'guides/advanced', [['Deep', 'guides/advanced/deep']]], ['Setup', 'guides/setup']]],
      ]);
      const welcome = a.byTitle(tree, 'Welcome');
      const setup = a.byTitle(tree, 'Setup');
      const guides = a.byTitle(tree, 'Guides');
      const deep = a.byTitle(tree, 'Deep');
      const files = (await h().owner.get(`${a.contentOf(space.id)}/files`)).body.items as any[];
      expect(files.map((file) => [file.name, file.contentType, file.size, file.dimensions])).toEqual(
        expect.arrayContaining([
          ['logo.png', 'image/png', LOGO.length, { width: 120, height: 40 }],
          ['diagram.gif', 'image/gif', GIF.length, { width: 1, height: 1 }],
        ]),
      );
      expect(files).toHaveLength(2);
      const logo = files.find((file) => file.name === 'logo.png');
      const diagram = files.find((file) => file.name === 'diagram.gif');
      expect(await download(logo.downloadURL)).toEqual(LOGO);
      expect(await download(diagram.downloadURL)).toEqual(GIF);
      expect((await a.page(space.id, undefined, welcome.id)).markdown).toBe(`See [setup](/pages/${setup.id}#install) and ![logo](/files/${logo.id}).\n`);
      expect((await a.page(space.id, undefined, guides.id)).markdown).toBe(`All guides. Back [home](/pages/${welcome.id}).\n`);
      const setupPage = await a.page(space.id, undefined, setup.id);
      expect(setupPage.description).toBe('How to set up');
      expect(setupPage.markdown).toBe(
        `## Install\n\nBack to [guides](/pages/${guides.id}), on to [deep](/pages/${deep.id} "Deep"), see ![diagram](/files/${diagram.id}) and [away](https://example.com/x).\n`,
      );
      // A link to nothing in the archive stays as written.
      expect((await a.page(space.id, undefined, deep.id)).markdown).toBe('Deep content, [missing](nowhere.md).\n');
      expect((await a.page(space.id, undefined, a.byTitle(tree, '2 second').id)).markdown).toBe(`Second, with ![logo again](/files/${logo.id}).\n`);
      // Read through the document format, the links are page and file references.
      const document = await a.page(space.id, undefined, welcome.id, '?format=document');
      expect(JSON.stringify(document.document)).toContain(`{"kind":"anchor","anchor":"install","page":"${setup.id}"}`);
      expect(JSON.stringify(document.document)).toContain(`{"kind":"file","file":"${logo.id}"}`);
    });

    it('lays a zip out by its SUMMARY.md: order, nesting, groups and link pages; unlisted files are skipped', async () => {
      const { space } = await fixture();
      const url = web.serve('/summary.zip', { body: SUMMARY_ZIP });
      const imported = await importInto(space.id, { url, source: 'zip' });
      expect(imported.status, imported.text).toBe(201);
      // Pages: Intro, The guide, Child, Elsewhere, Reference, API, Not there; SUMMARY.md and unlisted.md skipped.
      expect(imported.body).toMatchObject({ importedResources: 7, totalResources: 9 });
      const tree = await a.pages(space.id);
      expect(tree.map((page) => [page.type, page.title])).toEqual([
        ['document', 'Existing'],
        ['document', 'Intro'],
        ['document', 'The guide'],
        ['link', 'Elsewhere'],
        ['group', 'Reference'],
      ]);
      expect(a.outline(tree.slice(1))).toEqual([
        ['Intro', 'intro'],
        ['The guide', 'the-guide', [['Child', 'the-guide/child']]],
        ['Elsewhere', undefined],
        ['Reference', 'reference', [['API', 'reference/api'], ['Not there', 'reference/not-there']]],
      ]);
      expect(tree[3].target).toEqual({ kind: 'url', url: 'https://example.com/docs' });
      const child = a.byTitle(tree, 'Child');
      expect((await a.page(space.id, undefined, tree[1].id)).markdown).toBe(`Intro body links to [the child](/pages/${child.id}).\n`);
      expect((await a.page(space.id, undefined, a.byTitle(tree, 'Not there').id)).markdown).toBe('');
    });

    it('imports into a change request as a new revision of the request, leaving the space alone', async () => {
      const { space, cr } = await fixture();
      const contributor = await h().user('edit');
      const url = web.serve('/cr.zip', { type: 'application/zip', body: DOCS_ZIP });
      const before = await h().owner.get(a.spaces(space.id));
      const imported = await importInto(space.id, { url, source: 'zip' }, cr.id, contributor);
      expect(imported.status, imported.text).toBe(201);
      expect(imported.body).toMatchObject({ importedResources: 9, totalResources: 12 });
      const request = await h().owner.get(a.changeRequestPath(space.id, cr.id));
      expect(request.body).toMatchObject({ revision: imported.body.revision, outdated: false });
      const record = await h().platform.store.read((tx) => tx.get(TABLES.changeRequests, cr.id));
      expect(record?.contributors).toEqual([h().owner.userId, contributor.userId]);
      const content = await h().owner.get(a.contentOf(space.id, cr.id));
      expect(content.body).toMatchObject({ id: imported.body.revision, parents: [cr.revision], type: 'edits' });
      expect((await a.pages(space.id, cr.id)).map((page) => page.title)).toEqual(['Existing', 'Welcome', '2 second', 'Last', 'Guides']);
      expect(content.body.files).toHaveLength(2);
      // The space did not move; by number works too.
      expect((await h().owner.get(a.spaces(space.id))).body).toEqual(before.body);
      expect((await importInto(space.id, { url: web.serve('/one.md', { body: 'One.' }), source: 'markdown' }, String(cr.number))).status).toBe(201);
      expect((await a.pages(space.id, cr.id)).map((page) => page.title)).toContain('One');
    });

    it('makes slugs unique among the pages already there', async () => {
      const { space } = await fixture();
      const url = web.serve('/existing.md', { body: '# Existing\n\nAgain.' });
      await importInto(space.id, { url, source: 'markdown' });
      await importInto(space.id, { url, source: 'markdown' });
      expect(a.outline(await a.pages(space.id))).toEqual([['Existing', 'existing'], ['Existing', 'existing-2'], ['Existing', 'existing-3']]);
    });

    it('refuses sources it does not import and content that is not what the source says; nothing changes', async () => {
      const { space, cr } = await fixture();
      const before = await a.stored(space.id);
      const html = web.serve('/is-html', { type: 'text/html', body: '<html><body><p>x</p></body></html>' });
      const htmlUntyped = web.serve('/is-html-untyped.md', { body: '<!DOCTYPE html>\n<html><body>x</body></html>' });
      const image = web.serve('/image.png', { type: 'image/png', body: LOGO });
      const binary = web.serve('/binary.md', { type: 'application/octet-stream', body: new Uint8Array([0xff, 0xfe, 0, 1]) });
      const words = web.serve('/words.txt', { type: 'text/plain', body: 'Just words, no tags.' });
      const badYaml = web.serve('/bad-yaml.md', { body: '---\ntitle: [unclosed\n---\nText' });
      const zipNoMarkdown = web.serve('/images.zip', { body: zip({ 'a.png': LOGO, 'b.txt': 'x' }) });
      const zipBadText = web.serve('/bad-text.zip', { body: zip({ 'a.md': new Uint8Array([0xc3, 0x28]) }) });
      const supported = 'the supported sources are markdown, html, website, zip';
      const cases: [unknown, number, string][] = [
        [{ url: html, source: 'docx' }, 400, `source: "docx" cannot be imported; ${supported}`],
        [{ url: html, source: 'notion' }, 400, `source: "notion" cannot be imported; ${supported}`],
        [{ url: html, source: 'pdf' }, 400, 'source: must be ("website" | "docx" | "markdown" | "html" | "zip" | "confluence" | "github-wiki" | "notion" | "google-docs"), not "pdf"'],
        [{ url: 'ftp://example.com/a.md', source: 'markdown' }, 400, 'url: must be an http or https URL'],
        [{ url: 'not a url', source: 'markdown' }, 400, 'url: must be an absolute URL'],
        [{ url: `https://example.com/${'a'.repeat(2048)}`, source: 'markdown' }, 400, 'url: must be at most 2048 characters'],
        [{ source: 'markdown' }, 400, 'url: is required'],
        [{ url: html }, 400, 'source: is required'],
        [{ url: html, source: 'markdown' }, 400, `url: ${html} is an HTML page, not Markdown: import it with source "html" or "website"`],
        [{ url: htmlUntyped, source: 'markdown' }, 400, `url: ${htmlUntyped} is an HTML page, not Markdown: import it with source "html" or "website"`],
        [{ url: image, source: 'markdown' }, 400, `url: ${image} is not Markdown: it answered image/png`],
        [{ url: binary, source: 'markdown' }, 400, `url: ${binary} is not Markdown: it is not UTF-8 text`],
        [{ url: image, source: 'html' }, 400, `url: ${image} is not HTML: it answered image/png`],
        [{ url: words, source: 'website' }, 400, `url: ${words} is not a web page: it does not start with an HTML tag`],
        [{ url: badYaml, source: 'markdown' }, 400, `url: ${badYaml}: markdown: the frontmatter is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 1, column 17:`],
        [{ url: html, source: 'zip' }, 400, `url: ${html} is not a zip archive`],
        [{ url: zipNoMarkdown, source: 'zip' }, 400, `url: ${zipNoMarkdown} holds no Markdown files (.md) to make pages of`],
        [{ url: zipBadText, source: 'zip' }, 400, `url: ${zipBadText}: a.md is not UTF-8 text`],
      ];
      for (const changeRequestId of [undefined, cr.id]) {
        for (const [body, status, message] of cases) {
          const refused = await importInto(space.id, body, changeRequestId);
          expect([refused.status, refused.body.error.message], JSON.stringify(body)).toEqual([status, message]);
        }
      }
      expect(await a.stored(space.id)).toEqual(before);
    });

    it('refuses sources that cannot be fetched with one message whatever the cause (404, 500, timeout, closed port); too large says so; nothing changes', async () => {
      const { space, cr } = await fixture();
      const before = await a.stored(space.id);
      // Declared, so refused on its headers: reading 10 MB within the 300 ms limit failed on a loaded machine.
      // A body too large that declares nothing is refused as it streams (test/core/fetch-bytes.test.ts).
      const huge = web.serve('/huge.md', { type: 'text/markdown', body: 'a'.repeat(MAX_IMPORT_BYTES + 1), declared: true });
      const error = web.serve('/error.md', { status: 500, type: 'text/plain', body: 'boom' });
      const cases: [string, string][] = [
        [web.url('/nothing-here.md'), 'url: the URL could not be fetched'],
        [error, 'url: the URL could not be fetched'],
        [web.url('/slow'), 'url: the URL could not be fetched'],
        ['http://127.0.0.1:9/a.md', 'url: the URL could not be fetched'],
        [huge, `url: the URL's answer is more than ${MAX_IMPORT_BYTES} bytes`],
      ];
      for (const changeRequestId of [undefined, cr.id]) {
        for (const [url, message] of cases) {
          const refused = await importInto(space.id, { url, source: 'markdown' }, changeRequestId);
          expect([refused.status, refused.body.error.message], url).toEqual([400, message]);
        }
      }
      expect(await a.stored(space.id)).toEqual(before);
    });

    it('refuses zip bombs and archives over the limits before inflating them; nothing changes', async () => {
      const { space } = await fixture();
      const before = await a.stored(space.id);
      const bigEntry = zipSync({ 'big.md': new Uint8Array(MAX_ZIP_ENTRY_BYTES + 1).fill(0x61) }, { level: 9 });
      const manyEntries = zip(Object.fromEntries(Array.from({ length: MAX_ZIP_ENTRIES + 1 }, (_, i) => [`p${i}.txt`, 'x'])));
      const manyPages = zip(Object.fromEntries(Array.from({ length: MAX_IMPORT_PAGES + 1 }, (_, i) => [`p${i}.md`, 'x'])));
      const damaged = DOCS_ZIP.slice(0, DOCS_ZIP.length - 200);
      const cases: [string, Uint8Array, string][] = [
        ['/declares-too-much.zip', withDeclaredSize(zip({ 'a.md': 'x' }), MAX_UNZIPPED_BYTES + 1), `would unpack to more than ${MAX_UNZIPPED_BYTES} bytes`],
        ['/lying-bomb.zip', LYING_BOMB, 'is not a readable zip archive: bomb.md is damaged or not the size it declares'],
        ['/big-entry.zip', bigEntry, `: big.md is ${MAX_ZIP_ENTRY_BYTES + 1} bytes, more than ${MAX_ZIP_ENTRY_BYTES}`],
        ['/many-entries.zip', manyEntries, `holds ${MAX_ZIP_ENTRIES + 1} entries, more than ${MAX_ZIP_ENTRIES}`],
        ['/many-pages.zip', manyPages, `would make ${MAX_IMPORT_PAGES + 1} pages, more than ${MAX_IMPORT_PAGES}`],
        ['/damaged.zip', damaged, 'is not a readable zip archive: it has no central directory'],
      ];
      for (const [path, body, message] of cases) {
        const url = web.serve(path, { type: 'application/zip', body });
        const refused = await importInto(space.id, { url, source: 'zip' });
        expect([refused.status, refused.body.error.message]).toEqual([400, `url: ${url}${message.startsWith(':') ? '' : ' '}${message}`]);
      }
      expect(await a.stored(space.id)).toEqual(before);
    });

    it('refuses locked spaces, closed change requests and callers who may not edit, before fetching anything', async () => {
      const { space, cr } = await fixture();
      const url = web.serve('/guarded.md', { body: '# Guarded' });
      const reader = await h().user('read');
      const commenter = await h().user('comment');
      const outsider = (await h().organization()).owner;
      const before = await a.stored(space.id);
      const hits = web.hits();
      for (const changeRequestId of [undefined, cr.id]) {
        for (const caller of [reader, commenter]) {
          const refused = await importInto(space.id, { url, source: 'markdown' }, changeRequestId, caller);
          expect(refused.status).toBe(403);
          expect(refused.body.error.message).toMatch(/import content/);
        }
        expect((await importInto(space.id, { url, source: 'markdown' }, changeRequestId, outsider)).status).toBe(404);
        const anonymous = await h().request('POST', `${a.contentOf(space.id, changeRequestId)}/import`, { body: { url, source: 'markdown' } });
        expect(anonymous.status).toBe(401);
      }
      expect((await importInto('nope', { url, source: 'markdown' })).status).toBe(404);
      expect((await importInto(space.id, { url, source: 'markdown' }, 'nope')).status).toBe(404);
      // A closed change request takes no import.
      expect((await h().owner.patch(a.changeRequestPath(space.id, cr.id), { status: 'archived' })).status).toBe(200);
      const archived = await importInto(space.id, { url, source: 'markdown' }, cr.id);
      expect([archived.status, archived.body.error.message]).toEqual([409, `Change request ${cr.number} is archived: set its status to draft or open to change its content`]);
      expect((await h().owner.patch(a.changeRequestPath(space.id, cr.id), { status: 'open' })).status).toBe(200);
      // A locked space takes none, in itself or in its change requests.
      expect((await h().owner.patch(a.spaces(space.id), { editMode: 'locked' })).status).toBe(200);
      const lockedBefore = await a.stored(space.id);
      for (const changeRequestId of [undefined, cr.id]) {
        const locked = await importInto(space.id, { url, source: 'markdown' }, changeRequestId);
        expect([locked.status, locked.body.error.message]).toEqual([409, `Space ${space.id} is locked (editMode "locked"): set its editMode to "live" to change its content`]);
      }
      expect(web.hits()).toBe(hits);
      expect(await a.stored(space.id)).toEqual(lockedBefore);
      // Unlocked, an editor imports.
      expect((await h().owner.patch(a.spaces(space.id), { editMode: 'live' })).status).toBe(200);
      const editor = await h().user('edit');
      expect((await importInto(space.id, { url, source: 'markdown' }, undefined, editor)).status).toBe(201);
      expect((await a.pages(space.id)).map((page) => page.title)).toEqual(['Existing', 'Guarded']);
      expect(before).not.toEqual(await a.stored(space.id));
    });
  },
  // The sources are served on 127.0.0.1, which outbound fetches reach only when allowed. Every fetch of the
  // suite has this long: only `/slow` waits it out, and at 300 ms a loaded machine timed out real answers.
  { fetchTimeoutMs: 1500, fetchAllow: ['127.0.0.1'] },
);
