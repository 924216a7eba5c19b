import { BACKSLASH, HTML_TAG, type Line, runEnd, SPACE } from './line.js';

/**
 * The inline delimiters still open at each point of a paragraph, for the depth scan (../markdown-limits.ts).
 * The scan may count more than a parser pairs, never less: a delimiter it wrongly closes would hide a level.
 * So a run closes only what both parsers would let it close: the run of its character opened last, when
 * CommonMark's rule of 3 allows the pair (read on the runs' lengths as written, as markdown-it does, and on
 * what is left of them, as micromark does), never one opened before a bracket still open (emphasis in link
 * text pairs within it), and never where the text may be a code span, an HTML tag, an autolink or a link's
 * destination (delimiters there are text). Every delimiter that may open counts as open until then.
 */

const PUNCTUATION = /[\p{P}\p{S}]/u;
const WHITESPACE = /\s/u;
const BACKTICK = 0x60;
const LESS = 0x3c;
const GREATER = 0x3e;
const STAR = 0x2a;
const UNDERSCORE = 0x5f;
const TILDE = 0x7e;
/** An inline HTML tag or an autolink, whole, as CommonMark (and markdown-it with HTML on) reads them: what they hold is no delimiter. */
const TAG = new RegExp(`^(?:${HTML_TAG}|<[A-Za-z][A-Za-z0-9.+-]{1,31}:[^<>\\x00-\\x20]*>)$`);
/** The most runs or brackets kept apart; more count as open for good (the depth is beyond any limit then). */
const MOST_KEPT = 64;

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
  if (char === UNDERSCORE) return (left && (!right || before === Side.Punct) ? 1 : 0) | (right && (!left || after === Side.Punct) ? 2 : 0);
  return (left ? 1 : 0) | (right ? 2 : 0);
}

/** The punctuation GFM leaves out of the end of a bare URL. */
const TRAILING = new Set([...'?!.,:*_~\'")']);

/** Whether a bare URL may end at `at`: only such punctuation, at most 64 of it (further counts as yes), before a space, `<` or the line's end. */
function endsUrl(line: Line, at: number): boolean {
  for (let i = at; i < Math.min(line.end, at + 64); i++) {
    const code = line.text.charCodeAt(i);
    if (code <= SPACE || code === LESS) return true;
    if (!TRAILING.has(line.text[i])) return false;
  }
  return true;
}

/** A run of delimiters that may still open: its length as written, what is left of it, and whether it may close too. */
interface Run {
  readonly length: number;
  left: number;
  readonly closes: boolean;
}

/** CommonMark's rule of 3: a pair where either run may both open and close, whose lengths sum to a multiple of 3 unless both are. */
const ruleOf3 = (opener: number, closer: number, either: boolean) => either && (opener + closer) % 3 === 0 && (opener % 3 !== 0 || closer % 3 !== 0);

/** Where the paragraph stood when a bracket or a run of backticks was met: how many runs of each character were open. */
interface Mark {
  readonly stars: number;
  readonly underscores: number;
  readonly tildes: number;
  readonly brackets: number;
}

/** A run of backticks that may open a code span: its length, what was open before it, and the regions met before it. */
interface Backticks extends Mark {
  readonly length: number;
  readonly regions: number;
}

/** The delimiters still open in a paragraph (see the module comment). */
export class OpenInlines {
  private stars: Run[] = [];
  private underscores: Run[] = [];
  private tildes: Run[] = [];
  /** The brackets still open, each with what was open before it. */
  private brackets: Mark[] = [];
  /** The characters of the open runs. */
  private runCharacters = 0;
  /** Delimiters beyond MOST_KEPT, open for good. */
  private overflow = 0;
  /** The runs of backticks no run of the same length has closed yet. */
  private backticks: Backticks[] = [];
  /**
   * Whether the text is in a word that may be a bare URL (GFM's autolink literals, markdown-it's linkify):
   * micromark reads a delimiter or a backslash there as part of the link, markdown-it as what it is.
   */
  private inUrl = false;
  /** Whether the text is in what may be an HTML tag or an autolink (`<a` to `>`), or a link's destination (`](` to `)`). */
  private inTag = false;
  private inDestination = false;
  /** How many tags and destinations began: a code span that holds one may not be what it seems, and is not undone. */
  private regions = 0;
  /** The delimiters of the paragraph that mdast pairs by walking back (MAX_PARAGRAPH_DELIMITERS in ../markdown-limits.ts). */
  delimiters = 0;

