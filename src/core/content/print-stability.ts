import type { List } from 'mdast';
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
 */

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
