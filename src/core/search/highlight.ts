import { normalizeTerm } from './words.js';

/**
 * A search hit's excerpt with the words that matched marked: the excerpt cut into runs of text, each marked
 * or not, that the reader renders (`<mark>`). A word is marked when the index holds it as one of the terms
 * the query matched (its own words, and the longer words and near spellings it expanded them to), so what is
 * marked is what made the hit. A long excerpt is cut to a window that starts near the first marked word.
 */

/** A run of an excerpt's text; `mark`: a word that matched. */
export interface ExcerptRun {
  readonly text: string;
  readonly mark?: true;
}

/** The most characters an excerpt shows before its first marked word. */
const LEAD = 80;
/** The most characters a marked excerpt shows. */
const WINDOW = 280;

/** The words of a text with where they are (as MiniSearch splits text: at spaces and punctuation). */
const WORDS = /[^\n\r\p{Z}\p{P}]+/gu;

/** Cuts `text` at the last space before `at` (or at `at` when there is none close enough). */
function cutBefore(text: string, at: number): number {
  const space = text.lastIndexOf(' ', at);
  return space > at - 20 ? space : at;
}

/** An excerpt with the words that are among `terms` marked, cut around the first of them. */
export function markedExcerpt(excerpt: string, terms: ReadonlySet<string>): ExcerptRun[] {
  const marks: [number, number][] = [];
  for (const match of excerpt.matchAll(WORDS)) {
    if (terms.has(normalizeTerm(match[0]))) marks.push([match.index, match.index + match[0].length]);
  }
  let start = 0;
  let end = excerpt.length;
  if (marks.length > 0 && marks[0][0] > LEAD) start = cutBefore(excerpt, marks[0][0] - LEAD / 2) + 1;
  if (end - start > WINDOW) end = cutBefore(excerpt, start + WINDOW);
  const runs: ExcerptRun[] = [];
  let at = start;
  for (const [from, to] of marks) {
    if (from < start || to > end) continue;
    if (from > at) runs.push({ text: excerpt.slice(at, from) });
    runs.push({ text: excerpt.slice(from, to), mark: true });
    at = to;
  }
  if (at < end) runs.push({ text: excerpt.slice(at, end) });
  if (start > 0) runs.unshift({ text: '…' });
  if (end < excerpt.length && !excerpt.slice(0, end).endsWith('…')) runs.push({ text: '…' });
  return runs;
}
