import type { Root } from 'mdast';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../src/core/content/markdown.js';
import {
  assertMarkdownLimits,
  assertTreeDepth,
  boundedMarkdown,
  markdownExcess,
  markdownNesting,
  MAX_MARKDOWN_DEPTH,
  MAX_PARAGRAPH_DELIMITERS,
} from '../../src/core/content/markdown-limits.js';
import { boundedJob } from '../../src/core/content/bounded-job.js';
import { outlineOf } from '../../src/core/content/outline.js';
import { mdastNesting } from '../property/markdown/nesting.js';

/** The limits' scan: what it counts as a level and as a delimiter, what it skips, and what it does with a body beyond them. */

const depth = (markdown: string) => markdownNesting(markdown).depth;
const N = MAX_MARKDOWN_DEPTH;

describe('markdownNesting counts', () => {
  it.each([
    ['a paragraph', 'Plain text.\n', 0],
    ['block quote markers', '> > > x\n', 3],
    ['block quote markers without spaces', '>>>> x\n', 4],
    ['list markers on one line', '- - 1. x\n', 3],
    ['list items by indentation', '- a\n  - b\n    - c\n      1. d\n', 4],
    ['ordered items by the width of their marker', '10. a\n    11. b\n', 2],
    ['a tab as the next multiple of four columns', '- a\n\t- b\n', 2],
    ['a marker after a tab after a marker, as markdown-it reads it', '> > \t> x\n> >1. - \t* x\n', 5],
    ['text after a tab after a marker, as markdown-it reads it', '> - \t[\n*a\n', 4],
    ['footnote definitions', '[^a]: [^b]: x\n', 2],
    // micromark continues a footnote that holds another with the outer one's 4 spaces (a fast-check find).
    ['a footnote in a footnote, continued by the same 4 spaces', '[^a]: [^a]: \n\t>_\n', 3],
    ['a footnote in a footnote, continued by 4 spaces each', '[^a]: x\n    [^b]: y\n        >_\n', 3],
    ['quotes and lists mixed', '> - > 1. x\n', 4],
    ['links and images open in a paragraph', '[a ![b [c](u)](u)](u)\n', 3],
    ['emphasis runs by their delimiters', '*a **b ~~c d~~ e** f*\n', 5],
    ['levels carried from line to line of one paragraph', '[a\n[b\n[c\n', 3],
    ['inlines inside containers on top of them', '> - *[x](u)*\n', 4],
    ['an emoji beside a delimiter as opening', '😀*a*😀\n', 2],
  ])('%s', (_, markdown, expected) => {
    expect(depth(markdown)).toBe(expected);
  });

  it('keeps the containers of a lazy continuation line open, as CommonMark does', () => {
    // `lazy` continues b's paragraph, so `    - c` is inside b.
    expect(depth('- a\n  - b\nlazy\n    - c\n')).toBe(3);
    expect(depth('> > a\nlazy\n> > > b\n')).toBe(3);
  });

  it('reads a marker that cannot interrupt a paragraph as its text, continuing it, and counts it too', () => {
    // The footnote definition is text of the paragraph in `>>`, continued lazily.
    expect(depth('>> a\n[^a]: *b*\n')).toBe(4);
    // Items numbered 2, or empty, do not interrupt a paragraph they continue, but they do end one they do
    // not continue (here, the quote's): then they open a list, in which `    >>` nests.
    expect(depth('> a\n2. *b*\n')).toBe(2);
    expect(depth('> x\n10) \n    >>\n')).toBe(3);
    expect(depth('a\n2. *b*\n')).toBe(2);
    // Numbered 1, a list item interrupts it.
    expect(depth('>> a\n1. *b*\n')).toBe(2);
    // A thematic break or a setext underline is no paragraph: the item after it is one.
    expect(depth('***\n2. \n\t>\n')).toBe(2);
    expect(depth('a\n===\n2. \n   > x\n')).toBe(2);
  });

  it('closes containers a line does not continue', () => {
    expect(depth('> > a\n\n> b\n')).toBe(2);
    expect(depth('- a\n  - b\n- c\n')).toBe(2);
  });

  it('closes the inlines of a paragraph at its end, a heading or a table row', () => {
    expect(depth('[a\n\n[b\n\n[c\n')).toBe(1);
    expect(depth('# [a\n# [b\n')).toBe(1);
    expect(depth('| [a | b |\n| - | - |\n| [c | d |\n| [e | f |\n')).toBe(1);
  });

  it('skips code: fenced, indented, and escaped delimiters', () => {
    expect(depth('```\n> > > > [[[[\n```\n')).toBe(0);
    expect(depth('~~~~\n- - - -\n~~~~\n')).toBe(0);
    expect(depth('    > > > >\n')).toBe(0);
    expect(depth('\\[ \\* \\_a\n')).toBe(0);
  });

  it('reads HTML blocks as raw lines: a fence or a marker in one is text', () => {
    expect(depth('<div>\n> > > x\n')).toBe(0);
    // The block ends at a blank line; then `~~~` would open a fence, but here it does not: the quote counts.
    expect(depth('</div>\n~~~\n\n> > x\n')).toBe(2);
    expect(depth('<!--\n```\n-->\n> > x\n')).toBe(2);
    expect(depth('<pre>\n```\n</pre>\n> > x\n')).toBe(2);
    // A lone tag (kind 7) does not interrupt a paragraph, so the fence after it is one; a table is no paragraph.
    expect(depth('text\n<span>\n~~~\n> > x\n')).toBe(0);
    expect(depth('| a |\n|-|\n| b |\n</pre>\n<?x\n\n> > x\n')).toBe(2);
    // After a table's row, micromark starts an HTML block at a lone tag and markdown-it reads a row; after an
    // empty item, the other way round: a lone tag's block is read as Markdown too, until its blank line.
    expect(depth('    *\n1. \n</pre>\n> > x\n')).toBe(2);
    expect(depth('| a |\n|-|\n| b |\n<span>\n> > x\n')).toBe(2);
    // markdown-it reads a footnote definition as a paragraph, which a lone tag does not interrupt.
    expect(depth('[^a]: \n<span>\n>>\n')).toBe(2);
  });

  it('ends a fenced block with the container that holds it', () => {
    expect(depth('> ```\n> > > >\n> ```\n')).toBe(1);
    // The quote ends at the second line, and the code block with it: `> > >` is read again.
    expect(depth('> ```\n> > > x\n')).toBe(1);
    expect(depth('> ```\nx\n> > > y\n')).toBe(3);
  });

  it('counts delimiters that cannot close as open, and closes what can', () => {
    expect(depth('snake_case_name and a * b * c\n')).toBe(0);
    expect(depth('*a*b*c*\n')).toBe(1);
    expect(depth(`${'*a '.repeat(40)}\n`)).toBe(40);
  });

  it('tells the first line beyond the limit', () => {
    const markdown = `ok\n\n${'>'.repeat(N + 1)} deep\n\n${'>'.repeat(N + 5)} deeper\n`;
    expect(markdownNesting(markdown)).toEqual({ depth: N + 1, line: 3 });
  });
});

