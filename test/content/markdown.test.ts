import { describe, expect, it } from 'vitest';
import { documentToMarkdown, markdownToDocument, refOfUrl, urlOfRef } from '../../src/core/content/document.js';
import { gitBlobOid, gitTextOid } from '../../src/core/content/git.js';
import { imageDimensions } from '../../src/core/content/images.js';
import { headingAnchor, newSlugger, normalizeMarkdown, readFrontmatter, parseMarkdown, splitPageMarkdown, stringifyMarkdown } from '../../src/core/content/markdown.js';
import { slugProblem, slugify, withSuffix } from '../../src/core/content/slugs.js';

/** The Markdown and document conversions every content feature shares, and the small helpers around pages and files. */

const CORPUS = [
  'Plain paragraph.\n',
  'Some _text_ and **bold _both_** and `code` and ~~gone~~.\n',
  '## Intro\n\nText under it.\n\n### Deeper\n\nMore.\n',
  '1. one\n2. two\n   - nested\n   - items\n',
  '3. starts at three\n4. four\n',
  '- [ ] todo\n- [x] done\n',
  '> quoted\n>\n> - with a list\n',
  '```ts\nconst x = 1;\n\nlet y;\n```\n',
  '---\n\nAfter a rule.\n',
  '| a  |  b |\n| :- | -: |\n| 1  |  2 |\n',
  '<div class="note">raw</div>\n',
  '[link](/pages/abc#anchor) ![image](/files/f1) [web](https://example.com "Title") [jump](#here)\n',
  'Line one\\\nline two\n',
  // A line break alone between two inlines: soft (a leaf marked soft), then hard.
  '[a](https://a.test)\n**b**\n',
  '[a](https://a.test)\\\n**b**\n',
];