  /** Forgets everything: a new paragraph, heading or table row begins. */
  reset(): void {
    this.stars = [];
    this.underscores = [];
    this.tildes = [];
    this.brackets = [];
    this.backticks = [];
    this.runCharacters = this.overflow = this.delimiters = this.regions = 0;
    this.inTag = this.inDestination = this.inUrl = false;
  }

  /** A copy that reads on apart from this one. */
  clone(): OpenInlines {
    const copy = new OpenInlines();
    const runs = (list: Run[]) => list.map((run) => ({ ...run }));
    copy.stars = runs(this.stars);
    copy.underscores = runs(this.underscores);
    copy.tildes = runs(this.tildes);
    copy.brackets = [...this.brackets];
    copy.backticks = [...this.backticks];
    copy.runCharacters = this.runCharacters;
    copy.overflow = this.overflow;
    copy.inTag = this.inTag;
    copy.inDestination = this.inDestination;
    copy.inUrl = this.inUrl;
    copy.regions = this.regions;
    copy.delimiters = this.delimiters;
    return copy;
  }

  /** What tells two states apart for the text to come. */
  key(): string {
    const runs = (list: Run[]) => list.map((run) => `${run.length}.${run.left}.${run.closes ? 1 : 0}`).join(' ');
    const marks = (list: readonly (Mark & Partial<Backticks>)[]) => list.map((mark) => `${mark.stars}.${mark.underscores}.${mark.tildes}.${mark.brackets}.${mark.length}.${mark.regions}`).join(' ');
    return [runs(this.stars), runs(this.underscores), runs(this.tildes), marks(this.brackets), marks(this.backticks), this.overflow, this.inTag, this.inDestination, this.inUrl, this.regions, this.delimiters].join('|');
  }

  /** How many are open now. */
  get open(): number {
    return this.runCharacters + this.brackets.length + this.overflow;
  }

  /** Whether a delimiter here surely is one, and may close. */
  private get plain(): boolean {
    return this.backticks.length === 0 && !this.inTag && !this.inDestination && !this.inUrl;
  }

  private mark(): Mark {
    return { stars: this.stars.length, underscores: this.underscores.length, tildes: this.tildes.length, brackets: this.brackets.length };
  }

  /** Forgets the runs and brackets opened since `mark` (they were in a code span). */
  private undo(mark: Mark): void {
    this.drop(this.stars, mark.stars);
    this.drop(this.underscores, mark.underscores);
    this.drop(this.tildes, mark.tildes);
    while (this.brackets.length > mark.brackets) this.brackets.pop();
  }

  /** Forgets the runs of a list after the first `keep` (popped one by one: setting an array's length is slow in V8). */
  private drop(list: Run[], keep: number): void {
    while (list.length > keep) this.runCharacters -= list.pop()!.left;
  }

  /** A run of backticks: it closes the code span a run of its length opened, or may open one. */
  private backtickRun(length: number): void {
    let opener = this.backticks.length - 1;
    while (opener >= 0 && this.backticks[opener].length !== length) opener--;
    if (opener < 0) {
      if (this.backticks.length < MOST_KEPT) {
        const { stars, underscores, tildes, brackets, regions } = this;
        this.backticks.push({ stars: stars.length, underscores: underscores.length, tildes: tildes.length, brackets: brackets.length, length, regions });
      }
      return;
    }
    const span = this.backticks[opener];
    while (this.backticks.length > opener) this.backticks.pop();
    // What opened inside the span was text; unless a tag or a destination began there, which may have held the opener.
    if (span.regions === this.regions && !this.inTag && !this.inDestination) this.undo(span);
  }

  private openBracket(): void {
    if (this.brackets.length < MOST_KEPT) this.brackets.push(this.mark());
    else this.overflow++;
  }

