import { beforeEach, expect, it, vi } from 'vitest';
import { markdownOfBody } from '../../src/core/comments/body.js';
import { readPageText } from '../../src/core/content/author/page-text.js';
import { markdownToDocument } from '../../src/core/content/document.js';
import { normalizeMarkdown } from '../../src/core/content/markdown.js';
import { INLINE_MARKDOWN_CHARS } from '../../src/core/content/markdown-work.js';
import { authoring, md } from './authoring.js';
import { commentHelpers } from './comment-helpers.js';
import { httpSuite } from './harness.js';
import { readerHelpers } from './reader/reader-helpers.js';
import { threadLikeWorkers } from './thread-like-workers.js';

/**
 * Bodies longer than INLINE_MARKDOWN_CHARS are parsed as jobs (content/markdown-work.ts), off the event loop
 * on the worker pool. Here the jobs run through a `workers` port that does what the pool does to them (input
 * and output cloned as between threads, errors carried as status and message: thread-like-workers.ts), and
 * notes which ran: each kind of large body is written, read and commented on, and answers what
 * the same function gives on the calling thread; a refused one answers the same 400 and changes nothing.
 */

// mdast reads ~10 KB of a table in about a second on a loaded 2-core machine, and each test reads several.
vi.setConfig({ testTimeout: 60_000 });

const { workers: threadLike, ran } = threadLikeWorkers();
beforeEach(() => {
  ran.length = 0;
});

/** Parts `part(0)`, `part(1)`, ... joined by `between`, up to at least `size` characters. */
function grow(size: number, between: string, part: (i: number) => string): string {
  const parts: string[] = [];
  for (let length = 0; length < size; length += parts.at(-1)!.length + between.length) parts.push(part(parts.length));
  return parts.join(between);
}

/** At least `size` characters of one kind of Markdown; `link` is a URL written in it. */
const KINDS: Record<string, (size: number, link: string) => string> = {
  prose: (size, link) => grow(size, '\n\n', (i) => `Paragraph ${i} has *some* **bold** words, a [link](${link}) and \`code\`.`),
  table: (size, link) => `| a | b | c |\n|:--|--:|---|\n${grow(size, '\n', (i) => `| *x${i}* | [y](${link}) | z ${i} |`)}\n`,
  lists: (size, link) => grow(size, '\n', (i) => `${'  '.repeat(i % 3)}- item ${i} with [a link](${link})`),
  'link references': (size, link) => grow(size, '\n\n', (i) => (i % 2 ? `A [use][r${i - 1}] of it.` : `[r${i}]: ${link}#${i}`)),
};

/** Just over the limit: what is tried is the way a body goes, not how long it takes (bench/markdown-loop-case.ts measures that). */
const LARGE = INLINE_MARKDOWN_CHARS + 1024;

