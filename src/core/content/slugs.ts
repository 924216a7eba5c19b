/**
 * Page slugs: the segment a page adds to its path. Derived from the title when a page is inserted without
 * one, then kept: renaming a page's title leaves its URL alone (as in the public API), so paths are stable
 * across unrelated edits. Unique among siblings, which makes every path unique in a revision.
 */

/** The longest slug. */
export const MAX_SLUG_LENGTH = 100;

/** The slug a title gives: lower-case letters and digits of any script, runs of anything else as one `-`. */
export function slugify(title: string): string {
  const slug = title
    // Accents come off Latin letters (é → e); other scripts keep their marks (ガ stays ガ).
    .normalize('NFKD')
    .replace(/([A-Za-z])\p{M}+/gu, '$1')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  const cut = [...slug].slice(0, MAX_SLUG_LENGTH).join('').replace(/-+$/, '');
  return cut === '' ? 'page' : cut;
}

/** `slug` with a numeric suffix (`-2`, `-3`, ...) that still fits the length limit. */
export function withSuffix(slug: string, n: number): string {
  if (n <= 1) return slug;
  const suffix = `-${n}`;
  return [...slug].slice(0, MAX_SLUG_LENGTH - suffix.length).join('') + suffix;
}

/** Why a slug given by a caller is not usable, or undefined when it is. */
export function slugProblem(slug: string): string | undefined {
  if (slug.length === 0) return 'must not be empty';
  if ([...slug].length > MAX_SLUG_LENGTH) return `must be at most ${MAX_SLUG_LENGTH} characters`;
  if (slug === '.' || slug === '..') return 'must not be . or ..';
  if (/[\s/\\?#%]/.test(slug)) return 'must not contain spaces, /, \\, ?, # or %';
  return undefined;
}
