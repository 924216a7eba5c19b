import * as v from 'valibot';
import { conflict } from '../errors.js';
import { cutText } from '../well-formed.js';

/**
 * Paths of sections and site spaces: unique among their siblings (the sections of a site, the site
 * spaces of a level). A path the caller gives that is taken is a 409; a path made from a title gets
 * `-2`, `-3`, ... until it is free.
 */

const MAX_PATH = 100;

/** A path made from a title: lower case, letters and digits joined by `-` (`Getting started` → `getting-started`). */
export function slugOf(title: string, fallback: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return cutText(slug, MAX_PATH).replace(/-+$/, '') || fallback;
}

/** The first of `base`, `base-2`, `base-3`, ... that no sibling uses (cut so that it stays within 100 characters). */
export function freePath(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = cutText(base, MAX_PATH - suffix.length) + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Refuses (409) a path another sibling already uses. */
export function assertPathFree(path: string, siblings: readonly { id: string; path: string }[], selfId: string | undefined, where: string): void {
  const other = siblings.find((sibling) => sibling.path === path && sibling.id !== selfId);
  if (other) throw conflict(`path: "${path}" is already the path of ${other.id} in ${where}`);
}

/**
 * The reader's own names: what a section, a site space or a page may never be called, so that none of them
 * shadows the reader's paths (or is shadowed by them). `~` starts every path the reader adds under a site
 * space (`~search`, `~mcp`); the site's root answers `sitemap.xml`, `robots.txt`, `llms.txt`,
 * `llms-full.txt` and `favicon.ico`; and a page's URL plus `.md` is its Markdown. Slugs made from titles are letters, digits
 * and `-` (slugOf, content/slugs.ts), so they never are one of these.
 */
const READER_FILES: ReadonlySet<string> = new Set(['sitemap.xml', 'robots.txt', 'llms.txt', 'llms-full.txt', 'favicon.ico']);

/** Whether a path segment is one of the reader's own names (case aside). */
export function isReserved(segment: string): boolean {
  return segment.startsWith('~') || READER_FILES.has(segment.toLowerCase()) || /\.md$/i.test(segment);
}

/** A check of a valibot schema: the string is none of the reader's own names (a custom rule the OpenAPI document states by its message). */
export const notReserved = v.check<string, string>(
  (segment) => !isReserved(segment),
  "must not be one of the reader's own names: none may start with ~, be sitemap.xml, robots.txt, llms.txt, llms-full.txt or favicon.ico, or end with .md",
);
