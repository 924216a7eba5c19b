import GithubSlugger from 'github-slugger';
import type { Heading, Root, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown, frontmatterToMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown, gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown, type Options as ToMarkdownOptions } from 'mdast-util-to-markdown';
import { toString } from 'mdast-util-to-string';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { badRequest } from '../errors.js';
import { parseOrThrow } from '../validate.js';
import { parsePiecesWithDefinitions } from './blocks/definitions.js';
import { blocksToMarkdown, itemsToMdast } from './blocks/mdast.js';
import { parseBlocks } from './blocks/parse.js';
import { boundedMarkdown } from './markdown-limits.js';
import { PageTextFields } from './page-fields.js';
import { PageLayoutInput, PageLayoutSchema, type PageLayoutSettings } from './page-layout.js';
import { printStability, tightenLists } from './print-stability.js';

/**
 * The one Markdown parser and printer of the project (mdast: mdast-util-from-markdown and
 * mdast-util-to-markdown, with GitHub Flavored Markdown and YAML frontmatter). Pages, comments, links,
 * search, import and PDF all read Markdown through these functions, so they agree on what a document says.
 */

const PARSE_OPTIONS = {
  extensions: [gfm(), frontmatter(['yaml'])],
  mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml'])],
};
/** For Markdown after a block: frontmatter only stands at the start of a body. */
const INNER_PARSE_OPTIONS = { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] };

/** How Markdown is printed: one canonical spelling, so that what a page stores is stable. */
const PRINT_OPTIONS: ToMarkdownOptions = {
  extensions: [gfmToMarkdown(), frontmatterToMarkdown(['yaml']), blocksToMarkdown, printStability],
  bullet: '-',
  emphasis: '_',
  strong: '*',
  fences: true,
  listItemIndent: 'one',
  rule: '-',
};

/**
 * Parses Markdown (GFM, YAML frontmatter, GitBook's blocks as `gitbookBlock` nodes: blocks/) into an mdast
 * tree. Never throws: any text is some Markdown. Lines that nest beyond the limit (markdown-limits.ts) read
 * as a code block: writes refuse them, and bodies stored before the limit still parse, in bounded time and
 * stack.
 */
export function parseMarkdown(markdown: string): Root {
  const text = boundedMarkdown(markdown);
  const items = parseBlocks(text);
  // Most bodies are one piece of Markdown: parsed whole, as before blocks, positions and all.
  if (items.length === 1 && items[0].kind === 'markdown' && items[0].opensBody) return tightenLists(fromMarkdown(items[0].text, PARSE_OPTIONS));
  const starts = lineStarts(text);
  const parsed = parsePiecesWithDefinitions(items, (item, piece) => fromMarkdown(piece, item.opensBody ? PARSE_OPTIONS : INNER_PARSE_OPTIONS).children);
  const children = itemsToMdast(items, (item) => {
    const nodes = parsed(item);
    // Positions are in the body's text where the piece stands in it as written (not an alert's, whose `>`
    // are taken off): rewriteUrls edits the source at them. Elsewhere there are none.
    const offset = starts[item.line - 1];
    const verbatim = text.startsWith(item.text, offset);
    for (const node of nodes) shiftPositions(node, verbatim ? { lines: item.line - 1, offset } : undefined);
    return nodes;
  });
  return tightenLists({ type: 'root', children });
}

/** The offset of each line's start in a text (lines end as parseBlocks ends them). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (const match of text.matchAll(/\r\n?|\n/g)) starts.push(match.index + match[0].length);
  return starts;
}

/** Moves the positions of a tree parsed from a piece of a body to where the piece stands, or removes them. */
function shiftPositions(node: Root | RootContent, by: { lines: number; offset: number } | undefined): void {
  if (node.position) {
    if (!by) delete node.position;
    else
      for (const point of [node.position.start, node.position.end]) {
        point.line += by.lines;
        if (point.offset !== undefined) point.offset += by.offset;
      }
  }
  if ('children' in node) for (const child of node.children as RootContent[]) shiftPositions(child, by);
}

/** Prints an mdast tree as Markdown, in the canonical spelling ('' for an empty tree). */
export function stringifyMarkdown(root: Root): string {
  if (root.children.length === 0) return '';
  // `---` on a body's first line opens YAML frontmatter when read again: such a body spells its rules `***`.
  return toMarkdown(root, root.children[0].type === 'thematicBreak' ? { ...PRINT_OPTIONS, rule: '*' } : PRINT_OPTIONS);
}

/** Markdown in its canonical spelling: parsed, then printed. */
export function normalizeMarkdown(markdown: string): string {
  return stringifyMarkdown(parseMarkdown(markdown));
}

/** The page fields a Markdown document's frontmatter may set. */
export interface PageMeta {
  title?: string;
  description?: string;
  emoji?: string;
  icon?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  /** Layout options (readLayout). */
  layout?: PageLayoutSettings;
}

/**
 * A frontmatter `layout`: the public API's page layout options (`title: false`, `coverSize: full`), or the
 * hosted platform's spelling of the same, each shown part as `{visible: …}` (a cover's `size` too).
 * Options this platform does not know are ignored, as other frontmatter keys are.
 */
