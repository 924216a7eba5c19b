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

describe('the depth scan', () => {
  it('counts at least as deep as mdast and markdown-it nest', () => {
    fc.assert(
      fc.property(hostileMarkdown(40), (markdown) => {
        const scanned = markdownNesting(markdown).depth;
        // Past the limit the scan stops at the first line beyond it: only whether it is beyond counts.
        const counted = scanned > MAX_MARKDOWN_DEPTH ? Infinity : scanned;
        expect(counted).toBeGreaterThanOrEqual(mdastNesting(rawMdast(markdown)));
        expect(counted).toBeGreaterThanOrEqual(markdownItNesting(markdown));
      }),
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
