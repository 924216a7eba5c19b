import type MarkdownIt from 'markdown-it';
import type { Definition, Root, RootContent } from 'mdast';
import { toMarkdown } from 'mdast-util-to-markdown';
import type { BodyItem, MarkdownItem } from './model.js';

/**
 * Link definitions (`[label]: url`) hold for a whole body, as CommonMark has them, but GitBook's blocks cut a
 * body into pieces that are parsed one by one: a link used inside a hint and defined below it would read as
 * text, and the printer would then escape its brackets, changing what the author wrote. Each piece is
 * therefore parsed seeing the definitions of the others.
 */

/** Every Markdown piece of a body, blocks' contents included, in order. */
function piecesOf(items: readonly BodyItem[], into: MarkdownItem[] = []): MarkdownItem[] {
  for (const item of items) {
    if (item.kind === 'markdown') into.push(item);
    else piecesOf(item.children, into);
  }
  return into;
}

/**
 * Parses each Markdown piece of `items` with `parse`, seeing the definitions of the other pieces: a piece that
 * lacks some is parsed again with them printed after it, and those nodes taken off. When the piece would not
 * end its last block before them (an unclosed fence takes them in), it keeps its own parse.
 */
export function parsePiecesWithDefinitions(items: readonly BodyItem[], parse: (item: MarkdownItem, text: string) => RootContent[]): (item: MarkdownItem) => RootContent[] {
  const pieces = piecesOf(items);
  const parsed = new Map(pieces.map((piece) => [piece, parse(piece, piece.text)] as const));
  const definitions = new Map<MarkdownItem, Definition[]>();
  for (const [piece, nodes] of parsed) definitions.set(piece, nodes.filter((node): node is Definition => node.type === 'definition'));
  const all = [...definitions.values()].flat();
  if (pieces.length < 2 || all.length === 0) return (item) => parsed.get(item)!;
  for (const piece of pieces) {
    const own = new Set(definitions.get(piece)!.map((definition) => definition.identifier));
    const missing = new Map<string, Definition>();
    // The first definition of a label is the one that holds.
    for (const definition of all) if (!own.has(definition.identifier) && !missing.has(definition.identifier)) missing.set(definition.identifier, definition);
    if (missing.size === 0) continue;
    const appendix = toMarkdown({ type: 'root', children: [...missing.values()].map(({ position: _position, ...definition }) => definition) } as Root);
    const nodes = parse(piece, `${piece.text}\n\n${appendix}`);
    const tail = nodes.slice(nodes.length - missing.size);
    const appended = tail.length === missing.size && tail.every((node) => node.type === 'definition' && missing.has(node.identifier));
    if (appended) parsed.set(piece, nodes.slice(0, nodes.length - missing.size));
  }
  return (item) => parsed.get(item)!;
}

/**
 * The same for a markdown-it reader of a body (the outline, the reader), which renders piece after piece with
 * one `env`: every piece's definitions are read into `env.references` first (block rules alone), so that a
 * piece sees those that follow it too. A body of one piece needs nothing.
 */
export function readDefinitionsFirst(parser: MarkdownIt, items: readonly BodyItem[], env: object): void {
  if (items.length === 1 && items[0]!.kind === 'markdown') return;
  for (const piece of piecesOf(items)) parser.block.parse(piece.text, parser, env, []);
}
