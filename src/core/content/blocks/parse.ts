import {
  ALERT_TYPES,
  HINT_STYLES,
  type AlertType,
  type Attributes,
  type Block,
  type BlockKind,
  type BodyItem,
  type HintStyle,
  type MarkdownItem,
  type TabBlock,
} from './model.js';
import { attribute, readTagLine, type TagName } from './tags.js';

/**
 * Reads a body into GitBook's blocks and the Markdown between them (model.ts), in one pass over its lines
 * with a stack of open blocks: linear in the length of the body, no recursion but one level per alert. A tag
 * counts only at the start of a line (after up to 3 spaces), outside fenced code and frontmatter, so fences
 * and indented code hide tags. What does not make a block is the text it is: an unknown or malformed tag, a
 * closing tag nothing opened, a block never closed (its opening line turns back to text and what it held
 * joins its parent), a tab outside tabs, tabs holding anything but tabs. `{% embed %}` and `{% file %}` close
 * themselves unless a closing tag follows their caption. Blocks nest at most MAX_BLOCK_NESTING deep; a tag
 * that would open one deeper is text.
 */

/** The deepest blocks nest (alerts included). The Markdown limits count each level of blocks too. */
export const MAX_BLOCK_NESTING = 32;

/** A leaf being read: its lines so far. */
interface OpenText { kind: 'text'; lines: string[]; line: number; opensBody: boolean }

/** A block being read. */
interface Frame {
  readonly kind: BlockKind | 'root';
  readonly line: number;
  /** How it was written: shown as text if it turns out to be no block. */
  readonly open: string;
  readonly attributes: Attributes;
  readonly items: (OpenText | Block)[];
  /** A `<details>` summary, once read. */
  summary?: string;
  /** Tabs that hold something other than tabs. */
  broken?: boolean;
}

/** What a tab was written as, for when its tabs turn out to be text. */
type Written = WeakMap<Block, { open: string; close: string }>;

const ALERT = /^ {0,3}> ?\[!([A-Za-z]+)\][ \t]*$/;
const QUOTE = /^ {0,3}>/;
const QUOTE_MARKER = /^ {0,3}> ?/;
const DETAILS = /^ {0,3}<details( open)?>[ \t]*(?:<summary>(.*)<\/summary>[ \t]*)?$/i;
const SUMMARY = /^ {0,3}<summary>(.*)<\/summary>[ \t]*$/i;
const END_DETAILS = /^ {0,3}<\/details>[ \t]*$/i;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const BLANK = /^[ \t]*$/;

const isBlank = (line: string) => BLANK.test(line);
const isHintStyle = (style: string): style is HintStyle => (HINT_STYLES as readonly string[]).includes(style);

/** A fenced code block's opening fence, or undefined; a backtick fence's info string holds no backtick. */
function fenceOf(line: string): { char: string; length: number } | undefined {
  const match = FENCE.exec(line);
  if (!match) return undefined;
  if (match[1][0] === '`' && line.indexOf('`', match[0].length) >= 0) return undefined;
  return { char: match[1][0], length: match[1].length };
}

/** Whether a line closes a fence. */
function closesFence(line: string, fence: { char: string; length: number }): boolean {
  const match = FENCE.exec(line);
  return !!match && match[1][0] === fence.char && match[1].length >= fence.length && isBlank(line.slice(match[0].length));
}

/** Where the lines of a body's leading YAML frontmatter end (the index after its closing `---`), or 0. */
function frontmatterEnd(lines: readonly string[]): number {
  if (lines[0]?.trimEnd() !== '---') return 0;
  for (let at = 1; at < lines.length; at++) if (lines[at].trimEnd() === '---') return at + 1;
  return 0;
}

/** The reader of one run of lines (a body, or an alert's lines without their `>`). */
class BlockReader {
  private readonly stack: Frame[];
  private fence: { char: string; length: number } | undefined;
  private inQuote = false;

  constructor(
    private readonly lines: readonly string[],
    /** The body line of lines[0], from 1. */
    private readonly firstLine: number,
    /** How many blocks hold these lines already (the alerts around them). */
    private readonly above: number,
    /** How many of those are tags (alerts are block quotes, which the Markdown limits count already). */
    private readonly tagsAbove: number,
    private readonly written: Written,
    private readonly depths: number[] | undefined,
  ) {
    this.stack = [{ kind: 'root', line: firstLine, open: '', attributes: [], items: [] }];
  }

  private get top(): Frame {
    return this.stack[this.stack.length - 1];
  }

  /** Adds a line of text to the innermost open block, noting how deep it is. */
  private text(text: string, line: number): void {
    const frame = this.top;
    if (frame.kind === 'tabs' && !isBlank(text)) frame.broken = true;
    if (this.depths) {
      const depth = this.tagsAbove + this.stack.filter((open) => open.kind !== 'root' && open.kind !== 'alert').length;
      this.depths[line - 1] = Math.max(this.depths[line - 1] ?? 0, depth);
    }
    const last = frame.items[frame.items.length - 1];
    if (last?.kind === 'text') last.lines.push(text);
    else frame.items.push({ kind: 'text', lines: [text], line, opensBody: line === 1 && this.above === 0 && this.stack.length === 1 });
  }

