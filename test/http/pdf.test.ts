import { expect, it } from 'vitest';
import { createFetchHandler } from '../../src/adapters/fetch/index.js';
import { createMemoryBlobStore, type BlobStore } from '../../src/core/blobs.js';
import { MAX_PDF_PAGES } from '../../src/core/content/pdf/source.js';
import { authoring, md } from './authoring.js';
import { httpSuite, type Caller } from './harness.js';
import { extractPdf } from '../content/pdf-extract.js';
import { inspectPdf, SMALL_JPEG, solidPng } from './pdf-inspect.js';

/** PDF export of a change request: what the PDF holds, the URL's life, scopes, errors and the render cache. */

/** A body long enough to fill several PDF pages. */
const LONG_BODY = Array.from({ length: 120 }, (_, i) => `Paragraph ${i + 1} of the long page, with enough words to wrap across the line at least once or twice.`).join('\n\n');

/** Every blob written, to count renders: a new PDF is one more put. */
const puts: Uint8Array[] = [];
const countingBlobs = (): BlobStore => {
  const inner = createMemoryBlobStore();
  return { ...inner, put: (bytes) => (puts.push(bytes), inner.put(bytes)) };
};

httpSuite(
  'change request PDF',
  (h) => {
    const a = authoring(h);
    const pdfPath = (spaceId: string, changeRequestId: string, query = '') => `${a.changeRequestPath(spaceId, changeRequestId)}/pdf${query}`;

    /** A space with a change request holding: Intro (short), Long (many PDF pages), a group Guides with Setup and Setup > Linux. */
    async function fixture(subject = 'Fix the install guide') {
      const space = await a.space({ title: 'Handbook' });
      const cr = await a.changeRequest(space.id, { subject });
      const made = await a.batchWithChanges(space.id, cr.id, [
        { operation: 'insert_page', ref: 'intro', title: 'Intro', document: md('Welcome to the **handbook**. See [setup](./setup).') },
        { operation: 'insert_page', ref: 'long', title: 'Long read', document: md(LONG_BODY) },
        { operation: 'insert_page', ref: 'guides', type: 'group', title: 'Guides' },
        { operation: 'insert_page', ref: 'setup', into: 'guides', title: 'Setup', document: md('## Install\n\nRun the installer.') },
        { operation: 'insert_page', ref: 'linux', into: 'setup', title: 'Linux', document: md('Use the package manager.') },
      ]);
      const ids = Object.fromEntries(made.changes.map((change: { ref: string; page: { id: string } }) => [change.ref, change.page.id])) as Record<string, string>;
      return { space, cr, ids };
    }

    /** Downloads a URL through the Fetch handler (the URL carries its own permission). */
    async function download(url: string) {
      const response = await createFetchHandler(h().platform)(new Request(url));
      return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
    }

    /** Exports and downloads; returns the URL and what the PDF holds. */
    async function exportPdf(spaceId: string, changeRequestId: string, query = '', caller: Caller = h().owner) {
      const response = await caller.get(pdfPath(spaceId, changeRequestId, query));
      expect(response.status, response.text).toBe(200);
      const fetched = await download(response.body.url);
      expect(fetched.status).toBe(200);
      return { url: response.body.url as string, headers: fetched.headers, pdf: inspectPdf(fetched.bytes), bytes: fetched.bytes as Uint8Array };
    }

    it('prints every page in tree order, each document on its own PDF pages, into a PDF served for one hour', async () => {
      const { space, cr, ids } = await fixture();
      const whole = await exportPdf(space.id, cr.id);
      expect(whole.url).toMatch(/^http:\/\/[^/]+\/v1\/downloads\/[^/]+\/Fix-the-install-guide\.pdf$/);
      expect(whole.headers.get('content-type')).toBe('application/pdf');
      expect(whole.headers.get('cache-control')).toBe('private, no-store');
      // Titles in tree order; a group's title opens the page of its first subpage.
      const titles = ['Intro', 'Long read', 'Guides', 'Setup', 'Linux'];
      const at = titles.map((title) => whole.pdf.text.indexOf(title));
      expect(at.every((index) => index >= 0)).toBe(true);
      expect([...at].sort((x, y) => x - y)).toEqual(at);
      expect(whole.pdf.text).toContain('Paragraph 120 of the long page');
      const long = (await exportPdf(space.id, cr.id, `?page=${ids.long}&only=true`)).pdf.pages;
      expect(long).toBeGreaterThan(2);
      // Intro, Long read, Guides + Setup, Linux.
      expect(whole.pdf.pages).toBe(1 + long + 1 + 1);
      expect(whole.pdf.pageTexts[0]).toMatch(/^Intro\n/);
      expect(whole.pdf.pageTexts[1 + long]).toMatch(/^Guides\nSetup\nInstall\nRun the installer\./);
      // One bookmark per page, subpages under their parents.
      for (const title of titles) expect(whole.pdf.structure).toContain(`/Title (${title})`);
    });

    it('prints one page with only=true, a page and its subpages with page alone', async () => {
      const { space, cr, ids } = await fixture();
      const one = await exportPdf(space.id, cr.id, `?page=${ids.setup}&only=true`);
      expect(one.pdf.pages).toBe(1);
      expect(one.pdf.text).toMatch(/^Setup\nInstall\nRun the installer\.$/);
      const subtree = await exportPdf(space.id, cr.id, `?page=${ids.setup}`);
      expect(subtree.pdf.pages).toBe(2);
      expect(subtree.pdf.pageTexts[1]).toMatch(/^Linux\n/);
      expect(subtree.pdf.text).not.toContain('Intro');
      expect(await exportPdf(space.id, cr.id, `?page=${ids.setup}&only=false`)).toMatchObject({ pdf: { pages: 2 } });
      // A link to a page the PDF does not print opens it in the app; to a printed page it jumps inside the PDF.
      const intro = await exportPdf(space.id, cr.id, `?page=${ids.intro}&only=true`);
      expect(intro.pdf.structure).toMatch(/\/URI \(http:\/\/[^/]+\/app\/s\/[^/]+\/~\/changes\/1\/guides\/setup\)/);
      const all = await exportPdf(space.id, cr.id);
      expect(all.pdf.structure).toContain(`/S /GoTo\n/D (page:${ids.setup})`);
    });

    it('embeds PNG and JPEG images from the revision, and prints anything else as its alt text', async () => {
      const space = await a.space();
      const cr = await a.changeRequest(space.id);
      // Alpha PNGs are decoded by pdfkit in a callback: corrupt pixel data there would throw uncaught.
      const corrupt = solidPng(4, 4, [0, 0, 255, 255], true);
      corrupt[corrupt.length - 20] ^= 0xff;
      await a.batch(space.id, cr.id, [
        {
          operation: 'insert_files',
          files: [
            { ref: 'red', name: 'red.png', contentType: 'image/png', base64: Buffer.from(solidPng(40, 20, [255, 0, 0])).toString('base64') },
            { ref: 'glass', name: 'glass.png', contentType: 'image/png', base64: Buffer.from(solidPng(8, 8, [0, 128, 0, 100], true)).toString('base64') },
            { ref: 'photo', name: 'photo.jpg', contentType: 'image/jpeg', base64: SMALL_JPEG.toString('base64') },
            { ref: 'broken', name: 'broken.png', contentType: 'image/png', base64: Buffer.from(corrupt).toString('base64') },
            { ref: 'gif', name: 'pixel.gif', contentType: 'image/gif', base64: 'R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==' },
          ],
        },
        {
          operation: 'insert_page',
          title: 'Pictures',
          document: md('![red](./red) and ![glass](./glass)\n\n![photo](./photo)\n\n![broken image](./broken) ![a gif](./gif) ![remote](https://example.test/x.png)'),
        },
      ]);
      const { pdf } = await exportPdf(space.id, cr.id);
      // red (RGB), glass (RGB + its alpha as a soft mask), photo (JPEG, passed through).
      expect(pdf.images).toHaveLength(4);
      expect(pdf.images.filter((image) => image.includes('/DCTDecode'))).toHaveLength(1);
      expect(pdf.images.filter((image) => image.includes('/SMask'))).toHaveLength(1);
      expect(pdf.structure).toMatch(/\/XObject <<\s*\/I1 \d+ 0 R/);
      expect(pdf.text).toContain('[broken image]');
      expect(pdf.text).toContain('[a gif]');
      expect(pdf.text).toContain('[remote]');
    });

    it('prints Markdown: inline styles, lists, quotes, code, tables, rules, and text the standard fonts lack in embedded fonts', async () => {
      const space = await a.space();
      const cr = await a.changeRequest(space.id);
      const markdown = [
        'Intro text.',
        '# Overview',
        'Some **bold**, _italic_, `code` and ~~gone~~ text with [a link](https://example.test/docs) and [mail](mailto:a@b.test) and [bad](javascript:alert(1)).',
        '- first\n  - nested item\n    1. deep one\n- [x] done task\n- [ ] open task',
        '3. three\n4. four',
        '> A quoted line.',
        '```js\nconst x = 1;\n\tindented();\n```',
        '| Name | Value |\n| :--- | ---: |\n| alpha | 1 |\n| beta |',
        '---',
        'Arrows → and ✓ and Zoë’s café, ő, 日本.',
        '<div>raw <b>html</b></div>',
        'A note[^1].\n\n[^1]: The footnote.',
        '## Overview',
        'See [the first](#overview) and [the second](#overview-1).',
      ].join('\n\n');
      await a.batch(space.id, cr.id, [{ operation: 'insert_page', title: 'Everything', document: md(markdown) }]);
      const { pdf, bytes } = await exportPdf(space.id, cr.id);
      for (const piece of ['bold', 'italic', 'code', 'gone', 'nested item', '1.', 'deep one', '[x]', '[ ]', '3.', 'four', 'A quoted line.', 'const x = 1;', '    indented();']) {
        expect(pdf.text, piece).toContain(piece);
      }
      expect(pdf.text).toContain('Some bold, italic, code and gone text with a link and mail and bad.');
      // Table rows, their cells on one baseline.
      expect(pdf.text).toContain('NameValue\nalpha1\nbeta\n');
      // Characters beyond WinAnsi are written in the embedded Noto fonts: pdf.js reads them back as written.
      expect((await extractPdf(bytes)).pages.join('\n')).toContain('Arrows → and ✓ and Zoë’s café, ő, 日本.');
      expect(pdf.text).toContain('raw html');
      expect(pdf.text).toContain('The footnote.');
      expect(pdf.structure).toContain('/URI (https://example.test/docs)');
      expect(pdf.structure).toContain('/URI (mailto:a@b.test)');
      expect(pdf.structure).not.toContain('javascript');
      expect(pdf.structure).toContain('/BaseFont /Courier');
      // Anchors jump to the headings of the page, repeated headings numbered as GitHub does.
      expect(pdf.structure).toMatch(/\/D \(page:[^#)]+#overview\)/);
      expect(pdf.structure).toMatch(/\/D \(page:[^#)]+#overview-1\)/);
    });

    it('prints an empty change request as one page saying so, and link pages as where they point', async () => {
      const space = await a.space({ title: 'Empty space' });
      const cr = await a.changeRequest(space.id);
      const empty = await exportPdf(space.id, cr.id);
      expect(empty.url).toMatch(/\/Empty-space\.pdf$/);
      expect(empty.pdf.pages).toBe(1);
      expect(empty.pdf.text).toBe('Empty space\nThere are no pages to print.');
      await a.batch(space.id, cr.id, [
        { operation: 'insert_page', ref: 'home', title: 'Home', document: md('Hello.') },
        { operation: 'insert_page', type: 'link', title: 'Website', target: { kind: 'url', url: 'https://example.test' } },
        { operation: 'insert_page', type: 'link', title: 'Back home', target: { kind: 'page', page: 'home' } },
      ]);
      const linked = await exportPdf(space.id, cr.id);
      expect(linked.pdf.pages).toBe(1);
      expect(linked.pdf.text).toContain('Website\nLink to https://example.test');
      expect(linked.pdf.text).toContain('Back home\nLink to Home');
    });

    it('prints computed pages as the document their specification makes, and renders again for a newer version', async () => {
      // The operation's responses, as the PDF's text holds them.
      const RESPONSES = 'Responses\n200: OK';
      const org = `/v1/orgs/${h().organizationId}`;
      const specOf = (summary: string) =>
        JSON.stringify({ openapi: '3.0.0', info: { title: 'Pets', version: '1' }, paths: { '/pets': { get: { summary, responses: { '200': { description: 'OK' } } } } } });
      expect((await h().owner.post(`${org}/openapi`, { slug: 'pets', source: { text: specOf('List pets') } })).status).toBe(201);
      await h().platform.settle();
      const space = await a.space();
      const cr = await a.changeRequest(space.id);
      const computed = { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } }, props: {} };
      await a.batch(space.id, cr.id, [{ operation: 'insert_page', type: 'computed', title: 'API', computed }]);
      const before = puts.length;
      expect((await exportPdf(space.id, cr.id)).pdf.text).toBe(`API\nGET /pets\nList pets\n${RESPONSES}`);
      await exportPdf(space.id, cr.id);
      expect(puts.length).toBe(before + 1);
      h().clock.advance(1000);
      expect((await h().owner.put(`${org}/openapi/pets`, { source: { text: specOf('List all the pets') } })).status).toBe(200);
      await h().platform.settle();
      expect((await exportPdf(space.id, cr.id)).pdf.text).toBe(`API\nGET /pets\nList all the pets\n${RESPONSES}`);
      // The new version's document (versions keep theirs in the blob store), then the new PDF.
      expect(puts.length).toBe(before + 3);
    });

    it(`refuses an export of more than ${MAX_PDF_PAGES} pages with a 422 naming the limit; a part of it prints`, async () => {
      const space = await a.space();
      const cr = await a.changeRequest(space.id);
      // Groups: the cheapest pages to make, and they print (each its title).
      const api = h().platform.as(h().owner.userId);
      for (let from = 0; from <= MAX_PDF_PAGES; from += 50) {
        const changes = Array.from({ length: Math.min(50, MAX_PDF_PAGES + 1 - from) }, (_, i) => ({ operation: 'insert_page' as const, type: 'group' as const, title: `Part ${from + i}` }));
        await api.updateChangeRequestContent({ spaceId: space.id, changeRequestId: cr.id, changes });
      }
      const refused = await h().owner.get(pdfPath(space.id, cr.id));
      expect(refused.status).toBe(422);
      expect(refused.body.error.message).toBe(`This export would print ${MAX_PDF_PAGES + 1} pages, more than ${MAX_PDF_PAGES}, the most one PDF holds: export a part of it (page)`);
      const first = (await h().owner.get(`${a.contentOf(space.id, cr.id)}`)).body.pages[0].id;
      expect((await exportPdf(space.id, cr.id, `?page=${first}`)).pdf.text).toBe('Part 0');
    }, 60_000);

    it('stops serving the PDF one hour after the request, and refuses an altered URL', async () => {
      const { space, cr } = await fixture();
      const response = await h().owner.get(pdfPath(space.id, cr.id));
      const url: string = response.body.url;
      h().clock.advance(60 * 60 * 1000);
      expect((await download(url)).status).toBe(200);
      h().clock.advance(1000);
      const expired = await download(url);
      expect(expired.status).toBe(404);
      // A new request gives a new hour.
      const again = await h().owner.get(pdfPath(space.id, cr.id));
      expect((await download(again.body.url)).status).toBe(200);
      const [, token, name] = /\/downloads\/([^/]+)\/(.+)$/.exec(again.body.url)!;
      const flipped = `${token.slice(0, 5)}${token[5] === 'A' ? 'B' : 'A'}${token.slice(6)}`;
      for (const altered of [again.body.url.replace(token, flipped), again.body.url.replace(token, `${token}x`), again.body.url.replace(`/${token}/`, `/${token.split('.')[0]}/`)]) {
        expect((await download(altered)).status, altered).toBe(404);
      }
      expect(name).toBe('Fix-the-install-guide.pdf');
    });

    it('renders a revision once, then reuses its PDF; new content or a new subject renders again', async () => {
      const { space, cr } = await fixture();
      const before = puts.length;
      const first = await h().owner.get(pdfPath(space.id, cr.id));
      expect(puts.length).toBe(before + 1);
      h().clock.advance(1000);
      const second = await h().owner.get(pdfPath(space.id, cr.id));
      expect(puts.length).toBe(before + 1);
      // Same PDF, new expiry: another token.
      expect(second.body.url).not.toBe(first.body.url);
      const [a1, a2] = await Promise.all([h().owner.get(pdfPath(space.id, cr.id, '?page=x')), h().owner.get(pdfPath(space.id, cr.id, '?page=x'))]);
      expect([a1.status, a2.status]).toEqual([404, 404]);
      await a.batch(space.id, cr.id, [{ operation: 'insert_page', title: 'Appendix', document: md('More.') }]);
      const changed = await exportPdf(space.id, cr.id);
      expect(puts.length).toBe(before + 2);
      expect(changed.pdf.text).toContain('Appendix');
      h().clock.advance(1000);
      await h().owner.patch(a.changeRequestPath(space.id, cr.id), { subject: 'Renamed: v2 / final' });
      const renamed = await exportPdf(space.id, cr.id);
      expect(renamed.url).toMatch(/\/Renamed-v2-final\.pdf$/);
      expect(puts.length).toBe(before + 3);
      expect(renamed.pdf.structure).toContain('(Renamed: v2 / final)');
    });

    it("prints in the space's language (its /Lang); a new language prints a new PDF", async () => {
      const { space, cr } = await fixture();
      const plain = await exportPdf(space.id, cr.id);
      expect(plain.pdf.structure).not.toContain('/Lang');
      expect((await h().owner.patch(`/v1/spaces/${space.id}`, { language: 'ar' })).status).toBe(200);
      const arabic = await exportPdf(space.id, cr.id);
      expect(arabic.url).not.toBe(plain.url);
      expect(arabic.pdf.structure).toContain('/Lang (ar)');
      // Where the text goes on the page: test/content/pdf-direction.test.ts.
      expect(arabic.pdf.text).toContain('Run the installer.');
    });

    it('lets readers export; refuses only without page, unknown pages, strangers and missing tokens, changing nothing', async () => {
      const { space, cr } = await fixture();
      const reader = await h().user('read');
      expect((await reader.get(pdfPath(space.id, cr.id))).status).toBe(200);
      const stored = await a.stored(space.id);
      const before = puts.length;
      const cases: [string, Caller | null, number, string][] = [
        [pdfPath(space.id, cr.id, '?only=true'), h().owner, 400, 'only: needs page, the id of the page to print'],
        [pdfPath(space.id, cr.id, '?only=yes&page=x'), h().owner, 400, 'only: must be true or false'],
        [pdfPath(space.id, cr.id, '?page=nope'), h().owner, 404, 'No page nope in change request 1'],
        [pdfPath(space.id, cr.id, '?page=nope&only=true'), h().owner, 404, 'No page nope in change request 1'],
        [pdfPath(space.id, 'nope'), h().owner, 404, `No change request nope in space ${space.id}`],
        [pdfPath('nope', cr.id), h().owner, 404, ''],
        [pdfPath(space.id, cr.id), (await h().organization()).owner, 404, ''],
        [pdfPath(space.id, cr.id), null, 401, ''],
      ];
      for (const [path, caller, status, message] of cases) {
        const response = caller ? await caller.get(path) : await h().request('GET', path);
        expect(response.status, path).toBe(status);
        if (message) expect(response.body.error.message).toBe(message);
      }
      expect(await a.stored(space.id)).toEqual(stored);
      expect(puts.length).toBe(before);
    });
  },
  { blobs: countingBlobs() },
);
