import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BodyItem } from '../../src/core/content/blocks/model.js';
import { parseBlocks } from '../../src/core/content/blocks/parse.js';
import { markdownToDocument } from '../../src/core/content/document.js';
import { normalizeMarkdown } from '../../src/core/content/markdown.js';
import { outlineOf } from '../../src/core/content/outline.js';
import { anyBlocks, wellFormed } from './blocks/documents.js';
import { renderBody } from '../../src/reader/markdown.js';
import { runs } from './runs.js';

/**
 * Stored Markdown keeps GitBook's blocks: the canonical printer (markdown.ts) gives back the blocks it was
 * given, and printing again changes nothing; and no body, however its tags are broken, makes a reader
 * throw (the outline, the document format, the reader's HTML).
 */

/** The blocks of a body, as kinds and their own fields, without the Markdown between them. */
function blocksOf(items: readonly BodyItem[]): unknown[] {
  return items.flatMap((item) => {
    if (item.kind === 'markdown') return [];
    const { line: _line, children, ...rest } = item;
    return [{ ...rest, children: blocksOf(children) }];
  });
}

describe('GitBook blocks round-trip through the canonical Markdown', () => {
  it('keeps every block of a well-formed body, and printing is stable', () => {
    fc.assert(
      fc.property(wellFormed, (markdown) => {
        const stored = normalizeMarkdown(markdown);
        expect(blocksOf(parseBlocks(stored)), stored).toEqual(blocksOf(parseBlocks(markdown)));
        expect(normalizeMarkdown(stored)).toBe(stored);
      }),
      { numRuns: runs(200) },
    );
  }, 120_000);

  it('reads any body of broken tags without throwing, stably', () => {
    fc.assert(
      fc.property(anyBlocks, (markdown) => {
        const stored = normalizeMarkdown(markdown);
        expect(normalizeMarkdown(stored)).toBe(stored);
        expect(blocksOf(parseBlocks(stored))).toEqual(blocksOf(parseBlocks(markdown)));
        outlineOf(stored);
        markdownToDocument(stored);
        const html = renderBody({ markdown: stored, links: {}, anchors: outlineOf(stored).anchors, pageTitles: {} }, { code: () => 'Code', table: 'Table' }).html;
        expect(html).not.toMatch(/<script|href="javascript:/);
      }),
      { numRuns: runs(200) },
    );
  }, 120_000);
});
