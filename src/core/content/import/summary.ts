import type { Link, List, ListItem, Root, RootContent } from 'mdast';
import { parseMarkdown, plainText } from '../markdown.js';

/**
 * The table of contents of a GitBook-style export (`SUMMARY.md`, as Git Sync writes it): nested lists of
 * links to the Markdown files, in order; a `## Heading` starts a group of the top level.
 *
 *     # Table of contents
 *     * [Introduction](README.md)
 *     * [Guides](guides/README.md)
 *       * [Setup](guides/setup.md)
 *     ## Reference
 *     * [API](reference/api.md "API reference")
 *
 * A link title in quotes is the page's title in the tree, in place of the one its file gives.
 */

/** One entry of the table of contents. */
export interface SummaryItem {
  /** Its text (the link's text). */
  readonly title: string;
  /** The URL it links to, as written; absent for an item without a link. */
  readonly target?: string;
  /** The link's title in quotes (`[Text](page.md "Title in the tree")`): the page's title where it is set. */
  readonly treeTitle?: string;
  /** True for a group heading (`## ...`); its items are its children. */
  readonly group?: true;
  readonly children: readonly SummaryItem[];
}

/** The first link of a node, depth first. */
function firstLink(node: RootContent): Link | undefined {
  if (node.type === 'link') return node;
  if (!('children' in node)) return undefined;
  for (const child of node.children as RootContent[]) {
    const found = firstLink(child);
    if (found) return found;
  }
  return undefined;
}

/** The items of a list, with the lists nested in them. */
function itemsOf(list: List): SummaryItem[] {
  return list.children.map((item: ListItem) => {
    const head = item.children.find((child) => child.type !== 'list');
    const link = head && firstLink(head);
    const children = item.children.filter((child): child is List => child.type === 'list').flatMap(itemsOf);
    const treeTitle = link?.title?.trim();
    return { title: plainText(link ?? head ?? item).trim(), ...(link && { target: link.url }), ...(treeTitle && { treeTitle }), children };
  });
}

/** Reads a table of contents: its top-level items and groups, in order. */
export function parseSummary(markdown: string): SummaryItem[] {
  const root: Root = parseMarkdown(markdown);
  const top: SummaryItem[] = [];
  let group: { title: string; group: true; children: SummaryItem[] } | undefined;
  for (const node of root.children) {
    if (node.type === 'heading' && node.depth >= 2) {
      group = { title: plainText(node).trim(), group: true, children: [] };
      top.push(group);
    } else if (node.type === 'list') {
      (group ? group.children : top).push(...itemsOf(node));
    }
  }
  return top;
}
