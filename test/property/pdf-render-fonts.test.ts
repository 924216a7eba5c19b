import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { parseMarkdown } from '../../src/core/content/markdown.js';
import type { FontFiles } from '../../src/core/content/pdf/font-chain.js';
import { loadFontFiles } from '../../src/core/content/pdf/font-files.js';
import { renderPdf } from '../../src/core/content/pdf/render.js';
import { FONT_FAMILIES } from '../../src/core/content/pdf/scripts.js';
import { notoPdfFonts } from '../../src/pdf-fonts.js';
import { inspectPdf } from '../http/pdf-inspect.js';
import { runs } from './runs.js';

/**
 * Whatever users write, the PDF export renders it with every embedded font at hand: any Unicode (graphemes,
 * lone surrogates, control characters, Hebrew and Arabic with their marks) in titles, headings, paragraphs and
 * table cells gives a well-formed PDF, never an exception from the font chain, pdfkit or fontkit's shaping.
 */

const NUM_RUNS = Number(process.env.PDF_RUNS ?? runs(25));

const rtl = fc.string({ unit: fc.integer({ min: 0x0590, max: 0x06ff }).map((code) => String.fromCodePoint(code)), maxLength: 30 });
const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 60 }), rtl);
const cell = (value: string) => value.replace(/[|\n\r]/g, '');

let fonts: FontFiles;
beforeAll(async () => {
  fonts = await loadFontFiles(notoPdfFonts(), FONT_FAMILIES);
});

it('renders any text with the embedded fonts into a well-formed PDF', { timeout: 120_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(text, { maxLength: 6 }), async (blocks) => {
      const markdown = blocks
        .map((block, i) => (i % 3 === 0 ? `# ${block}` : i % 3 === 1 ? `| ${cell(block)} | x |\n| --- | --- |\n| ${cell(block)} | y |` : block))
        .join('\n\n');
      const page = { id: 'p', type: 'document' as const, title: blocks[1] ?? 'Title', depth: 0, body: parseMarkdown(markdown) };
      const pdf = await renderPdf({ title: blocks[0] ?? 'Export', createdAt: '2026-01-01T00:00:00.000Z', pages: [page], pageUrls: new Map() }, new Map(), fonts);
      expect(inspectPdf(pdf).pages).toBeGreaterThan(0);
    }),
    { numRuns: NUM_RUNS },
  );
});
