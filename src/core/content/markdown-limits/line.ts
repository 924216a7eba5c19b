/** Reading one line of Markdown for the depth scan (../markdown-limits.ts): tabs expanded, runs measured. */

export const TAB = 0x09;
export const SPACE = 0x20;
export const GREATER = 0x3e;
export const BACKSLASH = 0x5c;
export const PIPE = 0x7c;

/** A line being read: the text it is in (a copy of the line, its tabs expanded, when it has some), where it starts and ends. */
export interface Line {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** Whether the line had tabs, which markdown-it counts otherwise than CommonMark after a marker. */
  readonly tabs: boolean;
}

/** The columns of spaces from `at`. */
export function spacesAt(line: Line, at: number): number {
  let end = at;
  while (end < line.end && line.text.charCodeAt(end) === SPACE) end++;
  return end - at;
}

/** Whether a line holds only spaces from `at`. */
export const blankFrom = (line: Line, at: number) => at + spacesAt(line, at) >= line.end;

/**
 * The line from `start` to `end` of a text, with its tabs expanded to the next multiple of 4 columns, as
 * CommonMark counts them (a copy is made only for a line that has a tab).
 */
export function lineOf(text: string, start: number, end: number): Line {
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

/** The run of one character from `at`: its end. */
export function runEnd(line: Line, at: number, code: number): number {
  let end = at;
  while (end < line.end && line.text.charCodeAt(end) === code) end++;
  return end;
}

/**
 * Whether the line holds a character. Searched within the line's bounds: its text is most often the whole
 * body (lineOf copies only a line with tabs), which a search of the text would read for every line.
 */
export function holds(line: Line, code: number): boolean {
  for (let i = line.start; i < line.end; i++) if (line.text.charCodeAt(i) === code) return true;
  return false;
}

/** An HTML open tag or closing tag, as CommonMark reads one (regular-expression source, unanchored). */
const ATTRIBUTE = `(?:\\s+[a-zA-Z_:][a-zA-Z0-9:._-]*(?:\\s*=\\s*(?:[^"'=<>\`\\x00-\\x20]+|'[^']*'|"[^"]*"))?)`;
export const HTML_TAG = `(?:<[A-Za-z][A-Za-z0-9-]*${ATTRIBUTE}*\\s*/?>|</[A-Za-z][A-Za-z0-9-]*\\s*>)`;