  /** Adds what another block held to the innermost open one, joining text to text. */
  private add(items: readonly (OpenText | Block)[]): void {
    const frame = this.top;
    for (const item of items) {
      const last = frame.items[frame.items.length - 1];
      if (item.kind === 'text' && last?.kind === 'text') last.lines.push(...item.lines);
      else {
        if (frame.kind === 'tabs' && item.kind !== 'tab' && !(item.kind === 'text' && item.lines.every(isBlank))) frame.broken = true;
        frame.items.push(item);
      }
    }
  }

  private opens(kind: BlockKind, line: number, open: string, attributes: Attributes = []): void {
    this.stack.push({ kind, line, open, attributes, items: [] });
  }

  /** Whether a block may open here: not beyond the nesting limit. */
  private get roomy(): boolean {
    return this.above + this.stack.length - 1 < MAX_BLOCK_NESTING;
  }

  /** Handles an opening tag: a block opens, or the tag is text. */
  private openTag(name: TagName, attributes: Attributes, raw: string, line: number): void {
    const valid =
      this.roomy &&
      (name === 'hint' ? isHintStyle(attribute(attributes, 'style') ?? 'info')
        : name === 'tab' ? this.top.kind === 'tabs'
        : name === 'embed' || name === 'content-ref' ? !!attribute(attributes, 'url')
        : name === 'file' ? !!attribute(attributes, 'src')
        : true);
    if (valid) this.opens(name, line, raw, attributes);
    else this.text(raw, line);
  }

  /** Handles a closing tag: it closes the innermost open block of its kind, or is text. */
  private closeTag(kind: BlockKind, raw: string, line: number): void {
    let at = this.stack.length - 1;
    while (at > 0 && this.stack[at].kind !== kind) at--;
    if (at === 0) return this.text(raw, line);
    while (this.stack.length - 1 > at) this.unwind();
    const frame = this.stack.pop()!;
    const text = (lines: string[], at: number): OpenText => ({ kind: 'text', lines, line: at, opensBody: false });
    if (frame.kind === 'tabs' && frame.broken) {
      // Tabs holding anything but tabs: all of it is text again, its tabs' tags too.
      const tabAsText = (item: OpenText | Block) => {
        const written = item.kind === 'tab' ? this.written.get(item) : undefined;
        return written ? [text([written.open], item.line), ...(item as TabBlock).children.map(reopen), text([written.close], item.line)] : [item];
      };
      this.add([text([frame.open], frame.line), ...frame.items.flatMap(tabAsText), text([raw], line)]);
      return;
    }
    const block = this.blockOf(frame);
    if (block.kind === 'tab') this.written.set(block, { open: frame.open, close: raw });
    this.add([block]);
  }

  /** Ends the innermost open block without its closing tag: a self-closing one as it is, any other as text. */
  private unwind(): void {
    const frame = this.stack.pop()!;
    if (frame.kind === 'embed' || frame.kind === 'file') {
      this.add([this.blockOf({ ...frame, items: [] }), ...frame.items]);
      return;
    }
    const opening: OpenText = { kind: 'text', lines: frame.kind === 'details' ? [frame.open, ...(frame.summary !== undefined ? [`<summary>${frame.summary}</summary>`] : [])] : [frame.open], line: frame.line, opensBody: false };
    this.add([opening, ...frame.items]);
  }

  /** The block a closed frame makes. */
  private blockOf(frame: Frame): Block {
    const children = frame.items.flatMap((item): BodyItem[] => (item.kind === 'text' ? leafOf(item) : [item]));
    const base = { line: frame.line, attributes: frame.attributes, children };
    const value = (name: string) => attribute(frame.attributes, name);
    switch (frame.kind) {
      case 'hint':
        return { kind: 'hint', style: (value('style') ?? 'info') as HintStyle, ...base };
      case 'tabs':
        return { kind: 'tabs', ...base, children: children.filter((child): child is TabBlock => child.kind === 'tab') };
      case 'tab':
        return { kind: 'tab', title: value('title') ?? '', ...base };
      case 'code':
        return { kind: 'code', ...(value('title') !== undefined && { title: value('title') }), lineNumbers: value('lineNumbers') === 'true', wrap: value('overflow') === 'wrap', ...base };
      case 'details':
        return { kind: 'details', summary: frame.summary ?? '', open: / open>/i.test(frame.open), ...base };
      case 'embed':
      case 'content-ref':
        return { kind: frame.kind, url: value('url')!, ...base };
      case 'file':
        return { kind: 'file', url: value('src')!, ...base };
      case 'alert':
      case 'root':
        throw new Error(`a ${frame.kind} has no tag`);
    }
  }