describe('the scan counts at least what the parsers nest', () => {
  // mdast's nesting, counted as the scan counts (markdown-it's: test/property/markdown-limits.test.ts).
  it.each([
    '- a\n  - b\nlazy\n    - c\n      > d\n',
    '> a\nb\n> > c\n',
    '1. a\n\n   2. b\n\n      3. c\n',
    '- \n  - \n    - x\n',
    '[^a]:\n    [^b]: > x\n',
    '*a _b ~~c [d ![e](u) f](u) g~~ h_ i*\n',
    '***a***b***c***\n',
    '__a__b__\n',
    '| *a | b |\n|---|---|\n| [c](u) | **d** |\n',
    '> ```\n> x\n- - - y\n',
  ])('%j', (markdown) => {
    expect(depth(markdown)).toBeGreaterThanOrEqual(mdastNesting(parseMarkdown(markdown)));
  });
});

describe('markdownExcess counts the delimiters of a paragraph that mdast pairs', () => {
  const D = MAX_PARAGRAPH_DELIMITERS;

  it('counts runs that may open or close, and closing brackets, up to the limit', () => {
    expect(markdownExcess('*a* '.repeat(D / 2))).toBeUndefined();
    expect(markdownExcess(`${'[a] '.repeat(D)}`)).toBeUndefined();
    expect(markdownExcess(`${'*a* '.repeat(D / 2)}*a`)).toEqual({ line: 1, delimiters: D + 1 });
    expect(markdownExcess(`${'a] '.repeat(D)}\n]`)).toEqual({ line: 2, delimiters: D + 1 });
  });

  it('does not count what cannot pair: intraword underscores, lone stars between spaces, escapes, code', () => {
    expect(markdownExcess('snake_case_name '.repeat(D))).toBeUndefined();
    expect(markdownExcess('a * b '.repeat(D))).toBeUndefined();
    expect(markdownExcess('\\] \\* '.repeat(D))).toBeUndefined();
    expect(markdownExcess(`\`\`\`\n${'*a*'.repeat(D)}\n\`\`\`\n`)).toBeUndefined();
  });

  it('counts each paragraph, heading and table row apart', () => {
    const half = '*a* '.repeat(D / 4);
    expect(markdownExcess(`${half}\n\n${half}\n\n${half}\n`)).toBeUndefined();
    expect(markdownExcess(`# ${half}\n# ${half}\n# ${half}\n`)).toBeUndefined();
    expect(markdownExcess(`| a | b |\n|---|---|\n${`| ${half} | x |\n`.repeat(3)}`)).toBeUndefined();
    expect(markdownExcess(`${half}\n${half}\n${half}\n`)).toEqual({ line: 3, delimiters: (3 * D) / 2 });
  });
});

