import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockChanges, revertBlocks } from '../../src/core/content/author/revert-blocks.js';
import { markdownToDocument } from '../../src/core/content/document.js';
import { normalizeMarkdown } from '../../src/core/content/markdown.js';
import { runs } from './runs.js';

/**
 * Reverting blocks of a body (revert_page with `block`), on generated bodies made of a few repeated
 * blocks (so that bodies share blocks, in other orders): the changes between two block lists are what a
 * longest common subsequence leaves out; reverting every change gives the earlier body; reverting the
 * blocks of one change leaves every other block where it was.
 */

const NUM_RUNS = runs(300);

/** Blocks whose Markdown stands alone (no lists: two lists in a row read as one). */
const BLOCKS = ['Alpha.', 'Beta **bold**.', '## Gamma', '### Delta', '```js\ncode();\n```', '> Quoted.', '***', '| a | b |\n| - | - |\n| 1 | 2 |'];

const bodyArb = fc.array(fc.constantFrom(...BLOCKS), { maxLength: 8 }).map((blocks) => ({ blocks, markdown: blocks.join('\n\n') }));

/** Every key of a body's document form, top-level block by top-level block. */
const keysByBlock = (markdown: string) =>
  markdownToDocument(markdown).nodes.map((node) => {
    const keys: string[] = [];
    const visit = (inner: any) => {
      if (typeof inner?.key === 'string') keys.push(inner.key);
      (inner?.nodes ?? []).forEach(visit);
    };
    visit(node);
    return keys;
  });

const where = { page: 'p', revision: 'r' };

describe('reverting blocks', () => {
  it('finds as changes exactly what a longest common subsequence leaves out', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 10 }), fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 10 }), (current, earlier) => {
        const changes = blockChanges(current, earlier);
        const changedCurrent = new Set(changes.flatMap((change) => Array.from({ length: change.to - change.from }, (_, i) => change.from + i)));
        const changedEarlier = new Set(changes.flatMap((change) => Array.from({ length: change.earlierTo - change.earlierFrom }, (_, i) => change.earlierFrom + i)));
        const keptCurrent = current.filter((_, i) => !changedCurrent.has(i));
        const keptEarlier = earlier.filter((_, i) => !changedEarlier.has(i));
        // What stays is the same on both sides, in order, and as long as a longest common subsequence.
        expect(keptCurrent).toEqual(keptEarlier);
        const lcs = (a: string[], b: string[]): number => {
          const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
          for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
          return table[0][0];
        };
        expect(keptCurrent.length).toBe(lcs(current, earlier));
        // Changes do not touch each other (each is a maximal run between kept blocks).
        for (let i = 1; i < changes.length; i++) expect(changes[i].from > changes[i - 1].to || changes[i].earlierFrom > changes[i - 1].earlierTo).toBe(true);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('gives the earlier body back when every change is named', () => {
    fc.assert(
      fc.property(bodyArb, bodyArb, (current, earlier) => {
        const currentKeys = keysByBlock(current.markdown);
        const earlierKeys = keysByBlock(earlier.markdown);
        const changes = blockChanges(current.blocks, earlier.blocks);
        const changedCurrent = new Set(changes.flatMap((change) => currentKeys.slice(change.from, change.to).flat()));
        // A change is named by a key of one of its current blocks, else (a deletion) by a key of one of its
        // earlier blocks that names no changed current block (a key both bodies have names the current block).
        const keys = changes.map((change) =>
          change.to > change.from ? currentKeys[change.from][0] : earlierKeys.slice(change.earlierFrom, change.earlierTo).flat().find((key) => !changedCurrent.has(key)),
        );
        fc.pre(keys.length > 0 && keys.every((key) => key !== undefined));
        expect(revertBlocks(current.markdown, earlier.markdown, keys as string[], where)).toBe(normalizeMarkdown(earlier.markdown));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('reverts one change and leaves the blocks outside it as they are', () => {
    fc.assert(
      fc.property(bodyArb, bodyArb, fc.nat(), (current, earlier, pick) => {
        const changes = blockChanges(current.blocks, earlier.blocks);
        const change = changes.find((each) => each.to > each.from);
        fc.pre(change !== undefined && current.blocks.length === keysByBlock(current.markdown).length);
        const key = keysByBlock(current.markdown)[change!.from + (pick % (change!.to - change!.from))][0];
        const expected = [...current.blocks.slice(0, change!.from), ...earlier.blocks.slice(change!.earlierFrom, change!.earlierTo), ...current.blocks.slice(change!.to)];
        expect(revertBlocks(current.markdown, earlier.markdown, [key], where)).toBe(normalizeMarkdown(expected.join('\n\n')));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('brings back the link definitions a restored block uses', () => {
    const earlier = 'Intro.\n\nSee [the site][site].\n\n[site]: https://example.com\n';
    expect(revertBlocks('Intro.\n', earlier, ['k2'], where)).toBe('Intro.\n\nSee [the site][site].\n\n[site]: https://example.com\n');
  });

  it('refuses a key neither body has', () => {
    expect(() => revertBlocks('Alpha.', 'Beta.', ['k7'], where)).toThrow('block: no block k7 in page p, here or in revision r');
  });
});
