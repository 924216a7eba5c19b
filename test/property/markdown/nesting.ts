import type { Root } from 'mdast';
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';

/**
 * How deep the parsers really nest a body, counted as the depth limit's scan counts (block quotes, list
 * items, footnote definitions, links, images and emphasis runs each a level), so that tests can check the
 * scan never counts less. A link or image that holds only text is a leaf, as text is: bare URLs become
 * such links (GFM's autolinks, markdown-it's linkify), which the scan does not look for.
 */

/** The mdast nodes that are a level. */
const LEVELS = new Set(['blockquote', 'listItem', 'footnoteDefinition', 'emphasis', 'strong', 'delete', 'link', 'linkReference', 'image', 'imageReference']);

/** The deepest chain of levels in an mdast tree. */
export function mdastNesting(root: Root): number {
  let deepest = 0;
  const pending: [Root | Root['children'][number], number][] = [[root, 0]];
  while (pending.length > 0) {
    const [node, above] = pending.pop()!;
    const leaf = !('children' in node) || node.children.every((child) => child.type === 'text');
    const depth = above + (LEVELS.has(node.type) && !leaf ? 1 : 0);
    deepest = Math.max(deepest, depth);
    if ('children' in node) for (const child of node.children) pending.push([child, depth]);
  }
  return deepest;
}

/** markdown-it as the outline and the reader set it up (its own cap, 100 levels, is beyond the limit: what it nests past the limit shows). */
const parser = new MarkdownIt('default', { html: true, linkify: true });

/** The block and inline tokens that open a level. */
const OPENING = new Set(['blockquote_open', 'list_item_open', 'em_open', 'strong_open', 's_open', 'link_open']);
const CLOSING = new Set(['blockquote_close', 'list_item_close', 'em_close', 'strong_close', 's_close', 'link_close']);

/** Whether the token after a link's opening closes it, with only text between (a leaf). */
const onlyText = (tokens: readonly Token[], at: number) => tokens[at + 1]?.type === 'text' && tokens[at + 2]?.type === 'link_close';

/** The deepest chain of levels in markdown-it's tokens (an image counts as one, its alt text's inlines on top). */
export function markdownItNesting(markdown: string): number {
  let deepest = 0;
  const walk = (tokens: readonly Token[], base: number) => {
    let depth = base;
    tokens.forEach((token, at) => {
      if (token.type === 'link_open' && onlyText(tokens, at)) tokens[at + 2].meta = { leaf: true };
      else if (OPENING.has(token.type)) deepest = Math.max(deepest, ++depth);
      else if (CLOSING.has(token.type) && !token.meta?.leaf) depth--;
      const image = token.type === 'image' && token.children?.some((child) => child.type !== 'text');
      if (image) deepest = Math.max(deepest, depth + 1);
      if (token.children) walk(token.children, image ? depth + 1 : depth);
    });
  };
  walk(parser.parse(markdown, {}), 0);
  return deepest;
}
