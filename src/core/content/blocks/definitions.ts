import type { Definition, RootContent } from 'mdast';
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
 * A definition as Markdown that reads back as it: its label as written, its URL in `<…>` and its title in
 * quotes, each with what would end or change it backslash-escaped (printed here, not by mdast-util-to-markdown,
 * whose setup costs a millisecond a call).
 */
function printDefinition(definition: Definition): string {
  const escaped = (text: string, special: RegExp) => text.replace(special, '\\$&');
  const title = definition.title == null ? '' : ` "${escaped(definition.title, /[\\"&]/g)}"`;
  return `[${definition.label ?? definition.identifier}]: <${escaped(definition.url, /[\\<>&]/g)}>${title}`;
}

/** A label as mdast identifies it (micromark's normalizeIdentifier, lower-cased): whitespace runs as one space. */
const identifierOf = (label: string) => label.replace(/[\t\n\r ]+/g, ' ').replace(/^ | $/g, '').toLowerCase().toUpperCase().toLowerCase();

/** The labels a piece may use: the text of each innermost `[…]` (at most 999 characters, as a label is). */
function bracketedIn(text: string): Set<string> {
  const labels = new Set<string>();
  for (const match of text.matchAll(/\[([^[\]]{1,999})\]/g)) labels.add(identifierOf(match[1]!));
  return labels;
}

/**
 * Parses each Markdown piece of `items` with `parse`, seeing the definitions of the other pieces: a piece that
 * names a label defined only elsewhere is parsed again with those definitions printed after it, and their
 * nodes taken off. Only the definitions a piece names are added, so the work stays linear in the body
 * (a thousand hints and a thousand definitions do not parse a million lines). When the piece would not end
 * its last block before them (an unclosed fence takes them in), it keeps its own parse.
 */
export function parsePiecesWithDefinitions(items: readonly BodyItem[], parse: (item: MarkdownItem, text: string) => RootContent[]): (item: MarkdownItem) => RootContent[] {
  const pieces = piecesOf(items);
  const parsed = new Map(pieces.map((piece) => [piece, parse(piece, piece.text)] as const));
  const definitions = new Map<MarkdownItem, Definition[]>();
  for (const [piece, nodes] of parsed) definitions.set(piece, nodes.filter((node): node is Definition => node.type === 'definition'));
  const all = [...definitions.values()].flat();
  if (pieces.length < 2 || all.length === 0) return (item) => parsed.get(item)!;
  // The first definition of a label is the one that holds.
  const first = new Map<string, Definition>();
  for (const definition of all) if (!first.has(definition.identifier)) first.set(definition.identifier, definition);
  for (const piece of pieces) {
    const own = new Set(definitions.get(piece)!.map((definition) => definition.identifier));
    const missing = new Map<string, Definition>();
    for (const label of bracketedIn(piece.text)) if (!own.has(label) && first.has(label)) missing.set(label, first.get(label)!);
    if (missing.size === 0) continue;
    const appendix = [...missing.values()].map(printDefinition).join('\n\n');
    const nodes = parse(piece, `${piece.text}\n\n${appendix}`);
    const tail = nodes.slice(nodes.length - missing.size);
    const appended = tail.length === missing.size && tail.every((node) => node.type === 'definition' && missing.has(node.identifier));
    if (appended) parsed.set(piece, nodes.slice(0, nodes.length - missing.size));
  }
  return (item) => parsed.get(item)!;
}

/**
 * What readDefinitionsFirst uses of a markdown-it instance: its block parser. Named structurally, so that the
 * package's declarations do not need markdown-it's types (an embedding app has none).
 */
interface BlockParser {
  readonly block: { parse(src: string, md: BlockParser, env: object, outTokens: unknown[]): void };
}

/**
 * The same for a markdown-it reader of a body (the outline, the reader), which renders piece after piece with
 * one `env`: every piece's definitions are read into `env.references` first (block rules alone), so that a
 * piece sees those that follow it too. A body of one piece needs nothing.
 */
export function readDefinitionsFirst(parser: BlockParser, items: readonly BodyItem[], env: object): void {
  if (items.length === 1 && items[0]!.kind === 'markdown') return;
  for (const piece of piecesOf(items)) parser.block.parse(piece.text, parser, env, []);
}
