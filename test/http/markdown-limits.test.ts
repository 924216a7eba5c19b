import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/adapters/fetch/index.js';
import { MAX_MARKDOWN_DEPTH, MAX_PARAGRAPH_DELIMITERS } from '../../src/core/content/markdown-limits.js';
import { TABLES } from '../../src/core/records.js';
import { authoring, md } from './authoring.js';
import { commentHelpers } from './comment-helpers.js';
import { httpSuite } from './harness.js';
import { startImportSources, type ImportSourceServer } from './import-sources.js';
import { inspectPdf } from './pdf-inspect.js';
import { readerHelpers } from './reader/reader-helpers.js';

/**
 * The limits of Markdown (content/markdown-limits.ts) through the API: every write that takes Markdown
 * (authoring, comments and replies, imports) refuses a body that nests too deep or crowds a paragraph with
 * delimiters, with a 400 that names the limit and nothing stored; a body stored before the limits existed
 * still reads, converts, renders, indexes and exports.
 */

let web: ImportSourceServer;
beforeAll(async () => {
  web = await startImportSources();
});
afterAll(async () => {
  await web.close();
});

/** `>`×50,000: a 500 after 25 s before the limit. */
const QUOTES = `${'>'.repeat(50_000)} x`;
/** A list nested 600 deep: stored before the limit, then 12.8 s to parse. */
const LIST = Array.from({ length: 600 }, (_, i) => `${'  '.repeat(i)}- x`).join('\n');
/** 50,000 emphasis runs and a line of 100,000 `_`: stored after holding the server 125 s before the limit. */
const CROWDED = `${'*a'.repeat(50_000)}\n${'_'.repeat(100_000)}`;

/**
 * Within the limits as sent; its canonical spelling puts the lone tag's HTML block after a blank line, where
 * the scan counts its lines as Markdown (33 open strikethrough delimiters). Found by fuzzing normalization.
 */
const STORED_BEYOND = `-     >[\n<span>\n${'~'.repeat(MAX_MARKDOWN_DEPTH + 1)}a`;
const TOO_DEEP = new RegExp(`nests \\d+ levels deep; Markdown may nest at most ${MAX_MARKDOWN_DEPTH} `);
const TOO_CROWDED = new RegExp(`holds more than ${MAX_PARAGRAPH_DELIMITERS} emphasis, strikethrough and bracket delimiters`);

/** A JSON document of `levels` block quotes, one inside the other, as JSON text (deeper than JSON.stringify goes). */
function quotedDocument(levels: number): string {
  const paragraph = '{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[]}]}]}';
  return `{"object":"document","data":{},"nodes":[${'{"object":"block","type":"blockquote","nodes":['.repeat(levels)}${paragraph}${']}'.repeat(levels)}]}`;
}

/** Request options that send a JSON text as it is. */
const raw = (json: string) => ({ rawBody: json, headers: { 'content-type': 'application/json' } });