describe('assertMarkdownLimits', () => {
  it('accepts a body at the limit', () => {
    expect(() => assertMarkdownLimits(`${'> '.repeat(N)}x\n`, 'markdown')).not.toThrow();
  });

  it('refuses a body beyond it with a 400 that names the field, the line and the limit', () => {
    expect(() => assertMarkdownLimits(`a\n${'> '.repeat(N + 1)}x\n`, 'body.markdown')).toThrow(
      expect.objectContaining({
        status: 400,
        message: expect.stringMatching(new RegExp(`^body\\.markdown: line 2 nests ${N + 1} levels deep; Markdown may nest at most ${N} `)),
      }),
    );
  });

  it('refuses 50,000 quote markers and a flood of brackets without parsing them', () => {
    expect(() => assertMarkdownLimits(`${'>'.repeat(50_000)} x`, 'markdown')).toThrow(/nests 50000 levels deep/);
    expect(() => assertMarkdownLimits('['.repeat(50_000), 'markdown')).toThrow(/nests 50000 levels deep/);
  });

  it('refuses a paragraph crowded with delimiters with a 400 that names the limit', () => {
    expect(() => assertMarkdownLimits(`${'*a'.repeat(50_000)}\n${'_'.repeat(100_000)}`, 'document.markdown')).toThrow(
      expect.objectContaining({
        status: 400,
        message: `document.markdown: the paragraph at line 1 holds more than ${MAX_PARAGRAPH_DELIMITERS} emphasis, strikethrough and bracket delimiters (runs of *, _ or ~, and ]), the most a paragraph may`,
      }),
    );
  });
});

