import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMarkdown, visitUrls } from '../../src/core/content/markdown.js';
import { embeddableImage } from '../../src/core/content/pdf/images.js';
import { renderPdf } from '../../src/core/content/pdf/render.js';
import type { PrintedPage, PrintSource } from '../../src/core/content/pdf/print-source.js';
import { inspectPdf, SMALL_JPEG, solidPng } from '../http/pdf-inspect.js';
import { runs } from './runs.js';

/**
 * Whatever users write, the PDF export renders: random Markdown (every block kind, nesting, any Unicode,
 * raw text), random page trees, and images that are valid or damaged at random. Every render must finish
 * with a well-formed PDF that has each document on its own pages and every title in its text; damaged
 * images must be refused by the check, never reach pdfkit (where they throw uncaught or loop).
 */

const NUM_RUNS = Number(process.env.PDF_RUNS ?? runs(40));

/** Markdown blocks of every kind the renderer handles, with random text in them. */
const text = fc.string({ unit: 'grapheme', maxLength: 40 });
const block = fc.oneof(
  text,
  text.map((value) => `# ${value}`),
  fc.tuple(fc.integer({ min: 1, max: 6 }), text).map(([depth, value]) => `${'#'.repeat(depth)} ${value}`),
  fc.array(text, { minLength: 1, maxLength: 4 }).map((items) => items.map((item, i) => `${'  '.repeat(i % 3)}- ${item}`).join('\n')),
  fc.array(text, { minLength: 1, maxLength: 3 }).map((items) => items.map((item, i) => `${i + 1}. [${i % 2 ? 'x' : ' '}] ${item}`).join('\n')),
  text.map((value) => `> ${value}\n>\n> > ${value}`),
  fc.tuple(fc.integer({ min: 1, max: 40 }), text).map(([depth, value]) => `${'> '.repeat(depth)}${value}`),
  fc.tuple(fc.integer({ min: 1, max: 30 }), text).map(([depth, value]) => Array.from({ length: depth }, (_, i) => `${'  '.repeat(i)}- ${value}`).join('\n')),
  fc.string({ maxLength: 200 }).map((value) => `\`\`\`\n${value.replace(/```/g, '')}\n\`\`\``),
  fc.array(fc.array(fc.stringMatching(/^[^|\n]{0,12}$/), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }).map((rows) =>
    [`| ${rows[0].join(' | ')} |`, `| ${rows[0].map(() => '---').join(' | ')} |`, ...rows.slice(1).map((row) => `| ${row.join(' | ')} |`)].join('\n'),
  ),
  fc.constantFrom('---', '<div>html <b>bold</b></div>', 'note[^1]\n\n[^1]: footnote', '[ref link][r]\n\n[r]: https://example.test', '**bold _italic `code`_** ~~strike~~'),
  fc.tuple(text, fc.constantFrom('https://example.test', '#anchor', '/pages/p0', '/pages/p1#x', '/files/f0', 'javascript:x', 'relative/path')).map(([label, url]) => `[${label}](${url})`),
  fc.tuple(text, fc.integer({ min: 0, max: 3 })).map(([alt, file]) => `![${alt}](/files/f${file})`),
  fc.string({ unit: 'binary', maxLength: 120 }),
);
const markdown = fc.array(block, { maxLength: 10 }).map((blocks) => blocks.join('\n\n'));

/** A page tree in tree order: each page at most one level below the one before it. */
const tree = fc
  .array(
    fc.record({
      type: fc.constantFrom<PrintedPage['type']>('document', 'document', 'document', 'group', 'link'),
      title: fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,15}$/),
      descend: fc.integer({ min: -2, max: 1 }),
      markdown,
      description: fc.option(text, { nil: undefined }),
    }),
    { maxLength: 6 },
  )
  .map((drafts) => {
    let depth = 0;
    return drafts.map((draft, i): PrintedPage => {
      depth = i === 0 ? 0 : Math.max(0, Math.min(depth + draft.descend, depth + 1));
      const common = { id: `p${i}`, title: draft.title, depth, ...(draft.description && { description: draft.description }) };
      if (draft.type === 'group') return { ...common, type: 'group', body: parseMarkdown('') };
      if (draft.type === 'link') return { ...common, type: 'link', body: parseMarkdown(''), link: i % 2 ? { url: 'https://example.test' } : { page: 'p0', title: 'Zero' } };
      return { ...common, type: 'document', body: parseMarkdown(draft.markdown) };
    });
  });

/** Image files: valid ones, and copies damaged by flipping bytes or cutting them short. */
const image = fc
  .tuple(
    fc.constantFrom(solidPng(6, 4, [10, 20, 30]), solidPng(5, 5, [200, 0, 0, 128], true), new Uint8Array(SMALL_JPEG)),
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { maxLength: 3 }),
    fc.option(fc.nat(), { nil: undefined }),
  )
  .map(([original, flips, cut]) => {
    const bytes = Uint8Array.from(original);
    for (const [at, mask] of flips) bytes[at % bytes.length] ^= mask;
    return cut === undefined ? bytes : bytes.subarray(0, Math.max(8, cut % bytes.length));
  });

describe('PDF rendering of random content', () => {
  it('always renders a well-formed PDF with every title, each document on a page of its own', async () => {
    await fc.assert(
      fc.asyncProperty(tree, fc.array(image, { maxLength: 4 }), async (pages, files) => {
        const images = new Map<string, Uint8Array>();
        for (const [i, bytes] of files.entries()) if (await embeddableImage(bytes)) images.set(`f${i}`, bytes);
        const source: PrintSource = {
          title: 'Random',
          createdAt: '2026-03-01T10:00:00.000Z',
          pages,
          pageUrls: new Map([['p9', 'https://docs.test/app/p9']]),
        };
        const pdf = inspectPdf(await renderPdf(source, images));
        // Documents start a page unless they open their group's page: at least one page per such start.
        const starts = pages.filter((page, i) => page.type === 'document' && pages[i - 1]?.type !== 'group').length;
        expect(pdf.pages).toBeGreaterThanOrEqual(Math.max(1, starts));
        let from = 0;
        for (const page of pages) {
          const at = pdf.text.indexOf(page.title, from);
          expect(at, page.title).toBeGreaterThanOrEqual(0);
          from = at;
        }
        // An accepted image a document shows is embedded (once, however often it is shown); no other is.
        const shown = new Set<string>();
        for (const page of pages) visitUrls(page.body, (node) => node.type === 'image' && images.has(node.url.slice('/files/'.length)) && shown.add(node.url));
        // Soft masks (the alpha of RGBA PNGs) are grey images of their own; the images made here are colour.
        const embedded = pdf.images.filter((dictionary) => !/\/ColorSpace \/DeviceGray/.test(dictionary) || /\/DCTDecode/.test(dictionary));
        expect(embedded.length).toBe(shown.size);
      }),
      { numRuns: NUM_RUNS },
    );
  }, 120_000);

  it('gives the same bytes for the same content', async () => {
    const source: PrintSource = {
      title: 'Same',
      createdAt: '2026-03-01T10:00:00.000Z',
      pages: [{ id: 'p0', type: 'document', title: 'One', depth: 0, body: parseMarkdown('Hello **there**.\n\n| a | b |\n|---|---|\n| 1 | 2 |') }],
      pageUrls: new Map(),
    };
    const images = new Map([['f0', solidPng(3, 3, [1, 2, 3, 4], true)]]);
    expect(await renderPdf(source, images)).toEqual(await renderPdf(source, images));
  });
});
