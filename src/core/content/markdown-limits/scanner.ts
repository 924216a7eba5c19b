import { OpenInlines } from './inlines.js';
import { BACKSLASH, blankFrom, GREATER, holds, HTML_TAG, type Line, lineOf, PIPE, runEnd, SPACE, spacesAt, TAB } from './line.js';
import { MAX_MARKDOWN_DEPTH } from './limits.js';

/**
 * The depth scan's reading of Markdown's blocks, line by line (see ../markdown-limits.ts). Where the parsers
 * read a line two ways that lead apart, a reading forks (NestingScanner.choose) and the scan follows both
 * (Readings), until they agree again.
 */

/** A block quote on the stack of open containers; a list item is the column its content starts at. */
const QUOTE = -1;
/**
 * A footnote definition on the stack: its content is 4 columns in, but micromark continues one that directly
 * holds another with the same 4 spaces (the inner one's check sees the outer's line prefix), or with 4 more.
 */
const FOOTNOTE = -2;
/** The columns a footnote definition's content starts at. */
const FOOTNOTE_COLUMNS = 4;

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
  { start: new RegExp(`^ {0,3}${HTML_TAG}\\s*$`), interrupts: false },
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

/** Reads a body line by line, telling how deep each line nests, in one reading (see the module comment). */
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
  private inlines = new OpenInlines();
  /** The choices this reading makes at the line's forks, in order (false: the usual reading). */
  private choices: boolean[] = [];
  /** How many forks the line being read met so far. */
  private met = 0;
  /** The fence and HTML block as the line being read found them: a fork starts from them. */
  private entryFence: NestingScanner['fence'];
  private entryHtml: NestingScanner['html'];
  private entryTableOnly = false;
  /** Whether the last line was read as a table's header that markdown-it alone may see (see tableFork). */
  private tableOnly = false;
  /** Whether this reading turned out to be none: the line after such a header was no delimiter row. */
  dead = false;
  /** The readings that forked from this one on the line being read, each to choose otherwise. */
  forks: NestingScanner[] = [];

  /** A copy of this reading as it was when the line being read began (forks happen before it changes anything else). */
  private copy(): NestingScanner {
    const copy = new NestingScanner();
    copy.stack.push(...this.stack);
    copy.fence = this.entryFence;
    copy.html = this.entryHtml;
    copy.paragraph = this.paragraph;
    copy.header = this.header;
    copy.table = this.table;
    copy.tableOnly = this.entryTableOnly;
    copy.inlines = this.inlines.clone();
    return copy;
  }

  /**
   * At a fork of the line being read: false, the usual reading, for this reading, which hands a copy that
   * chooses true to the caller (forks); or the choice a fork made.
   */
  private choose(): boolean {
    const at = this.met++;
    if (at < this.choices.length) return this.choices[at];
    const fork = this.copy();
    fork.choices = [...this.choices, true];
    this.forks.push(fork);
    this.choices.push(false);
    return false;
  }

  /** Makes ready for the next line: the usual reading of each of its forks. */
  restart(): void {
    if (this.choices.length > 0) this.choices = [];
    if (this.forks.length > 0) this.forks = [];
  }

  /** What tells two readings apart for the lines to come: equal keys read on alike. */
  key(): string {
    const { fence, html } = this;
    return `${this.stack.join()}|${fence ? `${fence.char},${fence.length},${fence.depth}` : ''}|${html ? `${html.end},${html.depth},${html.disputed}` : ''}|${this.paragraph},${this.header},${this.table},${this.tableOnly}|${this.inlines.key()}`;
  }

  /** The delimiters the paragraph the last line is in holds so far (0 after a line that is not text). */
  get delimiters(): number {
    return this.inlines.delimiters;
  }

  /** Reads the line of `text` from `start` to `end`; returns the deepest it nests. */
  line(text: string, start: number, end: number): number {
    const depth = this.read(text, start, end);
    // A header only markdown-it may have read: without its delimiter row, this reading was not one.
    if (this.entryTableOnly && !this.table) this.dead = true;
    return depth;
  }

  private read(text: string, start: number, end: number): number {
    this.met = 0;
    this.entryFence = this.fence;
    this.entryHtml = this.html;
    this.entryTableOnly = this.tableOnly;
    this.tableOnly = false;
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
        // 4 spaces or more before it: micromark reads no marker (the line may be lazy): a fork.
        if (marker - at >= 4 && this.choose()) break;
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
        // After a marker and a tab, markdown-it reads text or code depending on columns the scan does not
        // follow (where CommonMark reads code): a fork.
        code = !(prose && markers.length === 0) && (!(line.tabs && markers.length > 0) || this.choose());
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
        let padding = empty || after >= 5 ? 1 : after;
        // Tabs: markdown-it counts the columns after a marker from where the quote's content starts, not
        // from the line's start, and may find fewer: a fork, the other reading with the least padding.
        if (line.tabs && padding > 1 && markers.length <= MAX_MARKDOWN_DEPTH && this.choose()) padding = 1;
        const starts = !empty && (width === 1 || (line.text.startsWith('1', marker) && width === 2));
        if (markers.length === 0) interrupts = matched < before || starts;
        // After a line that left a block open (a paragraph, indented code, ...), micromark holds every marker
        // of the line to the rule for interrupting one (one that may not interrupt is text), markdown-it only
        // the first: a fork.
        else if (!starts && markers.length <= MAX_MARKDOWN_DEPTH && this.choose()) break;
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
    // A footnote definition where the line would continue a paragraph lazily: markdown-it reads text that
    // keeps the paragraph's containers, micromark a definition that closes those the line did not match: a fork.
    // markdown-it tries a table before any other block: a fence with a pipe in it may be a table's header
    // to it, when the next line is a delimiter row: a fork, whose reading ends if the next line is not one.
    const tableFork = !code && hides && fenceAt(line, textAt) !== undefined && holds(line, PIPE) && this.choose();
    // An empty footnote definition: micromark leaves no paragraph the next line may continue: a fork.
    const emptyFootnote = footnote && blankFrom(line, textAt) && this.choose();
    if (markers.length > 0 && prose && !interrupts && !tableFork && !(matched < before && this.choose())) {
      this.header = 0;
      if (matched < before) {
        // The line continues the paragraph lazily, its markers as text; counted as if they opened
        // containers too, as CommonMark's reference parser would.
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
      this.paragraph = !emptyFootnote;
      return matched + opened + this.inlines.read(line, at);
    }
    if (tableFork) {
      this.endParagraph();
      this.tableOnly = true;
    }
    const fence = code || !hides || tableFork ? undefined : fenceAt(line, at);
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

/** The most readings the scan follows at once; a line that would need more counts as beyond the limit. */
const MOST_READINGS = 16;

/** Reads a body line by line in every reading the parsers may make of it, telling how deep each line nests. */
export class Readings {
  private readings = [new NestingScanner()];
  /** The most delimiters the paragraph the last line is in holds so far, in any reading. */
  delimiters = 0;

  /** Reads the line of `text` from `start` to `end`; returns the deepest it nests in any reading. */
  line(text: string, start: number, end: number): number {
    let deepest = 0;
    const read: NestingScanner[] = [];
    const pending = this.readings;
    for (const reading of pending) reading.restart();
    while (pending.length > 0) {
      const reading = pending.pop()!;
      deepest = Math.max(deepest, reading.line(text, start, end));
      for (const fork of reading.forks) pending.push(fork);
      if (!reading.dead) read.push(reading);
    }
    this.readings = read.length === 1 ? read : [...new Map(read.map((reading) => [reading.key(), reading])).values()];
    this.delimiters = 0;
    for (const reading of this.readings) this.delimiters = Math.max(this.delimiters, reading.delimiters);
    if (this.readings.length <= MOST_READINGS) return deepest;
    this.readings.length = MOST_READINGS;
    return Math.max(deepest, MAX_MARKDOWN_DEPTH + 1);
  }
}