  /** Reads an alert from line `at`: its `>` lines, read as a body of their own. Returns the index after it. */
  private alert(type: AlertType, at: number): number {
    let end = at + 1;
    while (end < this.lines.length && QUOTE.test(this.lines[end])) end++;
    const inner = this.lines.slice(at + 1, end).map((line) => line.replace(QUOTE_MARKER, ''));
    const tags = this.stack.filter((open) => open.kind !== 'root').length;
    const reader = new BlockReader(inner, this.firstLine + at + 1, this.above + this.stack.length, this.tagsAbove + tags, this.written, this.depths);
    const children = reader.read();
    this.add([{ kind: 'alert', alert: type, line: this.firstLine + at, attributes: [], children }]);
    return end;
  }

  /** Reads the lines. */
  read(): BodyItem[] {
    const lines = this.lines;
    let at = this.above === 0 ? frontmatterEnd(lines) : 0;
    for (let skipped = 0; skipped < at; skipped++) this.text(lines[skipped], this.firstLine + skipped);
    while (at < lines.length) {
      const text = lines[at];
      const line = this.firstLine + at;
      const quoted = this.inQuote;
      this.inQuote = QUOTE.test(text) || (this.inQuote && !isBlank(text));
      at++;
      if (this.fence) {
        if (closesFence(text, this.fence)) this.fence = undefined;
        this.text(text, line);
        continue;
      }
      const fence = fenceOf(text);
      if (fence) {
        this.fence = fence;
        this.text(text, line);
        continue;
      }
      const alert = quoted ? null : ALERT.exec(text);
      const type = alert?.[1].toUpperCase() as AlertType | undefined;
      if (type && (ALERT_TYPES as readonly string[]).includes(type) && this.roomy) {
        at = this.alert(type, at - 1);
        this.inQuote = false;
        continue;
      }
      if (this.line(text, line)) this.inQuote = false;
    }
    while (this.stack.length > 1) this.unwind();
    return this.stack[0].items.flatMap((item): BodyItem[] => (item.kind === 'text' ? leafOf(item) : [item]));
  }

  /** Reads a line outside code: a tag line, a `<details>` line, or text. Returns whether it was a block's line. */
  private line(text: string, line: number): boolean {
    const top = this.top;
    if (top.kind === 'details' && top.summary === undefined && top.items.every((item) => item.kind === 'text' && item.lines.every(isBlank))) {
      const summary = SUMMARY.exec(text);
      if (summary) {
        top.summary = summary[1];
        return true;
      }
    }
    const details = DETAILS.exec(text);
    if (details && this.roomy) {
      this.opens('details', line, text.trim().replace(/<summary>.*$/i, ''));
      if (details[2] !== undefined) this.top.summary = details[2];
      return true;
    }
    if (END_DETAILS.test(text)) {
      this.closeTag('details', text.trim(), line);
      return true;
    }
    const pieces = readTagLine(text);
    if (!pieces) {
      this.text(text, line);
      return false;
    }
    for (const piece of pieces) {
      if (piece.kind === 'open') this.openTag(piece.name, piece.attributes, piece.raw, line);
      else if (piece.kind === 'close') this.closeTag(piece.name, piece.raw, line);
      else this.text(piece.text, line);
    }
    return true;
  }
}

/** A leaf as it was being read, to join text again. */
const reopen = (item: BodyItem): OpenText | Block => (item.kind === 'markdown' ? { kind: 'text', lines: [item.text], line: item.line, opensBody: item.opensBody } : item);

/** A leaf's text, or nothing for blank lines only. */
function leafOf(open: OpenText): MarkdownItem[] {
  if (open.lines.every(isBlank)) return [];
  return [{ kind: 'markdown', text: open.lines.join('\n'), line: open.line, opensBody: open.opensBody }];
}

/** Whether a body may hold a block at all: most bodies hold none, and are one leaf without a pass over their lines. */
const mayHoldBlocks = (markdown: string) => markdown.includes('{%') || markdown.includes('[!') || /<details/i.test(markdown);

/** Reads a body into blocks and Markdown (see the module comment). */
export function parseBlocks(markdown: string): BodyItem[] {
  if (!mayHoldBlocks(markdown)) return markdown.trim() === '' ? [] : [{ kind: 'markdown', text: markdown, line: 1, opensBody: true }];
  return new BlockReader(markdown.split(/\r\n?|\n/), 1, 0, 0, new WeakMap(), undefined).read();
}

/**
 * How many tag blocks (alerts not counted: they are block quotes) hold each line of a body, by line index.
 * It counts a block as open until it closes, so a block that turns out to be text counts too: never less.
 */
export function blockNesting(markdown: string): readonly number[] {
  if (!mayHoldBlocks(markdown)) return [];
  const depths: number[] = [];
  new BlockReader(markdown.split(/\r\n?|\n/), 1, 0, 0, new WeakMap(), depths).read();
  return depths;
}
