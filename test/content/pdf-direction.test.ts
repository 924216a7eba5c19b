import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../src/core/content/markdown.js';
import type { FontFiles } from '../../src/core/content/pdf/font-chain.js';
import { loadFontFiles } from '../../src/core/content/pdf/font-files.js';
import type { PrintSource } from '../../src/core/content/pdf/print-source.js';
import { renderPdf } from '../../src/core/content/pdf/render.js';
import { FONT_FAMILIES } from '../../src/core/content/pdf/scripts.js';
import { notoPdfFonts } from '../../src/pdf-fonts.js';
import { inspectPdf } from '../http/pdf-inspect.js';

/**
 * A PDF of a space written right to left (its `language` is `ar` or `he`) prints mirrored: paragraphs end
 * at the right margin, list markers and table columns start from the right; its /Lang is the space's
 * language. Without a language, the same body prints left to right, with no /Lang.
 */

/** A4's width and the margin, in points. */
const WIDTH = 595.28;
const MARGIN = 56.7;

const BODY = 'مرحبا بالعالم\n\n1. واحد\n2. اثنان\n\n| الاسم | القيمة |\n| --- | --- |\n| أكواب | ٤ |\n';

const source = (language?: string): PrintSource => ({
  title: 'الدليل',
  createdAt: '2026-01-01T00:00:00.000Z',
  pages: [{ id: 'p1', type: 'document', title: 'مرحبا', depth: 0, body: parseMarkdown(BODY) }],
  pageUrls: new Map(),
  ...(language !== undefined && { language }),
});

/** Each text item of the first page with where it starts and ends, as pdf.js reads them. */
async function placed(bytes: Uint8Array): Promise<{ text: string; left: number; right: number }[]> {
  const doc = await getDocument({ data: bytes.slice(), useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const content = await (await doc.getPage(1)).getTextContent();
    return content.items.flatMap((item) => ('str' in item && item.str.trim() !== '' ? [{ text: item.str.trim(), left: item.transform[4], right: item.transform[4] + item.width }] : []));
  } finally {
    await doc.destroy();
  }
}

let fonts: FontFiles;
beforeAll(async () => {
  fonts = await loadFontFiles(notoPdfFonts(), FONT_FAMILIES);
});

describe('PDF direction', () => {
  it('prints a right-to-left space mirrored, with its /Lang', { timeout: 30_000 }, async () => {
    const rtl = await renderPdf(source('ar'), new Map(), fonts);
    expect(inspectPdf(rtl).structure).toContain('/Lang (ar)');
    const items = await placed(rtl);
    const find = (text: string) => items.find((item) => item.text.includes(text))!;
    // The title and a paragraph end at the right margin.
    for (const text of ['مرحبا', 'بالعالم']) expect(find(text).right, text).toBeGreaterThan(WIDTH - MARGIN - 2);
    // A list's number sits to the right of its item's text; a table's first column to the right of its second
    // (pdf.js reads a lam-alef ligature back as two alefs, so the cells compared have none).
    expect(find('1.').left).toBeGreaterThan(find('واحد').right);
    expect(find('أكواب').left).toBeGreaterThan(find('٤').right);
  });

  it('prints the same body left to right without a language, with no /Lang', { timeout: 30_000 }, async () => {
    const ltr = await renderPdf(source(), new Map(), fonts);
    expect(inspectPdf(ltr).structure).not.toContain('/Lang');
    const items = await placed(ltr);
    const find = (text: string) => items.find((item) => item.text.includes(text))!;
    expect(find('1.').left).toBeLessThan(MARGIN + 2);
    expect(find('1.').right).toBeLessThan(find('واحد').left);
    expect(find('أكواب').right).toBeLessThan(find('٤').left);
    // Hebrew is right to left too.
    expect((await placed(await renderPdf(source('he'), new Map(), fonts))).find((item) => item.text.includes('بالعالم'))!.right).toBeGreaterThan(WIDTH - MARGIN - 2);
  });
});
