import { beforeAll, describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../src/core/content/markdown.js';
import type { FontFiles } from '../../src/core/content/pdf/font-chain.js';
import { loadFontFiles } from '../../src/core/content/pdf/font-files.js';
import { renderPdf } from '../../src/core/content/pdf/render.js';
import { FONT_FAMILIES } from '../../src/core/content/pdf/scripts.js';
import type { PrintedPage, PrintSource } from '../../src/core/content/pdf/print-source.js';
import { notoPdfFonts } from '../../src/pdf-fonts.js';
import { inspectPdf } from '../http/pdf-inspect.js';
import { extractPdf } from './pdf-extract.js';

/**
 * PDFs in every script: text in Latin, Cyrillic, Greek, Hebrew, Arabic, Japanese, Chinese and Korean prints in
 * the embedded Noto fonts and reads back (pdf.js) as written; each font is embedded as a subset of the glyphs
 * used; pages carry numbers, the outline follows the page tree and links between pages jump inside the PDF.
 */

/** The strings of each script, each a paragraph of its own. Right-to-left ones are read back word by word (see below). */
const SCRIPTS = {
  latin: 'Łódź, Kraków and Český Krumlov',
  cyrillic: 'Привет, мир! Съешь же ещё этих булок',
  greek: 'Καλημέρα κόσμε, ξεσκεπάζω',
  japanese: '日本語のテキストを込み入った',
  chinese: '简体中文的文本测试',
  traditional: '繁體中文也應該可以顯示',
  korean: '한국어 텍스트',
  hebrew: 'שלום עולם',
  arabic: 'مرحبا بالعالم',
} as const;

const page = (id: string, title: string, depth: number, markdown: string): PrintedPage => ({ id, type: 'document', title, depth, body: parseMarkdown(markdown) });
const source = (pages: PrintedPage[]): PrintSource => ({ title: 'Every script', createdAt: '2026-01-01T00:00:00.000Z', pages, pageUrls: new Map() });

let fonts: FontFiles;
beforeAll(async () => {
  fonts = await loadFontFiles(notoPdfFonts(), FONT_FAMILIES);
});

describe('PDF export in every script', () => {
  it('reads back the original strings of each script, bold and in headings too; each font a subset', { timeout: 30_000 }, async () => {
    const body = [
      ...Object.values(SCRIPTS),
      `**${SCRIPTS.cyrillic}** and _${SCRIPTS.greek}_`,
      `## ${SCRIPTS.japanese}`,
      '| 表 | Таблица |\n| --- | --- |\n| 한국 | שלום |',
      '```\nconst 名前 = "Ελλάδα";\n```',
    ].join('\n\n');
    const pdf = await renderPdf(source([page('p1', `Заголовок ${SCRIPTS.chinese}`, 0, body)]), new Map(), fonts);
    const text = (await extractPdf(pdf)).pages.join('\n');
    for (const [script, value] of Object.entries(SCRIPTS)) {
      // pdf.js reads right-to-left text in visual order, a word at a time: each word reads as written.
      const parts = script === 'hebrew' || script === 'arabic' ? value.split(' ') : [value];
      for (const part of parts) expect(text, script).toContain(part);
    }
    expect(text).toContain(`Заголовок ${SCRIPTS.chinese}`);
    expect(text).toContain('Таблица');
    expect(text).toContain('const 名前 = "Ελλάδα";');
    // No character fell back to `?`.
    expect(text).not.toContain('?');
    // Each embedded font is a subset (a six-letter tag before its name) and the whole PDF is small, where the
    // CJK font alone is 8 MB.
    const { structure } = inspectPdf(pdf);
    const embedded = [...structure.matchAll(/\/BaseFont \/([A-Z]{6}\+[\w-]+)/g)].map((match) => match[1]!.slice(7));
    expect(new Set(embedded)).toEqual(new Set(['NotoSans-Regular', 'NotoSans-Bold', 'NotoSans-Italic', 'NotoSansHebrew', 'NotoNaskhArabic', 'NotoSansHans-Regular', 'NotoSansHans-Bold', 'NotoSansKR-Regular']));
    expect(pdf.length).toBeLessThan(300_000);
  });

  it('embeds no font for Western European text, and reads it back all the same', async () => {
    const pdf = await renderPdf(source([page('p1', 'Café', 0, 'Zoë’s naïve résumé — “quoted” €5')]), new Map(), fonts);
    expect(inspectPdf(pdf).structure).not.toMatch(/\/FontFile/);
    expect((await extractPdf(pdf)).pages[0]).toContain('Zoë’s naïve résumé — “quoted” €5');
  });

  it('numbers pages, nests the outline like the page tree, and links pages inside the PDF', async () => {
    const long = Array.from({ length: 90 }, (_, i) => `Paragraph ${i} of a long page that runs over several PDF pages.`).join('\n\n');
    const pdf = await renderPdf(
      source([
        page('guide', 'Руководство', 0, `See [the setup](/pages/setup) and [its install step](/pages/setup#install).\n\n${long}`),
        page('setup', 'セットアップ', 1, '## Install\n\nBack to [the guide](/pages/guide).'),
        page('linux', 'Linux', 2, 'Deep page.'),
        page('faq', 'FAQ', 0, `Last page.\n\n${'日本語 Привет '.repeat(600)}`),
      ]),
      new Map(),
      fonts,
    );
    const read = await extractPdf(pdf);
    const count = read.pages.length;
    expect(count).toBeGreaterThan(5);
    // A paragraph of two scripts that runs over a page break goes on in its fonts on the next page.
    const mixed = read.pages.filter((text) => text.includes('日本語 Привет'));
    expect(mixed.length).toBeGreaterThan(1);
    for (const text of mixed) expect(text.replace(/日本語|Привет|FAQ|Last page\.|\d+|\s/g, '')).toBe('');
    // Every page shows its number, first (it is written as the page is added).
    read.pages.forEach((text, i) => expect(text.split('\n')[0]).toBe(String(i + 1)));
    expect(read.outline).toEqual([
      { title: 'Руководство', items: [{ title: 'セットアップ', items: [{ title: 'Linux', items: [] }] }] },
      { title: 'FAQ', items: [] },
    ]);
    const setupPage = read.pages.findIndex((text) => text.includes('セットアップ')) + 1;
    expect(read.links[0]).toEqual([{ page: setupPage }, { page: setupPage }]);
    expect(read.links[setupPage - 1]).toEqual([{ page: 1 }]);
  });
});
