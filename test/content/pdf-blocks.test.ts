import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../src/core/content/markdown.js';
import { renderPdf } from '../../src/core/content/pdf/render.js';
import type { PrintSource } from '../../src/core/content/pdf/print-source.js';
import { BLOCKS_BODY } from './blocks-body.js';
import { extractPdf } from './pdf-extract.js';

/** GitBook's blocks in a PDF export: what they hold, under their labels and titles, and never their syntax. */

const source = (markdown: string): PrintSource => ({
  title: 'Blocks',
  createdAt: '2026-01-01T00:00:00.000Z',
  pages: [{ id: 'p1', type: 'document', title: 'Blocks', depth: 0, body: parseMarkdown(markdown) }],
  pageUrls: new Map(),
});

describe('PDF export of GitBook blocks', () => {
  it('prints hints and alerts under their label, tabs as titled sections, code under its title, links for embeds and files', { timeout: 30_000 }, async () => {
    const pdf = await renderPdf(source(`${BLOCKS_BODY}\n\n{% content-ref url="https://example.com/guide" %}\n[The guide](https://example.com/guide)\n{% endcontent-ref %}`), new Map());
    const extracted = await extractPdf(pdf);
    const text = extracted.pages.join('\n');
    for (const expected of ['Warning', 'Careful now.', 'macOS', 'In a tab.', 'Linux', 'config.toml', '[server]', 'port = 8080', 'More', 'Hidden', 'Mind it.', 'https://example.com/video', 'File: a.pdf', 'The caption', 'The guide']) {
      expect(text, expected).toContain(expected);
    }
    // The tabs come one after another, the first first.
    expect(text.indexOf('macOS')).toBeLessThan(text.indexOf('In a tab.'));
    expect(text.indexOf('In a tab.')).toBeLessThan(text.indexOf('Linux'));
    expect(text).not.toMatch(/\{%|\[!WARNING\]|<details>|<summary>/);
    expect(extracted.links.flat()).toEqual(expect.arrayContaining([{ url: 'https://example.com/video' }, { url: 'https://example.com/a.pdf' }, { url: 'https://example.com/guide' }]));
  });
});
