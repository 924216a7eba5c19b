import fc from 'fast-check';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../src/core/content/markdown.js';
import { boundedMarkdown, markdownExcess, markdownNesting, MAX_MARKDOWN_DEPTH } from '../../src/core/content/markdown-limits.js';
import { outlineOf } from '../../src/core/content/outline.js';
import { hostileMarkdown } from './markdown/hostile.js';
import { markdownItNesting, mdastNesting } from './markdown/nesting.js';

/**
 * The depth limit's scan (content/markdown-limits.ts) must never count less than either parser nests: it
 * decides, before they run, what they may be given. Checked on generated hostile Markdown against mdast
 * (unbounded) and markdown-it; and a body bounded for reading must be within the limits and parse.
 * MARKDOWN_LIMITS_RUNS sets the number of runs (default 300; try 20000 for a deeper search).
 */

const NUM_RUNS = Number(process.env.MARKDOWN_LIMITS_RUNS ?? 300);

/** mdast without the bound parseMarkdown puts first (the texts are small enough for it). */
const rawMdast = (markdown: string) => fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });

/** The scan counts at least as deep as either parser nests. */
function expectScanCoversParsers(markdown: string): void {
  const scanned = markdownNesting(markdown).depth;
  // Past the limit the scan stops at the first line beyond it: only whether it is beyond counts.
  const counted = scanned > MAX_MARKDOWN_DEPTH ? Infinity : scanned;
  expect(counted, `mdast on ${JSON.stringify(markdown)}`).toBeGreaterThanOrEqual(mdastNesting(rawMdast(markdown)));
  expect(counted, `markdown-it on ${JSON.stringify(markdown)}`).toBeGreaterThanOrEqual(markdownItNesting(markdown));
}

/** Bodies the property found the scan undercounting once (fixed since): the parsers read them two ways, or pair delimiters otherwise than greedily. */
const FOUND = [
  // A footnote definition where a quote's paragraph would go on lazily, then tab-indented quotes.
  '>->\n[^a]: \n\t>>>***',
  // An empty item numbered 2 after an item that interrupts a paragraph: text to micromark, an item to markdown-it.
  ')\n* 2. \nhttps://x.test\n  >>](#a "t")',
  // The rule of 3: `**` may both open and close, and does not close `*`.
  '*</b>\n<b>**\\*\n](u)***',
  // Emphasis in a link's text pairs within it; a code span's delimiters are text.
  '*a [b*](u) [*c*](u) d*',
  '*a `*` [*b*](u)*',
  '*a <b title="*"> [*c*](u) d*',
  // After indented code, micromark reads the empty item after `+ ` as text, so the next line is lazy.
  '    *\n+ + \na\n    >_</b>_',
  // micromark reads no escape in a bare URL.
  '*https://x.test\\**<b>***',
  'https://x.test*~ </b>*',
  // A tab after a list marker in a quote: markdown-it finds fewer columns after the marker.
  '> >-\t*\n>>    >>',
  // markdown-it reads a table's header where micromark reads a fence.
  '~~~|*\n|---|---|\n>',
  // A quote marker after 4 spaces: micromark reads a lazy line, markdown-it a marker.
  '>>>a\n    >- [</b>](u)',
  // An empty footnote definition leaves no paragraph to micromark: the tag after it starts an HTML block.
  '[^a]: \n<span>\n```\n\n>>*',
  // A tab after a marker: markdown-it may read indented code there (then the tag after starts an HTML block).
  '> * \tx_y\n<span>\n~~~\n\n>>>',
];

describe('the depth scan', () => {
  it.each(FOUND)('counts at least as deep as the parsers nest %j', (markdown) => expectScanCoversParsers(markdown));

  it('counts at least as deep as mdast and markdown-it nest', () => {
    fc.assert(
      fc.property(hostileMarkdown(40), expectScanCoversParsers),
      { numRuns: NUM_RUNS },
    );
  }, 60_000 + NUM_RUNS * 20);

  it('bounds any body within the limits, unchanged when it was, and both parsers read it', () => {
    fc.assert(
      fc.property(hostileMarkdown(3000), (markdown) => {
        const bounded = boundedMarkdown(markdown);
        expect(markdownExcess(bounded)).toBeUndefined();
        if (markdownExcess(markdown) === undefined) expect(bounded).toBe(markdown);
        expect(mdastNesting(parseMarkdown(markdown))).toBeLessThanOrEqual(MAX_MARKDOWN_DEPTH);
        outlineOf(markdown);
      }),
      { numRuns: Math.ceil(NUM_RUNS / 10) },
    );
  }, 60_000 + NUM_RUNS * 100);
});
