import type { Root } from 'mdast';
import { badRequest } from '../errors.js';
import { blockNesting } from './blocks/parse.js';
import { MAX_MARKDOWN_DEPTH, MAX_PARAGRAPH_DELIMITERS } from './markdown-limits/limits.js';
import { Readings } from './markdown-limits/scanner.js';

export { MAX_MARKDOWN_DEPTH, MAX_PARAGRAPH_DELIMITERS };

/**
 * The limits that keep Markdown cheap to parse, decided by one linear scan before any parser sees the
 * text. Both parsers of the project (mdast in markdown.ts, markdown-it in outline.ts and the reader) pay
 * for nesting: mdast's tree walks recurse once per level (a few thousand levels overflow the stack) and its
 * tokenizer re-reads every open container on every line, so `>`×2,000 takes seconds. Real documents nest a
 * handful of levels. mdast also pairs inline delimiters by walking back over the paragraph from each
 * closing one (micromark's attention and label-end resolvers), which is quadratic in how many a paragraph
 * holds: `*a`×50,000 took minutes. Real paragraphs hold a few dozen.
 *
 * A level is a block quote, a list item, a footnote definition or one of GitBook's blocks (blocks/parse.ts)
 * that holds the line, or a link, an image, or an emphasis, strong or strikethrough delimiter still open at
 * a point of a paragraph. The scan (markdown-limits/scanner.ts) follows CommonMark's block rules as
 * micromark reads them (container markers and indentation, lazy continuation lines, what may interrupt a
 * paragraph, fenced code, HTML blocks, tables); where micromark and markdown-it read a line two ways that
 * lead apart, it follows both readings until they agree again (a bounded number: a body that would need
 * more is refused). It counts every delimiter that may open as open until one that surely closes it meets it
 * (markdown-limits/inlines.ts). Where the parsers differ, or where it cannot tell, it counts more, never
 * less: what it accepts, no parser nests deeper (test/property/markdown-limits.test.ts checks this against
 * both on generated hostile Markdown).
 */

/** Where a body nests deepest, or first beyond the limit. */
export interface MarkdownNesting {
  /** The deepest nesting found (the first beyond MAX_MARKDOWN_DEPTH, when there is one). */
  readonly depth: number;
  /** Its line, from 1. */
  readonly line: number;
}


/** Calls `visit` with the start and end of each line of a text (lines end at `\n`, `\r\n` or `\r`, as in CommonMark). */
function eachLine(text: string, visit: (start: number, end: number) => boolean): void {
  let start = 0;
  for (;;) {
    let end = start;
    while (end < text.length) {
      const code = text.charCodeAt(end);
      if (code === 0x0a || code === 0x0d) break;
      end++;
    }
    if (!visit(start, end)) return;
    if (end >= text.length) return;
    start = end + (text.charCodeAt(end) === 0x0d && text.charCodeAt(end + 1) === 0x0a ? 2 : 1);
  }
}

/**
 * How deep a body nests: the first line that nests beyond MAX_MARKDOWN_DEPTH, or else the deepest.
 * Linear in the length of the text.
 */
export function markdownNesting(markdown: string): MarkdownNesting {
  const scanner = new Readings();
  const blocks = blockNesting(markdown);
  let deepest: MarkdownNesting = { depth: 0, line: 1 };
  let line = 0;
  eachLine(markdown, (start, end) => {
    const depth = scanner.line(markdown, start, end) + (blocks[line] ?? 0);
    line++;
    if (depth > deepest.depth) deepest = { depth, line };
    return depth <= MAX_MARKDOWN_DEPTH;
  });
  return deepest;
}

/** The first line of a body beyond a limit: nesting too deep, or a paragraph with too many delimiters. */
export type MarkdownExcess = { readonly line: number; readonly depth: number } | { readonly line: number; readonly delimiters: number };

/** Reads a body line by line, calling `visit` with each line's bounds and whether it goes beyond a limit. */
function scanLines(markdown: string, visit: (start: number, end: number, excess: { depth: number } | { delimiters: number } | undefined) => boolean): void {
  const scanner = new Readings();
  // GitBook's blocks (blocks/parse.ts) are levels too: a hint in a tab in tabs holds its lines 3 deep.
  const blocks = blockNesting(markdown);
  let line = 0;
  eachLine(markdown, (start, end) => {
    const depth = scanner.line(markdown, start, end) + (blocks[line++] ?? 0);
    const excess = depth > MAX_MARKDOWN_DEPTH ? { depth } : scanner.delimiters > MAX_PARAGRAPH_DELIMITERS ? { delimiters: scanner.delimiters } : undefined;
    return visit(start, end, excess);
  });
}