describe('Markdown and the JSON document', () => {
  it.each(CORPUS)('turns canonical Markdown into a document and back unchanged: %j', (markdown) => {
    const canonical = normalizeMarkdown(markdown);
    expect(normalizeMarkdown(canonical)).toBe(canonical);
    expect(documentToMarkdown(markdownToDocument(canonical))).toBe(canonical);
  });

  // Found by the Markdown endpoints property (content/print-stability.ts): each read back as another tree.
  it.each([
    // A footnote reference then `:` at a line's start would read back as a footnote definition.
    ['[^a]:\n\n[r]: /u "t\n    [^a]:', '[^a]:\n\n\\[r]: /u "t\n[^a]\\:\n'],
    ['[^a]: [^a]\\:*', '[^a]: [^a]\\:\\*\n'],
    // A link reference then `:` at a paragraph's start would read back as a link definition.
    ['[a]\\: x\n\n[a]: /u', '[a]\\: x\n\n[a]: /u\n'],
    // A list after a list, holding a list holding an empty item, was printed `* * *`: a thematic break.
    ['- x\n* - -', '- x\n\n* - *\n'],
    // A tight list in a quote, then a blank line and a block, read back loose: a blank line between its items.
    ['> - a\n> - b\n>\n> > c', '> - a\n> - b\n>\n> > c\n'],
    ['>* \n>* \n>>', '> -\n> -\n>\n> >\n'],
    // Inline HTML over two lines, its second line read without up to 3 spaces, printed as read: a quote.
    ['<a\n    >', '<a\n    >\n'],
    ['x <a\n  b="1">', 'x <a\n   b="1">\n'],
  ])('prints %j as Markdown that reads back as the same tree', (markdown, printed) => {
    const withoutPositions = (text: string) => JSON.parse(JSON.stringify(parseMarkdown(text), (key, value) => (key === 'position' ? undefined : value)));
    expect(normalizeMarkdown(markdown)).toBe(printed);
    expect(withoutPositions(printed)).toEqual(withoutPositions(markdown));
    expect(normalizeMarkdown(printed)).toBe(printed);
  });

  // Found by fuzzing normalizeMarkdown: a tight list that must print a blank line reads back loose, so it is
  // printed loose from the first write, not the second.
  it.each([
    ['2. >\n    **\n<span>\n', '2. >\n\n   \\*\\*\n\n   <span>\n'],
    ['+ >\n    code\n</pre>\n', '- >\n\n  code\n\n  </pre>\n'],
    ['>2. \n>2. [^a]\n<span>\n>>', '> 2.\n>\n> 3. \\[^a]\n>\n>    <span>\n>\n> >\n'],
    // An item whose footnote definition prints a blank line between its blocks reads back spread.
    ['* \n    [^a]: ~~\n<span>\n  *', '- [^a]: \\~\\~\n\n      <span>\n\n  -\n'],
  ])('prints %j loose at once, as it reads back', (markdown, printed) => {
    expect(normalizeMarkdown(markdown)).toBe(printed);
    expect(normalizeMarkdown(printed)).toBe(printed);
    // The tree given to the printer is left as it was.
    const tree = parseMarkdown(markdown);
    const before = JSON.stringify(tree);
    stringifyMarkdown(tree);
    expect(JSON.stringify(tree)).toBe(before);
  });

  // Found by fuzzing normalizeMarkdown: after a leading `---`, mdast reads `[^a]: *` as a link definition,
  // which printed as it was read back as a footnote definition holding a list.
  it('escapes the ^ that starts a label, so that a link definition never reads back as a footnote', () => {
    expect(normalizeMarkdown('---\n[^a]: *')).toBe('***\n\n[\\^a]: *\n');
    expect(normalizeMarkdown('***\n\n[\\^a]: *\n')).toBe('***\n\n[\\^a]: *\n');
    // Footnotes themselves are printed as they were.
    expect(normalizeMarkdown('x[^a]\n\n[^a]: note')).toBe('x[^a]\n\n[^a]: note\n');
  });

  it('gives each block a key in document order and headings their GitHub anchors', () => {
    const document = markdownToDocument('# Setup\n\n## Setup\n\nText [x](https://x.test)\n');
    expect(document.nodes.map((node) => [node.type, node.key, node.meta?.id])).toEqual([
      ['heading-1', 'k1', 'setup'],
      ['heading-2', 'k2', 'setup-1'],
      ['paragraph', 'k3', undefined],
    ]);
    expect((document.nodes[2].nodes![1] as any).key).toBe('k4');
    const slugger = newSlugger();
    expect([headingAnchor('Hello, World!', slugger), headingAnchor('Hello, World!', slugger)]).toEqual(['hello-world', 'hello-world-1']);
  });

  it('maps Markdown URLs to references and back', () => {
    for (const [url, ref] of [
      ['/pages/p1', { kind: 'page', page: 'p1' }],
      ['/pages/p1#top', { kind: 'anchor', anchor: 'top', page: 'p1' }],
      ['/files/f1', { kind: 'file', file: 'f1' }],
      ['#top', { kind: 'anchor', anchor: 'top' }],
      ['https://x.test/a', { kind: 'url', url: 'https://x.test/a' }],
      ['./relative.md', { kind: 'url', url: './relative.md' }],
    ] as const) {
      expect(refOfUrl(url)).toEqual(ref);
      expect(urlOfRef(ref)).toBe(url);
    }
  });

  it('names the node of a malformed document in its error', () => {
    const bad = (nodes: unknown[]) => () => documentToMarkdown({ object: 'document', data: {}, nodes });
    expect(bad([{ object: 'text' }])).toThrow('document.nodes[0].object: must be block');
    expect(bad([{ object: 'block', type: 'paragraph', nodes: [{ object: 'leaf' }] }])).toThrow(
      'document.nodes[0].nodes[0]: is not text, a link or an inline-image (object "leaf", type undefined)',
    );
    expect(bad([{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'x', marks: [{ type: 'glow' }] }] }] }])).toThrow(
      'document.nodes[0].nodes[0].leaves[0].marks[0].type: must be bold, italic, strikethrough or code',
    );
    expect(bad([{ object: 'block', type: 'paragraph', nodes: [{ object: 'inline', type: 'link', data: { ref: { kind: 'page' } }, nodes: [] }] }])).toThrow(
      'document.nodes[0].nodes[0].data.ref.page: must be a non-empty string',
    );
    expect(() => documentToMarkdown('text')).toThrow('document: must be an object');
  });

  it('reads page fields from frontmatter and a leading heading, as Git Sync does', () => {
    expect(splitPageMarkdown('---\ntitle: T\nemoji: "📘"\nnoIndex: true\nother: 1\n---\n# Kept heading\n\nBody\n')).toEqual({
      meta: { title: 'T', emoji: '📘', noIndex: true },
      body: '# Kept heading\n\nBody\n',
    });
    expect(splitPageMarkdown('# Title\n\n## Section\n')).toEqual({ meta: {}, heading: 'Title', body: '## Section\n' });
    expect(splitPageMarkdown('## Not a title\n')).toEqual({ meta: {}, body: '## Not a title\n' });
    expect(() => readFrontmatter(parseMarkdown('---\ntitle: [unclosed\n---\n'))).toThrow(/^markdown: the frontmatter is not valid YAML/);
    expect(() => readFrontmatter(parseMarkdown('---\nhidden: yes please\n---\n'))).toThrow('markdown: frontmatter hidden must be true or false');
    expect(() => readFrontmatter(parseMarkdown('---\n- a\n---\n'))).toThrow('markdown: the frontmatter must be a YAML mapping');
  });
});