httpSuite(
  'large Markdown bodies, parsed off the event loop',
  (h) => {
    const a = authoring(h);
    const c = commentHelpers(h);
    const r = readerHelpers(h);

    it('writes and reads a large body of each kind as the same function reads it on the calling thread; a short one stays there', async () => {
      const space = await a.space();
      const cr = await a.changeRequest(space.id);
      const [intro] = await c.author(space.id, cr.id, [{ operation: 'insert_page', title: 'Intro', slug: 'intro', document: md('Hello.') }]);
      for (const [kind, make] of Object.entries(KINDS)) {
        for (const size of [INLINE_MARKDOWN_CHARS / 8, LARGE]) {
          ran.length = 0;
          // A path link: resolved to the page's id, which reads the body a second time with its new URL.
          const body = make(size, '/pages/intro');
          const [page] = await c.author(space.id, cr.id, [{ operation: 'insert_page', title: kind, document: md(body) }]);
          const expected = normalizeMarkdown(body.replaceAll('/pages/intro', `/pages/${intro}`));
          expect((await a.page(space.id, cr.id, page, '?format=markdown')).markdown, `${kind} at ${size}`).toBe(expected);
          expect((await a.page(space.id, cr.id, page, '?format=document')).document).toEqual(markdownToDocument(expected));
          expect(ran, `${kind} at ${size}`).toEqual(size > INLINE_MARKDOWN_CHARS ? ['page-text', 'page-text', 'markdown-document'] : []);
        }
      }
    });

    it('reads the links and renders the page of a large body as of a short one', async () => {
      const short = KINDS.prose(INLINE_MARKDOWN_CHARS / 8, '/pages/intro');
      const long = KINDS.prose(LARGE, '/pages/intro');
      const site = await r.publishedSite([
        { title: 'Intro', slug: 'intro', document: md('## Start here\n\nHello.') },
        { title: 'Short', slug: 'short', document: md(`${short}\n\n## Tail\n\nSee [the start](/pages/intro#start-here).`) },
        { title: 'Long', slug: 'long', document: md(`${long}\n\n## Tail\n\nSee [the start](/pages/intro#start-here).`) },
      ]);
      const pages = (await h().owner.get(`/v1/spaces/${site.space}/content`)).body.pages as { id: string; slug: string }[];
      const id = (slug: string) => pages.find((page) => page.slug === slug)!.id;
      const links = async (slug: string) => {
        ran.length = 0;
        const response = await h().owner.get(`/v1/spaces/${site.space}/content/page/${id(slug)}/links`);
        expect(response.status, response.text).toBe(200);
        // The same links, each located in the page itself.
        return { body: JSON.parse(JSON.stringify(response.body).replaceAll(id(slug), 'PAGE')), ran: [...ran] };
      };
      const [shortLinks, longLinks] = [await links('short'), await links('long')];
      expect(longLinks.body).toEqual(shortLinks.body);
      expect(shortLinks.ran).toEqual([]);
      expect(longLinks.ran).toEqual(['markdown-outline']);
      const rendered = async (slug: string) => {
        ran.length = 0;
        const html = await r.page(`${site.url}/${slug}`);
        const tail = html.slice(html.indexOf('id="tail"'));
        return { tail: tail.slice(0, tail.indexOf('</div>')), paragraphs: html.split('<p>').length, ran: [...ran] };
      };
      const [shortPage, longPage] = [await rendered('short'), await rendered('long')];
      expect(longPage.tail).toBe(shortPage.tail);
      expect(longPage.tail).toContain('/intro#start-here">the start</a>');
      expect(longPage.paragraphs).toBeGreaterThan(shortPage.paragraphs);
      // The long body's outline and its HTML are made off the event loop; the short one's on the calling thread.
      expect(shortPage.ran).toEqual([]);
      expect(longPage.ran).toEqual(['markdown-outline', 'reader-body']);
      // Its Markdown version rewrites the same links to .md URLs, the long one off the event loop.
      const markdown = async (slug: string) => {
        ran.length = 0;
        const text = (await r.read(`${site.url}/${slug}.md`)).text;
        return { tail: text.slice(text.indexOf('## Tail')), ran: [...ran] };
      };
      const [shortMarkdown, longMarkdown] = [await markdown('short'), await markdown('long')];
      expect(longMarkdown.tail).toBe(shortMarkdown.tail);
      expect(longMarkdown.tail).toContain(`(${site.url}/intro.md#start-here)`);
      expect(shortMarkdown.ran).toEqual([]);
      expect(longMarkdown.ran).toEqual(['markdown-rewrite-urls']);
    });

    it('converts a large JSON document, and comments on a node of a large page', async () => {
      const space = await a.space();
      const cr = await a.changeRequest(space.id);
      const markdown = KINDS.prose(LARGE, 'https://example.com');
      const document = markdownToDocument(markdown);
      const [page] = await c.author(space.id, cr.id, [{ operation: 'insert_page', title: 'Doc', document: { document } }]);
      expect((await a.page(space.id, cr.id, page, '?format=document')).document).toEqual(document);
      await c.merge(space.id, cr.id);
      ran.length = 0;
      const node = document.nodes.at(-1)!.key!;
      const comment = await c.post(h().owner, `/v1/spaces/${space.id}/comments`, { body: { markdown: 'About the end' }, page, node });
      expect(comment.target).toMatchObject({ page: expect.objectContaining({ id: page }), node: { id: node, preview: expect.stringMatching(/^Paragraph \d+ has some bold words/) } });
      expect(ran).toEqual(['node-preview']);
    });

    it('indexes a long page that an edit adds, changes or removes for search off the event loop; a short one on the calling thread', async () => {
      const space = await a.space();
      const search = async (query: string) => {
        const response = await h().owner.get(`/v1/spaces/${space.id}/search?query=${query}`);
        expect(response.status, response.text).toBe(200);
        return (response.body.items as { id: string }[]).map((hit) => hit.id);
      };
      const [short] = await c.edit(space.id, [{ operation: 'insert_page', title: 'Short', document: md('A zeppelin.') }]);
      ran.length = 0;
      expect(await search('zeppelin')).toEqual([short]);
      expect(ran).toEqual(['buildSearchIndex']);
      // From here on each search updates the index it has with the pages an edit changed.
      const long = KINDS.prose(LARGE, 'https://example.com');
      const [page] = await c.edit(space.id, [{ operation: 'insert_page', title: 'Long', document: md(`${long}\n\nA dirigible.`) }]);
      ran.length = 0;
      expect(await search('dirigible')).toEqual([page]);
      expect(ran).toEqual(['indexPage']);
      await c.edit(space.id, [{ operation: 'update_page', page, document: md(`${long}\n\nA blimp.`) }]);
      await c.edit(space.id, [{ operation: 'update_page', page: short, document: md('A balloon.') }]);
      ran.length = 0;
      expect(await search('blimp')).toEqual([page]);
      expect(await search('dirigible')).toEqual([]);
      expect(await search('balloon')).toEqual([short]);
      // The long page as it was taken out, and as it is put in; the short one on the calling thread.
      expect(ran).toEqual(['indexPage', 'indexPage']);
    });

    it('posts, edits and reads long comments and replies as short ones', async () => {
      const space = await a.space();
      const comments = `/v1/spaces/${space.id}/comments`;
      for (const kind of ['prose', 'table']) {
        ran.length = 0;
        const text = KINDS[kind](LARGE, 'https://example.com/a');
        const posted = await c.post(h().owner, comments, { body: { markdown: text } });
        expect(posted.body.markdown, kind).toBe(markdownOfBody({ markdown: text }));
        const reply = await c.post(h().owner, `${comments}/${posted.id}/replies`, { body: { document: markdownToDocument(text) } });
        expect(reply.body.markdown, kind).toBe(markdownOfBody({ document: markdownToDocument(text) }));
        const edited = await c.put(h().owner, `${comments}/${posted.id}`, { body: { markdown: `${text}\n\nEdited.` } });
        expect(edited.body.markdown, kind).toBe(markdownOfBody({ markdown: `${text}\n\nEdited.` }));
        const read = await h().owner.get(`${comments}/${posted.id}?format=document`);
        expect(read.body.body, kind).toEqual({ document: markdownToDocument(edited.body.markdown) });
        expect(ran, kind).toEqual(['comment-body', 'comment-body', 'comment-body', 'markdown-document']);
      }
    });

    it('refuses a large body beyond the limits, or a malformed large document, with the 400 the calling thread gives; nothing is stored', async () => {
      const space = await a.space();
      const cr = await a.changeRequest(space.id);
      const [page] = await c.author(space.id, cr.id, [{ operation: 'insert_page', title: 'Page', document: md('Fine.') }]);
      const before = await a.stored(space.id);
      const prose = KINDS.prose(LARGE, 'https://example.com');
      const nodes = markdownToDocument(prose).nodes;
      const refused = [
        md(`${prose}\n\n${'*a '.repeat(300)}`),
        md(`${prose}\n\n${'> '.repeat(40)}x`),
        { document: { object: 'document', data: {}, nodes: [...nodes, { object: 'block', type: 'no-such-block', nodes: [] }] } },
        { markdown: `---\ntitle: [unclosed\n---\n\n${prose}` },
      ];
      for (const document of refused) {
        let message = '';
        try {
          readPageText({ document });
        } catch (error) {
          message = (error as Error).message;
        }
        expect(message).not.toBe('');
        for (const change of [{ operation: 'insert_page', title: 'Big', document }, { operation: 'update_page', page, document }]) {
          ran.length = 0;
          const response = await h().owner.post(`${a.contentOf(space.id, cr.id)}`, { changes: [change] });
          expect(response.status, response.text.slice(0, 300)).toBe(400);
          expect(response.body.error.message).toBe(`changes[0] (${change.operation}): ${message}`);
          expect(ran).toEqual(['page-text']);
        }
      }
      expect(await a.stored(space.id)).toEqual(before);
    });

    it('merges two edits of a large body and stores the combined text normalized', async () => {
      const space = await a.space();
      const lines = KINDS.prose(LARGE, 'https://example.com').split('\n\n');
      const [page] = await c.edit(space.id, [{ operation: 'insert_page', title: 'Big', document: md(lines.join('\n\n')) }]);
      const first = await a.changeRequest(space.id);
      const second = await a.changeRequest(space.id);
      const edited = (at: number, text: string) => lines.map((line, i) => (i === at ? text : line));
      await a.batch(space.id, first.id, [{ operation: 'update_page', page, document: md(edited(0, '* First edit').join('\n\n')) }]);
      await a.batch(space.id, second.id, [{ operation: 'update_page', page, document: md(edited(lines.length - 1, '* Last edit').join('\n\n')) }]);
      await c.merge(space.id, first.id);
      ran.length = 0;
      await c.merge(space.id, second.id);
      expect(ran).toContain('merged-body');
      const both = edited(0, '* First edit');
      both[lines.length - 1] = '* Last edit';
      expect((await a.page(space.id, undefined, page, '?format=markdown')).markdown).toBe(normalizeMarkdown(both.join('\n\n')));
    });
  },
  { workers: threadLike },
);
