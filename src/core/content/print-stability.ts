import type { Html, List, ListItem, Root, RootContent } from 'mdast';
import { defaultHandlers, type Handle, type Options as ToMarkdownOptions, type State } from 'mdast-util-to-markdown';

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
 * - Tight lists that must print a blank line: between two blocks of an item (a paragraph then HTML that a
 *   paragraph would take in, or indented code) or two items (after HTML that ends only at a blank line), the
 *   printer puts one, so the list reads back loose and its next print spreads every item: the second write of
 *   a body changed it. Such a list is printed loose from the first.
 * - Items that hold a footnote definition of several blocks: the printer puts a blank line between the
 *   definition's blocks, and mdast reads an item as spread for a blank line anywhere in it but in a list or a
 *   quote (a definition is a container it does not count), so the item's next print put a blank line between
 *   the definition and its next block. Such an item is printed spread from the first.
 * - A link definition whose label starts with `^` (mdast reads `[^a]: *` after a leading `---` as one):
 *   printed as it is, it reads back as a footnote definition. The `^` after a label's `[` is escaped.
 * - Inline HTML over two lines: the parser takes up to 3 spaces off the start of each of its lines after
 *   the first, so `<a` then `    >` holds `<a\n >`, which printed as it is reads back as a paragraph and a
 *   block quote. Inline HTML's later lines are printed 3 spaces in: they read back as they were, and none
 *   starts a block.
 */

/**
 * Prints inline HTML (in a paragraph, a heading, ...) with its later lines 3 spaces in (see the module
 * comment); what the printer looks at before it (`<`) is the default handler's.
 */
const html: Handle = Object.assign(
  (node: Html, parent: Parameters<Handle>[1]) => {
    const printed = defaultHandlers.html(node);
    return parent && !BLOCK_PARENTS.has(parent.type) ? printed.replaceAll('\n', '\n   ') : printed;
  },
  { peek: defaultHandlers.html.peek },
);

/** The nodes whose HTML children are blocks of HTML, printed as they are. */
const BLOCK_PARENTS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);

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

/** Whether the printer puts a blank line between two siblings: its join rules, asked as it asks them. */
function blankLineBetween(left: RootContent, right: RootContent, parent: List | ListItem, state: State): boolean {
  for (let at = state.join.length - 1; at >= 0; at--) {
    const result = state.join[at]!(left, right, parent, state);
    if (result === true || result === false) return true;
    if (typeof result === 'number') return result > 0;
  }
  return true;
}

/**
 * Whether a tight list would print with a blank line somewhere in it (between two items, or two blocks of
 * an item: HTML that ends only at a blank line, a paragraph before indented code): then it reads back loose,
 * every item spread.
 */
function printsLoose(node: List, state: State): boolean {
  const items = node.children;
  return items.some(
    (item, at) =>
      (at + 1 < items.length && blankLineBetween(item, items[at + 1]!, node, state)) ||
      item.children.some((child, n) => n + 1 < item.children.length && blankLineBetween(child, item.children[n + 1]!, item, state)),
  );
}

/** Whether a footnote definition prints a blank line: between two of its blocks, or in a definition it holds. */
function definitionPrintsBlankLine(node: RootContent): boolean {
  return node.type === 'footnoteDefinition' && (node.children.length > 1 || node.children.some(definitionPrintsBlankLine));
}

/** Whether an item of several blocks reads back spread, for a blank line in a footnote definition it holds (see the module comment). */
const readsSpread = (item: ListItem) => !item.spread && item.children.length > 1 && item.children.some(definitionPrintsBlankLine);

/**
 * Prints a list as the default handler does, forgetting the last bullet when the list opens a list item,
 * loose from the start when a blank line must stand in it, and each item spread that reads back so (see
 * the module comment).
 */
const list: Handle = (node: List, parent, state, info) => {
  if (parent?.type === 'listItem' && parent.children[0] === node) state.bulletLastUsed = undefined;
  // Copies: the tree given to the printer stays as it was.
  const printed = !node.spread && printsLoose(node, state)
    ? { ...node, spread: true, children: node.children.map((item) => ({ ...item, spread: true })) }
    : node.children.some(readsSpread)
      ? { ...node, children: node.children.map((item) => (readsSpread(item) ? { ...item, spread: true } : item)) }
      : node;
  return defaultHandlers.list(printed, parent, state, info);
};

/** What markdown.ts's printer adds so that what it prints reads back as the same tree (see the module comment). */
export const printStability: ToMarkdownOptions = {
  handlers: { list, html },
  unsafe: [
    { character: ':', beforeNode: ['footnoteReference', 'linkReference'], inConstruct: 'phrasing' },
    { character: '^', before: '\\[', inConstruct: 'label' },
  ],
};
