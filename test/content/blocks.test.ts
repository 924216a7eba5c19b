import { describe, expect, it } from 'vitest';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { parsePiecesWithDefinitions } from '../../src/core/content/blocks/definitions.js';
import type { Block, BodyItem, MarkdownItem } from '../../src/core/content/blocks/model.js';
import { MAX_BLOCK_NESTING, parseBlocks } from '../../src/core/content/blocks/parse.js';
import { markdownExcess, MAX_MARKDOWN_DEPTH } from '../../src/core/content/markdown-limits.js';
import { normalizeMarkdown, parseMarkdown, plainText } from '../../src/core/content/markdown.js';
import { outlineOf } from '../../src/core/content/outline.js';

/** The items of a body without their line numbers and attributes, to compare shapes. */
function shape(items: readonly BodyItem[]): unknown[] {
  return items.map((item) => {
    if (item.kind === 'markdown') return item.text;
    const { line: _line, attributes: _attributes, children, ...rest } = item;
    return { ...rest, children: shape(children) };
  });
}

const only = (markdown: string) => parseBlocks(markdown)[0] as Block;

describe('GitBook blocks: parsing', () => {
  it('reads a hint of each style, info when none is given', () => {
    for (const style of ['info', 'success', 'warning', 'danger']) {
      expect(shape(parseBlocks(`{% hint style="${style}" %}\nCareful.\n{% endhint %}`))).toEqual([{ kind: 'hint', style, children: ['Careful.'] }]);
    }
    expect(only('{% hint %}\nx\n{% endhint %}')).toMatchObject({ kind: 'hint', style: 'info' });
  });

  it('reads tabs with their titles, and blocks nested in a tab', () => {
    const markdown = '{% tabs %}\n{% tab title="One" %}\n{% hint style="warning" %}\nin one\n{% endhint %}\n{% endtab %}\n\n{% tab title="Two" %}\nin two\n{% endtab %}\n{% endtabs %}';
    expect(shape(parseBlocks(markdown))).toEqual([
      {
        kind: 'tabs',
        children: [
          { kind: 'tab', title: 'One', children: [{ kind: 'hint', style: 'warning', children: ['in one'] }] },
          { kind: 'tab', title: 'Two', children: ['in two'] },
        ],
      },
    ]);
  });

  it('reads a code block with its title, line numbers and wrapping', () => {
    const block = only('{% code title="app.js" overflow="wrap" lineNumbers="true" %}\n```js\nlet a = 1;\n```\n{% endcode %}');
    expect(block).toMatchObject({ kind: 'code', title: 'app.js', wrap: true, lineNumbers: true, children: [{ kind: 'markdown', text: '```js\nlet a = 1;\n```' }] });
    expect(only('{% code %}\n```\nx\n```\n{% endcode %}')).toMatchObject({ kind: 'code', wrap: false, lineNumbers: false });
  });

  it('reads <details> as an expandable, its summary on its line or after <details>', () => {
    expect(shape(parseBlocks('<details>\n\n<summary>More</summary>\n\nHidden *text*\n\n</details>'))).toEqual([{ kind: 'details', summary: 'More', open: false, children: ['\n\nHidden *text*\n'] }]);
    expect(only('<details open><summary>A <b>b</b></summary>\nx\n</details>')).toMatchObject({ kind: 'details', summary: 'A <b>b</b>', open: true });
  });

  it('reads embeds, content references and files, with or without a caption', () => {
    expect(shape(parseBlocks('{% embed url="https://example.com/v" %}\n\nAfter'))).toEqual([{ kind: 'embed', url: 'https://example.com/v', children: [] }, '\nAfter']);
    expect(shape(parseBlocks('{% embed url="https://x.test" %}\nA caption\n{% endembed %}'))).toEqual([{ kind: 'embed', url: 'https://x.test', children: ['A caption'] }]);
    expect(shape(parseBlocks('{% content-ref url="/pages/p1" %}\n[Intro](/pages/p1)\n{% endcontent-ref %}'))).toEqual([{ kind: 'content-ref', url: '/pages/p1', children: ['[Intro](/pages/p1)'] }]);
    expect(shape(parseBlocks('{% file src="/files/f1" %}Caption{% endfile %}'))).toEqual([{ kind: 'file', url: '/files/f1', children: ['Caption'] }]);
    expect(shape(parseBlocks('{% file src="/files/f1" %}'))).toEqual([{ kind: 'file', url: '/files/f1', children: [] }]);
  });

  it("reads GitHub's alerts, whatever the case of their type, with blocks inside", () => {
    for (const type of ['NOTE', 'TIP', 'IMPORTANT', 'WARNING', 'CAUTION']) {
      expect(shape(parseBlocks(`> [!${type.toLowerCase()}]\n> Mind **this**.\n\nAfter`))).toEqual([{ kind: 'alert', alert: type, children: ['Mind **this**.'] }, '\nAfter']);
    }
    expect(shape(parseBlocks('> [!TIP]\n> {% hint style="danger" %}\n> x\n> {% endhint %}'))).toEqual([{ kind: 'alert', alert: 'TIP', children: [{ kind: 'hint', style: 'danger', children: ['x'] }] }]);
    // Inside a block quote already, or an unknown type: a quote.
    expect(shape(parseBlocks('> a\n> [!NOTE]\n> b'))).toEqual(['> a\n> [!NOTE]\n> b']);
    expect(shape(parseBlocks('> [!DANGER]\n> b'))).toEqual(['> [!DANGER]\n> b']);
  });

  it('keeps tags inside fenced code, indented code and frontmatter as text', () => {
    expect(shape(parseBlocks('```\n{% hint %}\nx\n{% endhint %}\n```'))).toEqual(['```\n{% hint %}\nx\n{% endhint %}\n```']);
    expect(shape(parseBlocks('~~~~md\n> [!NOTE]\n~~~\n~~~~'))).toEqual(['~~~~md\n> [!NOTE]\n~~~\n~~~~']);
    expect(shape(parseBlocks('    {% hint %}\n    x\n    {% endhint %}'))).toEqual(['    {% hint %}\n    x\n    {% endhint %}']);
    expect(shape(parseBlocks('---\ntitle: "{% hint %}"\n---\n{% endhint %}'))).toEqual(['---\ntitle: "{% hint %}"\n---\n{% endhint %}']);
    // A fence inside a tab hides the tab's closing tag until the fence ends.
    const tab = parseBlocks('{% tabs %}\n{% tab title="A" %}\n```\n{% endtab %}\n```\n{% endtab %}\n{% endtabs %}');
    expect(shape(tab)).toEqual([{ kind: 'tabs', children: [{ kind: 'tab', title: 'A', children: ['```\n{% endtab %}\n```'] }] }]);
  });

  it('reads malformed and unclosed tags as the text they are', () => {
    expect(shape(parseBlocks('{% hint style="info" %}\nnever closed'))).toEqual(['{% hint style="info" %}\nnever closed']);
    expect(shape(parseBlocks('{% endhint %}'))).toEqual(['{% endhint %}']);
    expect(shape(parseBlocks('{% hint style="purple" %}\nx\n{% endhint %}'))).toEqual(['{% hint style="purple" %}\nx\n{% endhint %}']);
    expect(shape(parseBlocks('{% raw %}\nx\n{% endraw %}'))).toEqual(['{% raw %}\nx\n{% endraw %}']);
    expect(shape(parseBlocks('{% hint style="info"\nx'))).toEqual(['{% hint style="info"\nx']);
    expect(shape(parseBlocks('{% tab title="A" %}\nx\n{% endtab %}'))).toEqual(['{% tab title="A" %}\nx\n{% endtab %}']);
    expect(shape(parseBlocks('{% embed %}'))).toEqual(['{% embed %}']);
    // Tabs holding text besides tabs are no tabs: all of it is text.
    expect(shape(parseBlocks('{% tabs %}\nstray\n{% tab title="A" %}\nx\n{% endtab %}\n{% endtabs %}'))).toEqual(['{% tabs %}\nstray\n{% tab title="A" %}\nx\n{% endtab %}\n{% endtabs %}']);
    // A block closed inside an unclosed one survives it.
    expect(shape(parseBlocks('<details>\n{% hint %}\nx\n{% endhint %}'))).toEqual(['<details>', { kind: 'hint', style: 'info', children: ['x'] }]);
  });

  it('never nests beyond its limit, and the Markdown limits count blocks as levels', () => {
    const deep = (n: number) => `${'{% hint %}\n'.repeat(n)}x\n${'{% endhint %}\n'.repeat(n)}`;
    let depth = 0;
    for (let item: BodyItem | undefined = parseBlocks(deep(MAX_BLOCK_NESTING + 5))[0]; item?.kind === 'hint'; item = item.children[0]) depth++;
    expect(depth).toBe(MAX_BLOCK_NESTING);
    // Blocks and Markdown count together: 30 hints around a quote in a quote, and one more level.
    const mixed = (n: number) => `${'{% hint %}\n'.repeat(n)}> > x\n${'{% endhint %}\n'.repeat(n)}`;
    expect(markdownExcess(mixed(MAX_MARKDOWN_DEPTH - 2))).toBeUndefined();
    expect(markdownExcess(mixed(MAX_MARKDOWN_DEPTH - 1))).toMatchObject({ line: MAX_MARKDOWN_DEPTH, depth: MAX_MARKDOWN_DEPTH + 1 });
    expect(markdownExcess(deep(MAX_BLOCK_NESTING + 5))).toBeUndefined();
  });

  it('reads a large body of blocks in linear time', () => {
    const unit = '{% hint style="info" %}\ntext\n{% endhint %}\n\n{% tabs %}\n{% tab title="A" %}\n```\n{% x %}\n```\n{% endtab %}\n{% endtabs %}\n\n';
    const unclosed = '{% hint %}\n'.repeat(20_000);
    for (const body of [unit.repeat(5_000), unclosed, '{% endhint %}\n'.repeat(20_000), `${'{% tabs %}\n{% tab title="a" %}\n'.repeat(16)}${'x\n'.repeat(20_000)}`]) {
      const items = parseBlocks(body);
      expect(items.length).toBeGreaterThan(0);
    }
  });
});

