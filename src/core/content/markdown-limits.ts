import type { Root } from 'mdast';
import { badRequest } from '../errors.js';
import { blockNesting } from './blocks/parse.js';

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
 * a point of a paragraph. The scan follows
 * CommonMark's block rules as micromark reads them (container markers and indentation, lazy continuation
 * lines, what may interrupt a paragraph, fenced code, HTML blocks, tables) and counts every delimiter that
 * may open as open until one that may close meets it. Where the parsers differ, or where it cannot tell, it
 * counts more, never less: what it accepts, no parser nests deeper (test/property/markdown-limits.test.ts
 * checks this against both on generated hostile Markdown).
 */

/** The deepest a body may nest (see the module comment). */
export const MAX_MARKDOWN_DEPTH = 32;

/**
 * The most delimiters one paragraph (a heading, a table row) may hold that mdast pairs by walking back:
 * runs of `*`, `_` and `~` that may open or close emphasis or strikethrough, and closing brackets `]`.
 */
export const MAX_PARAGRAPH_DELIMITERS = 256;

/** Where a body nests deepest, or first beyond the limit. */
export interface MarkdownNesting {
  /** The deepest nesting found (the first beyond MAX_MARKDOWN_DEPTH, when there is one). */
  readonly depth: number;
  /** Its line, from 1. */
  readonly line: number;
}

/** A block quote on the stack of open containers; a list item is the column its content starts at. */
const QUOTE = -1;
/**
 * A footnote definition on the stack: its content is 4 columns in, but micromark continues one that directly
 * holds another with the same 4 spaces (the inner one's check sees the outer's line prefix), or with 4 more.
 */
const FOOTNOTE = -2;
/** The columns a footnote definition's content starts at. */
const FOOTNOTE_COLUMNS = 4;

const TAB = 0x09;
const SPACE = 0x20;
const GREATER = 0x3e;
const BACKSLASH = 0x5c;
const PIPE = 0x7c;

/** A line being read: the text it is in (a copy of the line, its tabs expanded, when it has some), where it starts and ends. */
interface Line {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** Whether the line had tabs, which markdown-it counts otherwise than CommonMark after a marker. */
  readonly tabs: boolean;
}

/** The columns of spaces from `at`. */
function spacesAt(line: Line, at: number): number {
  let end = at;
  while (end < line.end && line.text.charCodeAt(end) === SPACE) end++;
  return end - at;
}

/** Whether a line holds only spaces from `at`. */
const blankFrom = (line: Line, at: number) => at + spacesAt(line, at) >= line.end;

/**
 * The line from `start` to `end` of a text, with its tabs expanded to the next multiple of 4 columns, as
 * CommonMark counts them (a copy is made only for a line that has a tab).
 */
function lineOf(text: string, start: number, end: number): Line {
  let tab = start;
  while (tab < end && text.charCodeAt(tab) !== TAB) tab++;
  if (tab === end) return { text, start, end, tabs: false };
  let out = '';
  let from = start;
  for (let at = tab; at < end; at++) {
    if (text.charCodeAt(at) !== TAB) continue;
    out += text.slice(from, at);
    out += ' '.repeat(4 - (out.length % 4));
    from = at + 1;
  }
  out += text.slice(from, end);
  return { text: out, start: 0, end: out.length, tabs: true };
}

/** The length of the list marker at `at` (`-`, `+`, `*`, `1.`, `1)`), which must be followed by a space or the end. */
function listMarker(line: Line, at: number): number {
  const code = line.text.charCodeAt(at);
  let end = at;
  if (code === 0x2d || code === 0x2b || code === 0x2a) end = at + 1;
  else {
    while (end - at < 9 && end < line.end && line.text.charCodeAt(end) >= 0x30 && line.text.charCodeAt(end) <= 0x39) end++;
    const next = line.text.charCodeAt(end);
    if (end === at || end >= line.end || (next !== 0x2e && next !== 0x29)) return 0;
    end++;
  }
  return end === line.end || line.text.charCodeAt(end) === SPACE ? end - at : 0;
}