/** The first line of a body that goes beyond a limit of this module, or undefined. Linear in the length of the text. */
export function markdownExcess(markdown: string): MarkdownExcess | undefined {
  let found: MarkdownExcess | undefined;
  let line = 0;
  scanLines(markdown, (_start, _end, excess) => {
    line++;
    if (excess) found = { line, ...excess };
    return !excess;
  });
  return found;
}

/**
 * Refuses (400) a body beyond a limit of this module, naming the limit and the line. `where` names the
 * field (`document.markdown`, `body.markdown`, ...). Every path that takes Markdown from a client calls it
 * before parsing.
 */
export function assertMarkdownLimits(markdown: string, where: string): void {
  const excess = markdownExcess(markdown);
  if (excess === undefined) return;
  if ('depth' in excess) {
    throw badRequest(
      `${where}: line ${excess.line} nests ${excess.depth} levels deep; Markdown may nest at most ${MAX_MARKDOWN_DEPTH} (block quotes, list items, footnotes, links, images, emphasis and GitBook's blocks each count as a level)`,
    );
  }
  throw badRequest(
    `${where}: the paragraph at line ${excess.line} holds more than ${MAX_PARAGRAPH_DELIMITERS} emphasis, strikethrough and bracket delimiters (runs of *, _ or ~, and ]), the most a paragraph may`,
  );
}

/** The mdast nodes that are a level, as the scan counts the Markdown that makes them. */
const LEVELS = new Set(['blockquote', 'listItem', 'footnoteDefinition', 'emphasis', 'strong', 'delete', 'link', 'linkReference', 'gitbookBlock']);

/**
 * Refuses (400) a tree that nests beyond MAX_MARKDOWN_DEPTH, counted without recursion: for trees made
 * otherwise than by parsing Markdown (an imported HTML page), before the printer recurses into them.
 */
export function assertTreeDepth(root: Root, where: string): void {
  const pending: [Root | Root['children'][number], number][] = [[root, 0]];
  while (pending.length > 0) {
    const [node, above] = pending.pop()!;
    const depth = above + (LEVELS.has(node.type) ? 1 : 0);
    if (depth > MAX_MARKDOWN_DEPTH) {
      throw badRequest(`${where}: its content nests more than ${MAX_MARKDOWN_DEPTH} levels deep (block quotes, list items, links and emphasis), the most Markdown may`);
    }
    if ('children' in node) for (const child of node.children) pending.push([child, depth]);
  }
}

/** A fence of backticks longer than every run of backticks in the lines it encloses. */
function fenceFor(lines: readonly string[]): string {
  let longest = 0;
  for (const line of lines) for (const run of line.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** The body with each run of lines beyond a limit put in a fenced code block. */
function fenceExcess(markdown: string): { text: string; changed: boolean } {
  const out: string[] = [];
  let over: string[] = [];
  let changed = false;
  const flush = () => {
    if (over.length === 0) return;
    const fence = fenceFor(over);
    out.push(fence, ...over, fence);
    over = [];
    changed = true;
  };
  scanLines(markdown, (start, end, excess) => {
    const line = markdown.slice(start, end);
    if (excess) over.push(line);
    else {
      flush();
      out.push(line);
    }
    return true;
  });
  flush();
  return { text: changed ? out.join('\n') : markdown, changed };
}

/**
 * A body as the parsers may read it: unchanged when it is within the limits of this module (every body
 * written since they exist); else each run of lines beyond them is shown as a code block, its text kept,
 * so that bodies stored before still read, render and export, in bounded time and stack. Never throws;
 * linear.
 */
export function boundedMarkdown(markdown: string): string {
  if (markdownExcess(markdown) === undefined) return markdown;
  let text = markdown;
  // Fencing lines closes the containers and the paragraph around them, so the lines after go less far,
  // never further; a further pass is for the rare line that a fence changed.
  for (let pass = 0; pass < 3; pass++) {
    const fenced = fenceExcess(text);
    if (!fenced.changed) return text;
    text = fenced.text;
  }
  return markdownExcess(text) === undefined ? text : `${fenceFor([text])}\n${text}\n${fenceFor([text])}`;
}