describe('GitBook blocks: the mdast tree and the canonical Markdown', () => {
  const body = [
    '{% hint style="warning" %}\nCareful **now**.\n{% endhint %}',
    '{% tabs %}\n{% tab title="One" %}\nFirst\n{% endtab %}\n\n{% tab title="Two" %}\n- a\n- b\n{% endtab %}\n{% endtabs %}',
    '{% code title="a.sh" lineNumbers="true" %}\n```sh\nls\n```\n{% endcode %}',
    '<details>\n\n<summary>More</summary>\n\nHidden\n\n</details>',
    '> [!WARNING]\n> Mind it.',
    '{% embed url="https://example.com/v" %}',
    '{% content-ref url="/pages/p1" %}\n[Intro](/pages/p1)\n{% endcontent-ref %}',
    '{% file src="/files/f1" %}\nThe caption\n{% endfile %}',
  ].join('\n\n');

  it('prints each block back as written, in the canonical spelling', () => {
    expect(normalizeMarkdown(body)).toBe(`${body}\n`);
  });

  it('reads a link in a block by a definition outside it and the other way round, and keeps both as written', () => {
    const refs = '{% hint style="info" %}\nRead [the guide][guide].\n\n[inside]: https://example.com/inside\n{% endhint %}\n\nOr [this one][inside].\n\n[guide]: https://example.com/guide\n';
    expect(normalizeMarkdown(refs)).toBe(refs);
    const hint = parseMarkdown(refs).children[0]!;
    expect(hint.type === 'gitbookBlock' && hint.children[0]).toMatchObject({ type: 'paragraph', children: [{ type: 'text' }, { type: 'linkReference', identifier: 'guide' }, { type: 'text' }] });
    expect(outlineOf(refs)).toMatchObject({ firstParagraph: 'Read the guide.' });
    // A piece whose fence is never closed would take the others' definitions in: it is read on its own.
    const fenced = '{% hint %}\n[g]: /there\n{% endhint %}\n\n```\n[g]\n';
    expect(normalizeMarkdown(fenced)).toBe(`${fenced}\`\`\`\n`);
  });

  it('parses a body of many blocks and definitions in work linear in its length', () => {
    const hints = Array.from({ length: 100 }, (_, i) => `{% hint %}\nSee [it][l${i}].\n{% endhint %}`).join('\n\n');
    const body = `${hints}\n\n${Array.from({ length: 100 }, (_, i) => `[l${i}]: /p${i}`).join('\n\n')}\n`;
    let parsed = 0;
    const items = parseBlocks(body);
    const read = parsePiecesWithDefinitions(items, (_item, text) => ((parsed += text.length), fromMarkdown(text).children));
    // Each piece once, and again with the one definition it names.
    expect(parsed).toBeLessThan(3 * body.length);
    const first = items[0]!;
    expect(first.kind === 'hint' && read(first.children[0] as MarkdownItem)).toMatchObject([{ type: 'paragraph', children: [{}, { type: 'linkReference', identifier: 'l0' }, {}] }]);
    expect(normalizeMarkdown(body)).toBe(body);
  });

  it('keeps text that only looks like a tag text, escaping it', () => {
    const once = normalizeMarkdown('\\{% hint %}\nx\n{% endhint %}\n\n> \\[!NOTE]\n> y');
    expect(once).toBe('\\{% hint %}\nx\n\\{% endhint %}\n\n> \\[!NOTE]\n> y\n');
    expect(parseMarkdown(once).children.map((node) => node.type)).toEqual(['paragraph', 'blockquote']);
    expect(normalizeMarkdown(once)).toBe(once);
  });

  it('gives block nodes with their URL, and the text of what they hold', () => {
    const root = parseMarkdown(body);
    expect(root.children.map((node) => node.type === 'gitbookBlock' && node.block.kind)).toEqual(['hint', 'tabs', 'code', 'details', 'alert', 'embed', 'content-ref', 'file']);
    expect(root.children.filter((node) => node.type === 'gitbookBlock' && node.url).map((node) => node.type === 'gitbookBlock' && node.url)).toEqual(['https://example.com/v', '/pages/p1', '/files/f1']);
    expect(plainText(root.children[0])).toBe('Careful now.');
  });

  it('lets the outline see inside blocks: their text, headings and URLs, and no tag', () => {
    const outline = outlineOf(`Intro\n\n${body}\n\n{% hint %}\n## Inside\n{% endhint %}`);
    expect(outline.urls).toEqual(expect.arrayContaining(['https://example.com/v', '/pages/p1', '/files/f1']));
    expect(outline.anchors).toEqual(['inside']);
    expect(outline.sections).toHaveLength(1);
    expect(outline.sections[0].text).toContain('Careful now.');
    expect(outline.sections[0].text).toContain('One');
    expect(outline.sections[0].text).not.toContain('{%');
    expect(outline.sections[0].text).not.toContain('[!WARNING]');
  });
});