function readLayout(value: unknown): PageLayoutSettings {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('markdown: frontmatter layout must be a mapping');
  const flat: Record<string, unknown> = {};
  for (const [name, option] of Object.entries(value as Record<string, unknown>)) {
    if (!(name in PageLayoutSchema.entries)) continue;
    const spelled = typeof option === 'object' && option !== null && !Array.isArray(option) ? (option as Record<string, unknown>) : undefined;
    flat[name] = spelled === undefined ? option : spelled.visible;
    if (name === 'cover' && spelled?.size !== undefined && flat.coverSize === undefined) flat.coverSize = spelled.size;
  }
  return parseOrThrow(PageLayoutInput, flat, 'markdown: frontmatter layout');
}

const TEXT_FIELDS = ['title', 'description', 'emoji', 'icon'] as const;
const FLAG_FIELDS = ['hidden', 'noIndex', 'noRobotsIndex'] as const;

/**
 * Reads the page fields of a document's YAML frontmatter (absent: none). Other keys are ignored, as Git
 * Sync does; YAML that does not parse, or a known key of the wrong type, is a 400.
 */
export function readFrontmatter(root: Root): PageMeta {
  const node = root.children.find((child) => child.type === 'yaml');
  if (!node) return {};
  let data: unknown;
  try {
    data = parseYaml(node.value);
  } catch (error) {
    throw badRequest(`markdown: the frontmatter is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data)) throw badRequest('markdown: the frontmatter must be a YAML mapping');
  const record = data as Record<string, unknown>;
  const meta: PageMeta = {};
  for (const field of TEXT_FIELDS) {
    if (record[field] === undefined || record[field] === null) continue;
    if (typeof record[field] !== 'string') throw badRequest(`markdown: frontmatter ${field} must be a string`);
    meta[field] = parseOrThrow(PageTextFields[field], record[field], `markdown: frontmatter ${field}`);
  }
  for (const field of FLAG_FIELDS) {
    if (record[field] === undefined || record[field] === null) continue;
    if (typeof record[field] !== 'boolean') throw badRequest(`markdown: frontmatter ${field} must be true or false`);
    meta[field] = record[field] as boolean;
  }
  if (record.layout !== undefined && record.layout !== null) meta.layout = readLayout(record.layout);
  return meta;
}

/** A page's Markdown taken apart: frontmatter fields, the title of a leading `# Heading`, and the body without both. */
export interface PageMarkdown {
  readonly meta: PageMeta;
  /** The text of a first-level heading that opens the document, if any. */
  readonly heading?: string;
  /** The body in canonical Markdown, without frontmatter and without that heading. */
  readonly body: string;
}

/**
 * Splits the Markdown of a page as Git Sync does: the frontmatter sets page fields, a leading
 * first-level heading is the title (unless the frontmatter has one), and both are taken out of the stored
 * body (the title is shown apart).
 */
export function splitPageMarkdown(markdown: string): PageMarkdown {
  const { meta, heading, body } = splitPageRoot(parseMarkdown(markdown));
  return { meta, ...(heading !== undefined && { heading }), body: stringifyMarkdown(body) };
}

/** splitPageMarkdown on a parsed tree: the body stays a tree, for callers that rewrite it before printing. */
export function splitPageRoot(root: Root): { meta: PageMeta; heading?: string; body: Root } {
  const meta = readFrontmatter(root);
  const children: RootContent[] = root.children.filter((child) => child.type !== 'yaml');
  const first = children[0];
  let heading: string | undefined;
  // A leading first-level heading is the title unless the frontmatter names one; then it is content.
  if (meta.title === undefined && first?.type === 'heading' && (first as Heading).depth === 1) {
    heading = plainText(first).trim() || undefined;
    children.shift();
  }
  return { meta, ...(heading !== undefined && { heading }), body: { type: 'root', children } };
}

/**
 * A page's body as `format=markdown` reads it, so that writing it back changes nothing. A body can open with
 * a first-level heading only when the frontmatter that wrote it named the title (splitPageRoot); read
 * bare, that heading would become the title when written back, so the read names the title in frontmatter
 * again. The check is on text: a stored body is printed canonically, a leading heading as `# …`.
 */
export function pageMarkdownAsRead(body: string, title: string): string {
  return /^#(?:[ \t\n]|$)/.test(body) ? `---\n${stringifyYaml({ title })}---\n${body}` : body;
}

/** A node of a tree that points somewhere: a link, an image or a link definition. */
export type UrlNode = Extract<RootContent, { url: string }>;

/** Calls `visit` on every node of a tree that has a URL (links, images, definitions), depth first. */
export function visitUrls(node: Root | RootContent, visit: (node: UrlNode) => void): void {
  if ('url' in node && typeof node.url === 'string') visit(node as UrlNode);
  if ('children' in node) for (const child of node.children as RootContent[]) visitUrls(child, visit);
}

/** The plain text of an mdast node (alt texts and link texts included). */
export function plainText(node: Root | RootContent): string {
  return toString(node);
}

/**
 * The anchor of a heading, as GitHub makes it (`## Getting started` → `getting-started`). Pass one slugger
 * per document so that repeated headings get `-1`, `-2`, ... as they do there.
 */
export function headingAnchor(text: string, slugger: GithubSlugger = new GithubSlugger()): string {
  return slugger.slug(text);
}

/** A new slugger for the headings of one document (see headingAnchor). */
export const newSlugger = (): GithubSlugger => new GithubSlugger();