  /** A run of `*`, `_` or `~` of `length` that may open (can & 1) and close (can & 2). */
  private delimiterRun(char: number, length: number, can: number): void {
    const runs = char === STAR ? this.stars : char === UNDERSCORE ? this.underscores : this.tildes;
    const bracket = this.brackets.at(-1);
    const bottom = bracket === undefined ? 0 : char === STAR ? bracket.stars : char === UNDERSCORE ? bracket.underscores : bracket.tildes;
    const run: Run = { length, left: length, closes: (can & 2) !== 0 };
    while (can & 2 && this.plain && run.left > 0 && runs.length > bottom) {
      const opener = runs[runs.length - 1];
      const either = opener.closes || (can & 1) !== 0;
      // Strikethrough pairs runs of one length (micromark); emphasis keeps the rule of 3, on either reading.
      if (char === TILDE ? opener.length !== length || opener.left !== length : ruleOf3(opener.length, length, either) || ruleOf3(opener.left, run.left, either)) break;
      const closed = Math.min(opener.left, run.left);
      opener.left -= closed;
      run.left -= closed;
      this.runCharacters -= closed;
      if (opener.left === 0) runs.pop();
    }
    if (!(can & 1) || run.left === 0) return;
    if (runs.length < MOST_KEPT) {
      runs.push(run);
      this.runCharacters += run.left;
    } else this.overflow += run.left;
  }

  /** Reads the text of a line from `at`; returns the most that were open at any point of it. */
  read(line: Line, at: number): number {
    const { text } = line;
    let most = this.open;
    // Where a tag begun on this line begins, and what was open before it, while no code span may hold it.
    let tag = -1;
    let beforeTag: Mark | undefined;
    this.inUrl = false;
    for (let i = at; i < line.end; i++) {
      const code = text.charCodeAt(i);
      if (code <= SPACE || code === LESS) this.inUrl = false;
      else if ((code === 0x3a && text.startsWith('//', i + 1)) || (code === 0x77 && text.startsWith('www.', i))) this.inUrl = true;
      if (code === BACKSLASH) {
        // In a bare URL, micromark reads no escape: what follows may be a delimiter (that only opens here).
        const next = text.charCodeAt(i + 1);
        if (this.inUrl && (next === STAR || next === UNDERSCORE || next === TILDE)) this.delimiterRun(next, 1, 1);
        else if (this.inUrl && next === 0x5b) this.openBracket();
        i++;
      }
      else if (code === BACKTICK) {
        const end = runEnd(line, i, code);
        this.backtickRun(end - i);
        i = end - 1;
      } else if (code === LESS) {
        if (/[A-Za-z/!?]/.test(text[i + 1] ?? '')) {
          if (this.plain) {
            tag = i;
            beforeTag = this.mark();
          }
          this.inTag = true;
          this.regions++;
        }
      } else if (code === GREATER) {
        // A whole tag or autolink: what opened in it was text (badges' `target="_blank"` would add up).
        if (beforeTag && this.inTag && TAG.test(text.slice(tag, i + 1))) this.undo(beforeTag);
        beforeTag = undefined;
        this.inTag = false;
      }
      else if (code === 0x5b) this.openBracket();
      else if (code === 0x5d) {
        this.delimiters++;
        if (this.plain) this.brackets.pop();
        if (text.charCodeAt(i + 1) === 0x28) {
          this.inDestination = true;
          this.regions++;
          i++;
        }
      } else if (code === 0x29 && this.inDestination) this.inDestination = this.inUrl = false;
      else if (code === STAR || code === UNDERSCORE || code === TILDE) {
        const end = runEnd(line, i, code);
        let can = flanking(code, sideAt(line, i - 1, at), sideAt(line, end, at));
        // At the end of a bare URL, micromark leaves the run out of the link, and reads it as after a space.
        if (this.inUrl && endsUrl(line, end)) can |= flanking(code, Side.Space, sideAt(line, end, at));
        if (can !== 0) this.delimiters++;
        this.delimiterRun(code, end - i, can);
        i = end - 1;
      } else continue;
      if (this.open > most) most = this.open;
    }
    return most;
  }
}