/** The length of a GFM footnote definition's label at `at` (`[^label]:`), 0 if none. */
function footnoteMarker(line: Line, at: number): number {
  const { text } = line;
  if (text[at] !== '[' || text[at + 1] !== '^') return 0;
  let end = at + 2;
  while (end < line.end && end - at < 1000 && text.charCodeAt(end) > SPACE && text[end] !== '[' && text[end] !== ']') end++;
  return end > at + 2 && end + 1 < line.end && text[end] === ']' && text[end + 1] === ':' ? end + 2 - at : 0;
}

/** A fence: its character and length. */
interface Fence {
  readonly char: number;
  readonly length: number;
}

/** The run of one character from `at`: its end. */
function runEnd(line: Line, at: number, code: number): number {
  let end = at;
  while (end < line.end && line.text.charCodeAt(end) === code) end++;
  return end;
}

/** The fence a line opens at `at` (up to 3 spaces, then 3 or more backticks or tildes), or undefined. */
function fenceAt(line: Line, at: number): Fence | undefined {
  const start = at + spacesAt(line, at);
  if (start - at > 3) return undefined;
  const char = line.text.charCodeAt(start);
  if (char !== 0x60 && char !== 0x7e) return undefined;
  const end = runEnd(line, start, char);
  if (end - start < 3) return undefined;
  // A backtick fence's info string has no backtick.
  if (char === 0x60) for (let i = end; i < line.end; i++) if (line.text.charCodeAt(i) === 0x60) return undefined;
  return { char, length: end - start };
}

/** Whether the line closes a fence at `at`: up to 3 spaces, at least as many of its characters, then spaces only. */
function closesFence(line: Line, at: number, fence: Fence): boolean {
  const start = at + spacesAt(line, at);
  if (start - at > 3) return false;
  const end = runEnd(line, start, fence.char);
  return end - start >= fence.length && blankFrom(line, end);
}

/** The cells of a table row from `at` (pipes not escaped by a backslash split it; the outer ones do not count). */
function cellsOf(line: Line, at: number): number {
  let start = at;
  let end = line.end;
  while (start < end && line.text.charCodeAt(start) <= SPACE) start++;
  while (end > start && line.text.charCodeAt(end - 1) <= SPACE) end--;
  let pipes = 0;
  let last = -1;
  for (let i = start; i < end; i++) {
    const code = line.text.charCodeAt(i);
    if (code === BACKSLASH) i++;
    else if (code === PIPE) {
      pipes++;
      last = i;
    }
  }
  if (line.text.charCodeAt(start) === PIPE) pipes--;
  if (last === end - 1 && end - 1 > start) pipes--;
  return pipes + 1;
}

/** Whether a line is a GFM table's delimiter row (`| --- | :-: |`) from `at`. */
function isDelimiterRow(line: Line, at: number): boolean {
  let dashes = false;
  let pipes = false;
  for (let i = at; i < line.end; i++) {
    const code = line.text.charCodeAt(i);
    if (code === 0x2d) dashes = true;
    else if (code === PIPE) pipes = true;
    else if (code !== SPACE && code !== 0x3a && code !== TAB) return false;
  }
  return dashes && pipes;
}

/** The block names of HTML blocks of kind 6 (CommonMark, micromark and markdown-it agree on them). */
const HTML_BLOCK_NAMES =
  'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul';
const ATTRIBUTE = `(?:\\s+[a-zA-Z_:][a-zA-Z0-9:._-]*(?:\\s*=\\s*(?:[^"'=<>\`\\x00-\\x20]+|'[^']*'|"[^"]*"))?)`;

/**
 * CommonMark's HTML blocks: how each kind starts (at most 3 spaces in) and the line that ends it (undefined:
 * a blank line). Their lines are raw HTML: a fence or a marker in them is text, so the scan must know them.
 */