httpSuite(
  'Markdown limits',
  (h) => {
    const a = authoring(h);
    const c = commentHelpers(h);
    const r = readerHelpers(h);

    it('refuses insert_page and update_page bodies beyond the limits with a 400 that names them; nothing is stored', async () => {
      const space = await a.space();
      const cr = await a.changeRequest(space.id);
      const made = await a.batchWithChanges(space.id, cr.id, [{ operation: 'insert_page', title: 'Page', document: md('Fine.') }]);
      const page = made.changes[0].page.id;
      const before = await a.stored(space.id);
      const refusals: [string, RegExp][] = [
        [JSON.stringify(md(QUOTES)), /^changes\[0\] \((insert|update)_page\): document\.markdown: line 1 nests 50000 levels deep; Markdown may nest at most 32 /],
        [JSON.stringify(md(LIST)), /document\.markdown: line 33 nests 33 levels deep/],
        [JSON.stringify(md(CROWDED)), new RegExp(`document\\.markdown: the paragraph at line 1 ${TOO_CROWDED.source}`)],
        [JSON.stringify(md(`${'['.repeat(50_000)}`)), TOO_DEEP],
        [`{"document":${quotedDocument(100)}}`, /document: nodes nest more than 72 levels deep, the most a document may$/],
        // Deeper than the request pipeline reads JSON.
        [`{"document":${quotedDocument(15_000)}}`, /^changes: must be nested at most 256 levels deep$/],
        [`{"document":${quotedDocument(MAX_MARKDOWN_DEPTH + 1)}}`, /document\.document \(as Markdown\): line 1 nests 33 levels deep/],
        // Within the limits as sent, beyond them as it would be stored (then refused when written back as read).
        [JSON.stringify(md(STORED_BEYOND)), /document\.markdown \(as stored\): line 6 nests 33 levels deep/],
      ];
      for (const [document, message] of refusals) {
        for (const change of [`{"operation":"insert_page","title":"Deep","document":${document}}`, `{"operation":"update_page","page":"${page}","document":${document}}`]) {
          h().clock.advance(1000);
          const response = await h().owner.post(`${a.contentOf(space.id, cr.id)}`, undefined, raw(`{"changes":[${change}]}`));
          expect(response.status, response.text.slice(0, 300)).toBe(400);
          expect(response.body.error.message).toMatch(message);
        }
      }
      expect(await a.stored(space.id)).toEqual(before);
      // At the limit, a body is taken.
      await a.batch(space.id, cr.id, [{ operation: 'update_page', page, document: md(`${'> '.repeat(MAX_MARKDOWN_DEPTH)}x`) }]);
    });

    it('refuses comments and replies beyond the limits from a commenter; nothing is stored', async () => {
      const { space } = await c.spaceWithPages([{ title: 'A', markdown: 'a' }]);
      const commenter = await h().user('comment');
      const comments = `/v1/spaces/${space.id}/comments`;
      const comment = await c.post(commenter, comments, { body: { markdown: 'A fine comment' } });
      const replies = `${comments}/${comment.id}/replies`;
      const reply = await c.post(commenter, replies, { body: { markdown: 'A fine reply' } });
      const before = await c.stored();
      for (const [body, message] of [
        [JSON.stringify({ markdown: `${'>'.repeat(2000)} x` }), /^body\.markdown: line 1 nests 2000 levels deep; Markdown may nest at most 32 /],
        [JSON.stringify({ markdown: `${'*a'.repeat(9000)}` }), new RegExp(`^body\\.markdown: the paragraph at line 1 ${TOO_CROWDED.source}`)],
        [`{"document":${quotedDocument(MAX_MARKDOWN_DEPTH + 1)}}`, /^body\.document \(as Markdown\): line 1 nests 33 levels deep/],
        [`{"document":${quotedDocument(100)}}`, /^body\.document: nodes nest more than 72 levels deep/],
        [JSON.stringify({ markdown: STORED_BEYOND }), /^body\.markdown \(as stored\): line 6 nests 33 levels deep/],
      ] as const) {
        for (const [method, path] of [
          ['post', comments],
          ['put', `${comments}/${comment.id}`],
          ['post', replies],
          ['put', `${replies}/${reply.id}`],
        ] as const) {
          h().clock.advance(1000);
          const response = await commenter[method](path, undefined, raw(`{"body":${body}}`));
          expect(response.status, `${method} ${path}: ${response.text.slice(0, 300)}`).toBe(400);
          expect(response.body.error.message).toMatch(message);
        }
      }
      expect(await c.stored()).toEqual(before);
    });

    it('refuses imports of Markdown, of a zip and of HTML that go beyond the limits; nothing is stored', async () => {
      const space = await a.space();
      const before = await a.stored(space.id);
      const deepHtml = `<html><body>${'<blockquote>'.repeat(40)}x</body></html>`;
      const sources: [Record<string, unknown>, RegExp][] = [
        [{ source: 'markdown', url: web.serve('/deep.md', { body: QUOTES, type: 'text/markdown' }) }, /^url: http:\/\/127\.0\.0\.1:\d+\/deep\.md: line 1 nests 50000 levels deep/],
        [{ source: 'markdown', url: web.serve('/crowded.md', { body: CROWDED, type: 'text/markdown' }) }, TOO_CROWDED],
        [{ source: 'zip', url: web.serve('/docs.zip', { body: zipSync({ 'README.md': strToU8('# Home\n'), 'deep.md': strToU8(LIST) }), type: 'application/zip' }) }, /docs\.zip: deep\.md: line 33 nests 33 levels deep/],
        [{ source: 'html', url: web.serve('/deep.html', { body: deepHtml, type: 'text/html' }) }, /deep\.html: its content nests more than 32 levels deep/],
        [{ source: 'html', url: web.serve('/deeper.html', { body: `<html><body>${'<div>'.repeat(20_000)}x</body></html>`, type: 'text/html' }) }, /deeper\.html nests elements more than 256 levels deep/],
      ];
      for (const [body, message] of sources) {
        h().clock.advance(1000);
        const response = await h().owner.post(`${a.contentOf(space.id)}/import`, body);
        expect(response.status, response.text.slice(0, 300)).toBe(400);
        expect(response.body.error.message).toMatch(message);
      }
      expect(await a.stored(space.id)).toEqual(before);
    });

    it('reads, converts, indexes, exports and renders a deep body stored before the limits, without an error', async () => {
      const legacy = [`${'>'.repeat(5000)} quoted`, Array.from({ length: 200 }, (_, i) => `${'  '.repeat(i)}- item`).join('\n'), `${'*a'.repeat(2000)}`, '## After', 'The end.'].join('\n\n');
      const spaceId = await r.spaceWith('Guide', []);
      const cr = await a.changeRequest(spaceId);
      const made = await a.batchWithChanges(spaceId, cr.id, [{ operation: 'insert_page', title: 'Deep', document: md('placeholder') }]);
      const pageId = made.changes[0].page.id;
      const { documentId } = await a.page(spaceId, cr.id, pageId);
      // Written straight into the store, as a body stored before the limits existed.
      await h().platform.store.write(async (tx) => {
        const record = await tx.get(TABLES.contentDocuments, documentId);
        await tx.put(TABLES.contentDocuments, { ...record!, markdown: legacy });
      });

      expect((await a.page(spaceId, cr.id, pageId, '?format=markdown')).markdown).toBe(legacy);
      const { document } = await a.page(spaceId, cr.id, pageId, '?format=document');
      // The deep parts read as code blocks holding their text; the rest as it was.
      // (The blank line after the list is inside it, as deep: its lines and the crowded paragraph make one block.)
      expect(document.nodes.map((node: any) => node.type)).toEqual(['code', 'list-unordered', 'code', 'heading-2', 'paragraph']);
      expect(document.nodes[0].nodes[0].nodes[0].leaves[0].text).toBe(`${'>'.repeat(5000)} quoted`);

      const pdf = await h().owner.get(`${a.changeRequestPath(spaceId, cr.id)}/pdf`);
      expect(pdf.status, pdf.text).toBe(200);
      const downloaded = await createFetchHandler(h().platform)(new Request(pdf.body.url));
      expect(downloaded.status).toBe(200);
      expect(inspectPdf(new Uint8Array(await downloaded.arrayBuffer())).text).toContain('The end.');

      await c.merge(spaceId, cr.id);
      const search = await h().owner.get(`/v1/spaces/${spaceId}/search?query=quoted`);
      expect(search.status, search.text).toBe(200);
      expect(search.body.items.map((item: any) => item.id)).toEqual([pageId]);

      const site = await r.createSite({ title: 'Handbook', spaces: [spaceId] });
      await r.publish(site.id);
      const html = await r.page((await r.published(site.id)).site.urls.published);
      // The deep part reads as a code block: a focusable, labelled region holding the text as it was.
      expect(html).toMatch(/<pre class="code" tabindex="0" role="region" aria-label="[^"]+"><code class="hljs">/);
      expect(html.includes(`<code class="hljs">${'&gt;'.repeat(5000)} quoted</code></pre>`)).toBe(true);
      expect(html).toMatch(/<h2 id="after">/);
    });
  },
  // The import sources are served on 127.0.0.1, which outbound fetches reach only when allowed.
  { fetchAllow: ['127.0.0.1'] },
);
