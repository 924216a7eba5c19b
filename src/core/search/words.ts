import MiniSearch from 'minisearch';

/**
 * How text becomes words, for the pages indexed and for the query alike, and how many of a query's words
 * a page must contain.
 */

/** The distinct words of a query, in the order they came. */
export type Words = readonly string[];

/** The most words of one query that are looked for; the rest are ignored (a query is at most 512 characters). */
export const MAX_QUERY_WORDS = 32;

/** Splits text at spaces and punctuation (MiniSearch's Unicode-aware default). */
const tokenize: (text: string) => string[] = MiniSearch.getDefault('tokenize');

/** One word as the index keeps it: lower case, without diacritics (`Über` → `uber`). */
export function normalizeTerm(term: string): string {
  // Most words are plain ASCII: only the others pay for Unicode decomposition.
  return /^[\x00-\x7f]*$/.test(term) ? term.toLowerCase() : term.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

/** The distinct words of a query, as the index sees them (at most MAX_QUERY_WORDS). */
export function queryWords(query: string): Words {
  return [...new Set(termsOf(query))].slice(0, MAX_QUERY_WORDS);
}

/**
 * How many of a query's `count` words a page must contain: most of them, not all, since one missing word
 * should not hide a page that has the rest. A page may miss one word of two or three, and a third of the
 * words of longer queries (rounded down): 1 of 1, 1 of 2, 2 of 3, 3 of 4, 4 of 5, 4 of 6, ... Pages
 * with more of the words rank first.
 */
export function requiredWords(count: number): number {
  return Math.max(1, count - Math.max(1, Math.floor(count / 3)));
}

/** The words of a text as the index keeps them, repeats included. */
export function termsOf(text: string): string[] {
  return tokenize(text)
    .map(normalizeTerm)
    .filter((term) => term !== '');
}