const HTML_BLOCKS: readonly { readonly start: RegExp; readonly end?: RegExp; readonly interrupts: boolean }[] = [
  { start: /^ {0,3}<(?:script|pre|style|textarea)(?:\s|>|$)/i, end: /<\/(?:script|pre|style|textarea)>/i, interrupts: true },
  { start: /^ {0,3}<!--/, end: /-->/, interrupts: true },
  { start: /^ {0,3}<\?/, end: /\?>/, interrupts: true },
  { start: /^ {0,3}<![A-Za-z]/, end: />/, interrupts: true },
  { start: /^ {0,3}<!\[CDATA\[/, end: /\]\]>/, interrupts: true },
  { start: new RegExp(`^ {0,3}</?(?:${HTML_BLOCK_NAMES})(?:\\s|/?>|$)`, 'i'), interrupts: true },
  // A whole opening or closing tag alone on its line (kind 7), which cannot interrupt a paragraph.
  { start: new RegExp(`^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*${ATTRIBUTE}*\\s*/?>|</[A-Za-z][A-Za-z0-9-]*\\s*>)\\s*$`), interrupts: false },
];

/**
 * The HTML block a line starts at `at`, if any (`paragraph`: whether it would interrupt one), and whether
 * the parsers may disagree on it: markdown-it starts no block at `<!` and a lower-case letter, where
 * micromark does; and whether a lone tag (kind 7) starts one depends on what came before in ways the two
 * read differently (after a table's row, after an empty list item).
 */
function htmlBlockAt(line: Line, at: number, paragraph: boolean): { kind: (typeof HTML_BLOCKS)[number]; disputed: boolean } | undefined {
  const start = at + spacesAt(line, at);
  if (start - at > 3 || line.text.charCodeAt(start) !== 0x3c) return undefined;
  const text = line.text.slice(at, line.end);
  const kind = HTML_BLOCKS.find((kind) => (kind.interrupts || !paragraph) && kind.start.test(text));
  if (!kind) return undefined;
  return { kind, disputed: !kind.interrupts || (kind === HTML_BLOCKS[3] && /^ {0,3}<![a-z]/.test(text)) };
}

/** A thematic break (`***`, `- - -`, `___`), and a setext heading's underline (`===`, `---`). */
const THEMATIC_BREAK = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const SETEXT = /^ {0,3}(?:=+|-+)[ \t]*$/;

/** Whether an ATX heading (`## Title`) starts at `at`. */
function isHeading(line: Line, at: number): boolean {
  const start = at + spacesAt(line, at);
  if (start - at > 3) return false;
  const end = runEnd(line, start, 0x23);
  return end > start && end - start <= 6 && (end === line.end || line.text.charCodeAt(end) === SPACE || line.text.charCodeAt(end) === TAB);
}

const PUNCTUATION = /[\p{P}\p{S}]/u;
const WHITESPACE = /\s/u;

/** What surrounds a delimiter run: whitespace (line ends included), punctuation, other, or an astral character. */
const enum Side {
  Space,
  Punct,
  Other,
  Astral,
}

/** The kind of the character at `at` (a line end past the ends). */
function sideAt(line: Line, at: number, start: number): Side {
  if (at < start || at >= line.end) return Side.Space;
  const code = line.text.charCodeAt(at);
  if (code < 0x80) {
    if (code <= SPACE || code === 0x7f) return Side.Space;
    return (code >= 0x21 && code <= 0x2f) || (code >= 0x3a && code <= 0x40) || (code >= 0x5b && code <= 0x60) || code >= 0x7b ? Side.Punct : Side.Other;
  }
  if (code >= 0xd800 && code <= 0xdfff) return Side.Astral;
  const char = line.text[at];
  return WHITESPACE.test(char) ? Side.Space : PUNCTUATION.test(char) ? Side.Punct : Side.Other;
}