describe('slugs', () => {
  it('derive from titles in any script, and number repeats within 100 characters', () => {
    expect(slugify('Getting Started!')).toBe('getting-started');
    expect(slugify('Über Straße')).toBe('uber-straße');
    expect(slugify('日本語 ガイド')).toBe('日本語-ガイド');
    expect(slugify('  --  ')).toBe('page');
    expect(slugify('x'.repeat(150))).toBe('x'.repeat(100));
    expect(withSuffix('x'.repeat(100), 12)).toBe(`${'x'.repeat(97)}-12`);
    expect(withSuffix('a', 1)).toBe('a');
  });

  it('given by a caller, are checked', () => {
    expect(slugProblem('fine-slug_1.2')).toBeUndefined();
    expect(slugProblem('')).toBe('must not be empty');
    expect(slugProblem('..')).toBe('must not be . or ..');
    expect(slugProblem('a b')).toBe('must not contain spaces, /, \\, ?, # or %');
  });
});

describe('file helpers', () => {
  it('compute Git blob ids as Git does', async () => {
    expect(await gitTextOid('hello\n')).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    expect(await gitBlobOid(new Uint8Array())).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
  });

  it('read image dimensions from PNG, GIF, JPEG and WebP headers, and nothing else', () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0, 0, 0, 0, 200]);
    expect(imageDimensions(png)).toEqual({ width: 256, height: 200 });
    expect(imageDimensions(Uint8Array.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 10, 0, 20, 0]))).toEqual({ width: 10, height: 20 });
    // SOI, an APP0 segment of 4 bytes, then SOF0 with height 480 and width 640.
    const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 17, 8, 0x01, 0xe0, 0x02, 0x80, 3, 0, 0, 0, 0, 0, 0]);
    expect(imageDimensions(jpeg)).toEqual({ width: 640, height: 480 });
    const webp = new Uint8Array(30);
    webp.set(new TextEncoder().encode('RIFF'), 0);
    webp.set(new TextEncoder().encode('WEBPVP8X'), 8);
    webp.set([99, 0, 0, 49, 0, 0], 24);
    expect(imageDimensions(webp)).toEqual({ width: 100, height: 50 });
    expect(imageDimensions(new TextEncoder().encode('not an image at all, really'))).toBeUndefined();
    expect(imageDimensions(png.subarray(0, 10))).toBeUndefined();
  });
});
