import type { List, Root, RootContent } from 'mdast';
import { defaultHandlers, type Handle, type Options as ToMarkdownOptions } from 'mdast-util-to-markdown';

/**
 * Where mdast-util-to-markdown prints a tree as Markdown that reads back as another tree, and what
 * markdown.ts's printer does instead, so that a stored body written back as read stores the same text
 * (the Markdown endpoints property found each).
 *
 * - A `:` right after a footnote or link reference: `[^a]` then `:` at a line's start reads back as a
 *   footnote definition (one may interrupt a paragraph), and `[a]` then `: /u` at a paragraph's start as a
 *   link definition. The printer escapes `[` in text but not the `:` after a reference it prints.
 * - Lists nested as first children: the printer switches to the other bullet whenever a list's bullet is
 *   the one it used last, anywhere before. After a list, `- x` then a list holding a list holding an
 *   empty item came out `* * *`, a thematic break. A list that opens a list item follows no list in its
 *   item, so what was printed before it does not count; its own rule for three empty levels (`- - *`) then
 *   keeps them apart.
 * - Tight lists in a container: mdast-util-from-markdown reads a list in a quote that a blank line (`>`)
 *   and another block follow as loose (spread), though no blank line separates its items, where it reads
 *   the same list at the top as tight. Printed loose, it read back loose, so a body's second write added
 *   blank lines between the items. tightenLists reads such a list as CommonMark does: tight.
 */

/**
 * Marks tight each list of a parsed tree that mdast read as loose only for a blank line after its last item:
 * none of its items is loose and no blank line separates two of them (see the module comment). Lists
 * without positions are left as they are.
 */
export function tightenLists(root: Root): Root {
  const pending: (Root | RootContent)[] = [root];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node.type === 'list' && node.spread) {
      const items = node.children;
      const apart = items.some((item, at) => {
        const next = items[at + 1];
        if (item.spread || !item.position || (next && !next.position)) return true;
        return next !== undefined && next.position!.start.line - item.position.end.line > 1;
      });
      if (!apart) node.spread = false;
    }
    if ('children' in node) for (const child of node.children) pending.push(child);
  }
  return root;
}

/** Prints a list as the default handler does, forgetting the last bullet when the list opens a list item. */
const list: Handle = (node: List, parent, state, info) => {
  if (parent?.type === 'listItem' && parent.children[0] === node) state.bulletLastUsed = undefined;
  return defaultHandlers.list(node, parent, state, info);
};

/** What markdown.ts's printer adds so that what it prints reads back as the same tree (see the module comment). */
export const printStability: ToMarkdownOptions = {
  handlers: { list },
  unsafe: [{ character: ':', beforeNode: ['footnoteReference', 'linkReference'], inConstruct: 'phrasing' }],
};