/** Whether a delimiter run may open and may close, by CommonMark's flanking rules; 1 opens, 2 closes. */
function flanking(char: number, before: Side, after: Side): number {
  // Parsers disagree on astral characters (emoji): read as either, a run opens and does not close.
  if (before === Side.Astral || after === Side.Astral) return after === Side.Space ? 0 : 1;
  const left = after !== Side.Space && (after !== Side.Punct || before !== Side.Other);
  const right = before !== Side.Space && (before !== Side.Punct || after !== Side.Other);
  if (char === 0x5f) return (left && (!right || before === Side.Punct) ? 1 : 0) | (right && (!left || after === Side.Punct) ? 2 : 0);
  return (left ? 1 : 0) | (right ? 2 : 0);
}

/** The delimiters still open in a paragraph: brackets, and emphasis runs by character. */
class OpenInlines {
  private brackets = 0;
  private stars = 0;
  private underscores = 0;
  private tildes = 0;
  /** The delimiters of the paragraph that mdast pairs by walking back (MAX_PARAGRAPH_DELIMITERS). */
  delimiters = 0;

  /** Forgets everything: a new paragraph, heading or table row begins. */
  reset(): void {
    this.brackets = this.stars = this.underscores = this.tildes = this.delimiters = 0;
  }

  /** How many are open now. */
  get open(): number {
    return this.brackets + this.stars + this.underscores + this.tildes;
  }

  /** Reads the text of a line from `at`; returns the most that were open at any point of it. */
  read(line: Line, at: number): number {
    const { text } = line;
    let most = this.open;
    for (let i = at; i < line.end; i++) {
      const code = text.charCodeAt(i);
      if (code === BACKSLASH) i++;
      else if (code === 0x5b) this.brackets++;
      else if (code === 0x5d) {
        this.delimiters++;
        if (this.brackets > 0) this.brackets--;
      } else if (code === 0x2a || code === 0x5f || code === 0x7e) {
        const end = runEnd(line, i, code);
        const length = end - i;
        const can = flanking(code, sideAt(line, i - 1, at), sideAt(line, end, at));
        if (can !== 0) this.delimiters++;
        const open = code === 0x2a ? this.stars : code === 0x5f ? this.underscores : this.tildes;
        // A run that may close closes what it can; what is left of it opens, if it may.
        const closed = can & 2 ? Math.min(length, open) : 0;
        const now = open - closed + (can & 1 ? length - closed : 0);
        if (code === 0x2a) this.stars = now;
        else if (code === 0x5f) this.underscores = now;
        else this.tildes = now;
        i = end - 1;
      } else continue;
      if (this.open > most) most = this.open;
    }
    return most;
  }
}

/** Reads a body line by line, telling how deep each line nests (see the module comment). */
class NestingScanner {
  /** The open containers, outermost first. */
  private readonly stack: number[] = [];
  /** The fenced code block the lines are in, and how many containers hold it. */
  private fence: (Fence & { readonly depth: number }) | undefined;
  /**
   * The HTML block the lines are in (the line that ends it; undefined: a blank one), how many containers
   * hold it, and whether only micromark reads it so (its lines are then read as Markdown too).
   */
  private html: { readonly end: RegExp | undefined; readonly depth: number; readonly disputed: boolean } | undefined;
  /** Whether the last line left a paragraph open (the next may continue it, even lazily). */
  private paragraph = false;
  /** The cells of the paragraph's first line, while it is its only line (a table's header, if a delimiter row follows). */
  private header = 0;
  /** Whether the lines are the rows of a table. */
  private table = false;
  private readonly inlines = new OpenInlines();

  /** The delimiters the paragraph the last line is in holds so far (0 after a line that is not text). */
  get delimiters(): number {
    return this.inlines.delimiters;
  }

