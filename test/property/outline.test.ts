import fc from 'fast-check';
import type { Heading, Root, RootContent } from 'mdast';
import { describe, expect, it } from 'vitest';
import { headingAnchor, newSlugger, parseMarkdown, plainText, visitUrls } from '../../src/core/content/markdown.js';
import { outlineOf } from '../../src/core/content/outline.js';
import { runs } from './runs.js';

/**
 * The outline reader (content/outline.ts, markdown-it) must say what the project's mdast tree says of the
 * same body: the same URLs, the same heading anchors in order, the same sections with the same words. Both
 * the fast reader and this reference are fed generated documents mixing every construct the editors write:
 * headings (nested in quotes and lists too), emphasis, code, links, images, autolinks, reference links and
 * definitions, inline and block HTML, lists, quotes, fenced code and tables.
 */

const NUM_RUNS = runs(300);

/** The reference: what the mdast tree says (the links report and search read it so before). */
function reference(markdown: string) {
  const root = parseMarkdown(markdown);
  const urls: string[] = [];
  visitUrls(root, (node) => void urls.push(node.url));
  const slugger = newSlugger();
  const anchors: string[] = [];
  const walk = (node: Root | RootContent) => {
    if (node.type === 'heading') anchors.push(headingAnchor(plainText(node as Heading), slugger));
    if ('children' in node) for (const child of node.children as RootContent[]) walk(child);
  };
  walk(root);
  const sections: { anchor: string | null; heading: string; words: string[] }[] = [];
  let current: { anchor: string | null; heading: string; text: string[] } = { anchor: null, heading: '', text: [] };
  const close = () => {
    const words = wordsOf(current.text.join(' '));
    if (current.anchor !== null || words.length > 0) sections.push({ anchor: current.anchor, heading: current.heading, words });
  };
  const textOf = (node: Root | RootContent): string => {
    if (node.type === 'definition' || node.type === 'yaml') return '';
    if (node.type === 'html') return node.value.replace(/<[^>]*>/g, ' ');
    if (node.type === 'image' || node.type === 'imageReference') return node.alt ?? '';
    if ('children' in node) return (node.children as RootContent[]).map(textOf).join(node.type === 'paragraph' || node.type === 'heading' || node.type === 'emphasis' || node.type === 'strong' || node.type === 'link' || node.type === 'linkReference' || node.type === 'delete' || node.type === 'tableCell' ? '' : ' ');
    return 'value' in node && typeof node.value === 'string' ? node.value : '';
  };
  let at = 0;
  for (const node of root.children) {
    if (node.type === 'heading') {
      close();
      current = { anchor: anchors[at++], heading: plainText(node).trim(), text: [] };
    } else {
      const nested: string[] = [];
      const count = (child: RootContent) => {
        if (child.type === 'heading') nested.push('');
        if ('children' in child) (child.children as RootContent[]).forEach(count);
      };
      count(node);
      at += nested.length;
      current.text.push(textOf(node));
    }
  }
  close();
  return { urls: [...new Set(urls)].sort(), anchors, sections };
}

const wordsOf = (text: string) => text.split(/\s+/).filter(Boolean);

const word = fc.constantFrom('alpha', 'beta', 'Gamma', 'delta', 'épée', 'naïve', 'x1', 'under_score', 'dash-ed', 'Café', '42');
const words = fc.array(word, { minLength: 1, maxLength: 4 }).map((list) => list.join(' '));
const url = fc.constantFrom('/pages/p1', '/pages/p2#intro', '/files/f1', '#local', 'https://example.com/a?b=1', 'mailto:someone@example.com', './other.md', '/pages/no/such', 'https://example.com/ä', 'javascript:alert(1)');
const inline: fc.Arbitrary<string> = fc.oneof(
  words,
  words.map((text) => `*${text}*`),
  words.map((text) => `**${text}**`),
  words.map((text) => `\`${text}\``),
  fc.tuple(words, url).map(([text, href]) => `[${text}](${href})`),
  fc.tuple(words, url).map(([text, href]) => `![${text}](${href})`),
  fc.constant('<https://example.org/auto>'),
  fc.constant('see https://example.net/bare here'),
  fc.constant('visit www.example.com today'),
  fc.constant('write to someone@example.com now'),
  fc.constant('read README.md or example.com first'),
  words.map((text) => `<b>${text}</b>`),
  words.map((text) => `[${text}][ref]`),
  fc.constant('a &amp; b'),
);
const line = fc.array(inline, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(' '));
const heading = fc.tuple(fc.integer({ min: 1, max: 3 }), fc.array(fc.oneof(words, inline), { minLength: 1, maxLength: 2 })).map(([depth, parts]) => `${'#'.repeat(depth)} ${parts.join(' ')}`);
const block: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: line },
  { weight: 3, arbitrary: heading },
  { weight: 1, arbitrary: fc.array(line, { minLength: 1, maxLength: 3 }).map((items) => items.map((item) => `- ${item}`).join('\n')) },
  { weight: 1, arbitrary: fc.array(line, { minLength: 1, maxLength: 2 }).map((items) => items.map((item, n) => `${n + 1}. ${item}`).join('\n')) },
  { weight: 1, arbitrary: fc.oneof(line, heading).map((text) => `> ${text}`) },
  { weight: 1, arbitrary: heading.map((text) => `- ${text}`) },
  { weight: 1, arbitrary: words.map((text) => `\`\`\`js\nconst a = "${text}";\n\`\`\``) },
  { weight: 1, arbitrary: fc.tuple(words, words, line, line).map(([a, b, c, d]) => `| ${a} | ${b} |\n| --- | --- |\n| ${c} | ${d} |`) },
  { weight: 1, arbitrary: url.map((href) => `[ref]: ${href}`) },
  { weight: 1, arbitrary: words.map((text) => `<div>\n${text}\n</div>`) },
);
// One definition per label: a repeated one is unused, and only the mdast tree keeps it (a node nobody follows).
const firstDefinitionOnly = (blocks: string[]) => blocks.filter((text, at) => !text.startsWith('[ref]:') || blocks.findIndex((other) => other.startsWith('[ref]:')) === at);
const document = fc.array(block, { minLength: 0, maxLength: 8 }).map((blocks) => firstDefinitionOnly(blocks).join('\n\n'));

describe('the outline reader agrees with the mdast tree', () => {
  it('on URLs, anchors and section words of generated documents', () => {
    fc.assert(
      fc.property(document, (markdown) => {
        const expected = reference(markdown);
        const outline = outlineOf(markdown);
        expect([...outline.urls].sort(), markdown).toEqual(expected.urls);
        expect(outline.anchors, markdown).toEqual(expected.anchors);
        expect(
          outline.sections.map((section) => ({ anchor: section.anchor, heading: section.heading, words: wordsOf(section.text) })),
          markdown,
        ).toEqual(expected.sections);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('reads an empty body as nothing', () => {
    expect(outlineOf('')).toEqual({ urls: [], anchors: [], sections: [] });
  });
});