describe('assertTreeDepth', () => {
  const nested = (levels: number): Root => {
    let node: any = { type: 'text', value: 'x' };
    for (let i = 0; i < levels; i++) node = { type: 'emphasis', children: [node] };
    return { type: 'root', children: [{ type: 'paragraph', children: [node] }] };
  };

  it('counts the levels of a tree as the scan counts its Markdown', () => {
    expect(() => assertTreeDepth(nested(N), 'url: x')).not.toThrow();
    expect(() => assertTreeDepth(nested(N + 1), 'url: x')).toThrow(/^url: x: its content nests more than 32 levels deep/);
  });

  it('walks a tree deeper than the stack would allow a recursion', () => {
    expect(() => assertTreeDepth(nested(200_000), 'url: x')).toThrow(/nests more than/);
  });
});

describe('boundedMarkdown', () => {
  it('gives a body within the limit back as it is', () => {
    const markdown = `# Title\n\n${'> '.repeat(N)}x\n\n- a\n  - b\n`;
    expect(boundedMarkdown(markdown)).toBe(markdown);
  });

  it('puts the lines beyond the limit in a code block, keeping their text, and leaves the others', () => {
    const deep = `${'> '.repeat(N + 3)}deep \`\`\` text`;
    const bounded = boundedMarkdown(`before\n\n${deep}\n\nafter\n`);
    expect(bounded).toBe(`before\n\n\`\`\`\`\n${deep}\n\`\`\`\`\n\nafter\n`);
    expect(depth(bounded)).toBeLessThanOrEqual(N);
    const root = parseMarkdown(`before\n\n${deep}\n\nafter\n`);
    expect(root.children.map((node) => node.type)).toEqual(['paragraph', 'code', 'paragraph']);
  });

  it('makes bodies that overflowed the parsers readable by both', () => {
    for (const markdown of [`${'>'.repeat(50_000)} x`, `${'- '.repeat(20_000)}x`, `${'1. '.repeat(10_000)}x`, '['.repeat(50_000)]) {
      const bounded = boundedMarkdown(markdown);
      expect(depth(bounded)).toBeLessThanOrEqual(N);
      expect(parseMarkdown(markdown).children[0].type).toBe('code');
      expect(outlineOf(markdown).sections[0].text).toBe(markdown);
    }
  });

  it('hands the bounded body back with the outline only when it differs, and from the job only then too', () => {
    const deep = `before\n\n${'> '.repeat(N + 3)}deep\n\nafter\n`;
    expect(outlineOf(deep).bounded).toBe(boundedMarkdown(deep));
    expect(boundedJob.run(deep)).toBe(boundedMarkdown(deep));
    const shallow = `before\n\n${'> '.repeat(N)}not deep\n`;
    expect(outlineOf(shallow)).not.toHaveProperty('bounded');
    expect(boundedJob.run(shallow)).toBeNull();
  });

  it('puts a paragraph crowded with delimiters in a code block from the line where it goes beyond', () => {
    const line = '*a* '.repeat(MAX_PARAGRAPH_DELIMITERS / 4);
    const markdown = `${line}\n${line}\n${line}\n\nafter\n`;
    expect(boundedMarkdown(markdown)).toBe(`${line}\n${line}\n\`\`\`\n${line}\n\`\`\`\n\nafter\n`);
    const slow = `${'*a'.repeat(50_000)}\n${'_'.repeat(100_000)}`;
    // (The line of `_` is a thematic break, which ends the paragraph.)
    expect(parseMarkdown(slow).children.map((node) => node.type)).toEqual(['code', 'thematicBreak']);
  });

  it('bounds a paragraph whose inlines go beyond the limit from the line where they do', () => {
    const markdown = `${'[a '.repeat(20)}\n${'[b '.repeat(20)}\n`;
    expect(boundedMarkdown(markdown)).toBe(`${'[a '.repeat(20)}\n\`\`\`\n${'[b '.repeat(20)}\n\`\`\`\n`);
  });
});