  /** Reads the line of `text` from `start` to `end`; returns the deepest it nests. */
  line(text: string, start: number, end: number): number {
    const line = lineOf(text, start, end);
    const stack = this.stack;
    const before = stack.length;
    let at = line.start;
    let matched = 0;
    // The open containers the line continues: a block quote by its marker, a list item by indentation
    // (the run of spaces is measured once for all the items it continues).
    let spaces = -1;
    for (; matched < stack.length; matched++) {
      const container = stack[matched];
      if (container === QUOTE) {
        // CommonMark allows 3 spaces before the marker; markdown-it continues a quote after any indentation.
        const marker = at + spacesAt(line, at);
        if (line.text.charCodeAt(marker) !== GREATER) break;
        at = marker + 1;
        if (line.text.charCodeAt(at) === SPACE) at++;
        spaces = -1;
        continue;
      }
      if (spaces < 0) spaces = spacesAt(line, at);
      if (at + spaces >= line.end) at = line.end;
      else if (container === FOOTNOTE && matched > 0 && stack[matched - 1] === FOOTNOTE && spaces < FOOTNOTE_COLUMNS) {
        // Held by a footnote the line continued: with no more spaces, the outer one's prefix serves.
        if (spaces > 0) break;
      } else if (container === FOOTNOTE ? spaces >= FOOTNOTE_COLUMNS : spaces >= container) {
        const columns = container === FOOTNOTE ? FOOTNOTE_COLUMNS : container;
        at += columns;
        spaces -= columns;
      } else break;
    }
    if (this.fence) {
      if (matched >= this.fence.depth) {
        if (closesFence(line, at, this.fence)) this.fence = undefined;
        return stack.length;
      }
      // The containers that held the fence ended, and the code block with them.
      this.fence = undefined;
    }
    // Whether the line may start a fence or an HTML block, which hide the lines after from the scan.
    let hides = true;
    if (this.html) {
      const { end, depth, disputed } = this.html;
      // Raw HTML until its end: a blank line (which is not part of it), or a line holding its end.
      if (matched >= depth && (end !== undefined || !blankFrom(line, at))) {
        if (end?.test(line.text.slice(at, line.end))) this.html = undefined;
        if (!disputed) return stack.length;
        // Raw to micromark, Markdown to markdown-it: read as Markdown, but hiding nothing until its end.
        hides = false;
      } else this.html = undefined;
    }
    if (blankFrom(line, at)) {
      stack.length = matched;
      this.endParagraph();
      return matched;
    }
    // A paragraph the line may continue, lazily too, and that some block starts may not interrupt; a
    // table's rows are none (micromark lets any block start end a table, and no row is lazy).
    const prose = this.paragraph && !this.table;
    // The containers the line's markers open (their content columns, or QUOTE), and where its text starts.
    const markers: number[] = [];
    let textAt = at;
    let code = false;
    // Whether the first marker may interrupt a paragraph the line continues: micromark and markdown-it let
    // neither an empty list item, nor one numbered other than 1, nor a footnote definition do so (a footnote
    // definition not even one the line would continue lazily).
    let interrupts = true;
    let footnote = false;
    for (;;) {
      const indent = spacesAt(line, textAt);
      // After a marker and a tab, markdown-it reads no indented code where CommonMark does (`> \t>`,
      // `- \t* `, `- \t[`): a marker there counts, and text there is text.
      const next = textAt + indent;
      const nested = markers.length > 0 && (line.text.charCodeAt(next) === GREATER || listMarker(line, next) > 0 || footnoteMarker(line, next) > 0);
      if (indent >= 4 && !nested) {
        // Indented code, unless it continues a paragraph.
        code = !(prose && markers.length === 0) && !(line.tabs && markers.length > 0);
        break;
      }
      const marker = textAt + indent;
      let width = 0;
      let content = 0;
      if (line.text.charCodeAt(marker) === GREATER) {
        width = 1;
        content = QUOTE;
        if (line.text.charCodeAt(marker + 1) === SPACE) width++;
      } else if ((width = listMarker(line, marker)) > 0) {
        const after = spacesAt(line, marker + width);
        const empty = marker + width + after >= line.end;
        // CommonMark: the content starts 1 to 4 spaces after the marker (1 when the rest is blank or code).
        const padding = empty || after >= 5 ? 1 : after;
        if (markers.length === 0) interrupts = matched < before || (!empty && (width === 1 || (line.text.startsWith('1', marker) && width === 2)));
        content = indent + width + padding;
        width += padding;
      } else if ((width = footnoteMarker(line, marker)) > 0) {
        if (markers.length === 0) interrupts = false;
        footnote = true;
        content = FOOTNOTE;
        width += spacesAt(line, marker + width);
      } else break;
      markers.push(content);
      textAt = Math.min(marker + width, line.end);
    }
    if (markers.length > 0 && prose && !interrupts) {
      this.header = 0;
      if (matched < before) {
        // A footnote definition: the line continues the paragraph lazily, its markers as text; counted as if
        // they opened containers too, as CommonMark's reference parser would.
        return stack.length + markers.length + this.inlines.read(line, at);
      }
      // The line continues the paragraph, its markers as text. The scan opens them anyway, which only adds
      // containers after those the paragraph is in, and reads on in the paragraph's inlines.
      stack.length = matched;
      for (const content of markers) if (stack.length <= MAX_MARKDOWN_DEPTH) stack.push(content);
      return matched + markers.length + this.inlines.read(line, textAt);
    }
    const opened = markers.length;
    if (opened > 0) {
      stack.length = matched;
      // Past the limit the line is refused (or fenced), whatever follows: the stack need not grow, and
      // lines that continue it all stay beyond the limit.
      for (const content of markers) if (stack.length <= MAX_MARKDOWN_DEPTH) stack.push(content);
      at = textAt;
    }
    if (footnote) {
      // markdown-it has no footnotes: it reads the line as a paragraph's text. Read so, the line starts no
      // code, fence or HTML block (which would hide lines from the scan), and the next line may continue it.
      this.endParagraph();
      this.paragraph = true;
      return matched + opened + this.inlines.read(line, at);
    }
    const fence = code || !hides ? undefined : fenceAt(line, at);
    const html = code || fence || !hides ? undefined : htmlBlockAt(line, at, prose && opened === 0);
    const rule = !code && !fence && !html && THEMATIC_BREAK.test(line.text.slice(at, line.end));
    // A line that opens nothing and does not match every container continues the paragraph lazily
    // (CommonMark keeps the containers open); any other block start closes those it did not match.
    const lazy = opened === 0 && matched < before && prose && !fence && (!html || html.disputed) && !rule;
    if (opened === 0 && !lazy) stack.length = matched;
    const depth = lazy ? stack.length : matched + opened;
    // A setext heading's underline ends the paragraph it follows (not lazily), as a thematic break does.
    if (code || rule || blankFrom(line, at) || (prose && opened === 0 && matched === before && SETEXT.test(line.text.slice(at, line.end)))) {
      this.endParagraph();
      return depth;
    }
    if (fence) {
      this.fence = { ...fence, depth: stack.length };
      this.endParagraph();
      return depth;
    }
    if (html) {
      const { kind, disputed } = html;
      // Its end may be on the line that starts it.
      if (kind.end === undefined || !kind.end.test(line.text.slice(at, line.end))) this.html = { end: kind.end, depth: stack.length, disputed };
      if (!disputed) {
        this.endParagraph();
        return depth;
      }
    }
    const continues = this.paragraph && opened === 0;
    if (!continues) this.inlines.reset();
    if (isHeading(line, at)) {
      const most = this.inlines.read(line, at);
      // Not a paragraph the next line may continue, so that it starts afresh; the heading's delimiters are
      // still told for this line (see delimiters).
      this.paragraph = false;
      this.table = false;
      this.header = 0;
      return depth + most;
    }
    if (continues && this.header > 0 && isDelimiterRow(line, at) && cellsOf(line, at) === this.header) {
      this.table = true;
      this.header = 0;
      this.inlines.reset();
      return depth;
    }
    this.header = continues ? 0 : cellsOf(line, at);
    // Each row of a table is read apart (its cells are, in fact; a row counts them together).
    if (this.table && continues) this.inlines.reset();
    else if (!continues) this.table = false;
    this.paragraph = true;
    return depth + this.inlines.read(line, at);
  }

  private endParagraph(): void {
    this.paragraph = false;
    this.table = false;
    this.header = 0;
    this.inlines.reset();
  }
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
  const scanner = new NestingScanner();
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
  const scanner = new NestingScanner();
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
