import type { BlockContent, DefinitionContent, Parent, RootContent } from 'mdast';
import type { Handle, Options as ToMarkdownOptions, State } from 'mdast-util-to-markdown';
import { URL_ATTRIBUTES, type Block, type BodyItem, type MarkdownItem } from './model.js';
import { printTag } from './tags.js';

/**
 * GitBook's blocks in an mdast tree: one node type, `gitbookBlock`, whose `block` says which block it is and
 * whose children are the mdast of what it holds. markdown.ts makes them from parse.ts's items and prints them
 * back with the handler below, so that stored Markdown keeps its blocks: one canonical spelling, each tag
 * on a line of its own, as the hosted platform writes them. A block that points somewhere (embed,
 * content reference, file) carries its URL in `url`, where visitUrls and the import's link rewriting find
 * it as they find a link's.
 */

/** What a block node says of itself: its block without what it holds. */
export type BlockInfo = Block extends infer Each ? (Each extends Block ? Omit<Each, 'children' | 'line'> : never) : never;

/** A GitBook block in an mdast tree. */
export interface GitbookBlock extends Parent {
  readonly type: 'gitbookBlock';
  readonly block: BlockInfo;
  /** Where an embed, a content reference or a file points (printed in place of its attribute). */
  url?: string;
  children: (BlockContent | DefinitionContent)[];
}

declare module 'mdast' {
  interface BlockContentMap {
    gitbookBlock: GitbookBlock;
  }
  interface RootContentMap {
    gitbookBlock: GitbookBlock;
  }
}

/** The mdast of a body's items, each Markdown item parsed by `parse`. */
export function itemsToMdast(items: readonly BodyItem[], parse: (item: MarkdownItem) => RootContent[]): RootContent[] {
  const nodes: RootContent[] = [];
  for (const item of items) {
    if (item.kind === 'markdown') nodes.push(...parse(item));
    else {
      const { children, line: _line, ...block } = item;
      const node: GitbookBlock = { type: 'gitbookBlock', block, children: itemsToMdast(children, parse) as GitbookBlock['children'] };
      if ('url' in block) node.url = block.url;
      nodes.push(node);
    }
  }
  return nodes;
}

/** The attributes of a block as printed: its URL attribute follows `url`, which a rewrite may have changed. */
function printedAttributes(node: GitbookBlock) {
  const kind = node.block.kind;
  if (!(kind in URL_ATTRIBUTES) || node.url === undefined) return node.block.attributes;
  const name = URL_ATTRIBUTES[kind as keyof typeof URL_ATTRIBUTES];
  return node.block.attributes.map(([key, value]) => [key, key === name ? node.url! : value] as const);
}

/** What a block holds, printed, or '' when it holds nothing. */
function inner(node: GitbookBlock, state: State, info: Parameters<Handle>[3]): string {
  return node.children.length === 0 ? '' : state.containerFlow(node, state.createTracker(info).current());
}

/** Prints a block node (a handler of mdast-util-to-markdown). */
const printBlock: Handle = (node: GitbookBlock, _parent, state, info) => {
  const block = node.block;
  const held = inner(node, state, info);
  switch (block.kind) {
    case 'alert':
      return state.indentLines(`[!${block.alert}]${held === '' ? '' : `\n${held}`}`, (line, _, blank) => '>' + (blank ? '' : ' ') + line);
    case 'details': {
      const summary = block.summary === '' ? '' : `<summary>${block.summary}</summary>\n\n`;
      return `<details${block.open ? ' open' : ''}>\n\n${summary}${held === '' ? '' : `${held}\n\n`}</details>`;
    }
    default: {
      const open = printTag(block.kind, printedAttributes(node));
      // An embed or a file without a caption closes itself.
      if (held === '' && (block.kind === 'embed' || block.kind === 'file')) return open;
      return `${open}\n${held === '' ? '' : `${held}\n`}${printTag(`end${block.kind}`)}`;
    }
  }
};

/** What markdown.ts's printer adds for blocks: the handler, and `{%` escaped where a line of text starts with it. */
export const blocksToMarkdown: ToMarkdownOptions = {
  handlers: { gitbookBlock: printBlock } as ToMarkdownOptions['handlers'],
  unsafe: [{ character: '{', after: '%', atBreak: true }],
};
