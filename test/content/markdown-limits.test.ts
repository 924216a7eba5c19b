import type { Root } from 'mdast';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../src/core/content/markdown.js';
import { assertMarkdownDepth, assertTreeDepth, boundedMarkdown, markdownNesting, MAX_MARKDOWN_DEPTH } from '../../src/core/content/markdown-limits.js';
import { outlineOf } from '../../src/core/content/outline.js';
import { mdastNesting } from '../property/markdown/nesting.js';

/** The depth limit's scan: what it counts as a level, what it skips, and what it does with a body beyond it. */

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
    ['footnote definitions', '[^a]: [^b]: x\n', 2],
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

describe('assertMarkdownDepth', () => {
  it('accepts a body at the limit', () => {
    expect(() => assertMarkdownDepth(`${'> '.repeat(N)}x\n`, 'markdown')).not.toThrow();
  });

  it('refuses a body beyond it with a 400 that names the field, the line and the limit', () => {
    expect(() => assertMarkdownDepth(`a\n${'> '.repeat(N + 1)}x\n`, 'body.markdown')).toThrow(
      expect.objectContaining({
        status: 400,
        message: expect.stringMatching(new RegExp(`^body\\.markdown: line 2 nests ${N + 1} levels deep; Markdown may nest at most ${N} `)),
      }),
    );
  });

  it('refuses 50,000 quote markers and a flood of brackets without parsing them', () => {
    expect(() => assertMarkdownDepth(`${'>'.repeat(50_000)} x`, 'markdown')).toThrow(/nests 50000 levels deep/);
    expect(() => assertMarkdownDepth('['.repeat(50_000), 'markdown')).toThrow(/nests 50000 levels deep/);
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

  it('bounds a paragraph whose inlines go beyond the limit from the line where they do', () => {
    const markdown = `${'[a '.repeat(20)}\n${'[b '.repeat(20)}\n`;
    expect(boundedMarkdown(markdown)).toBe(`${'[a '.repeat(20)}\n\`\`\`\n${'[b '.repeat(20)}\n\`\`\`\n`);
  });
});
