import type { ReadTransaction } from '../../../store/types.js';
import { pause } from '../../pause.js';
import { refOfUrl } from '../document.js';
import type { LinkTarget, PageEntry, PageType } from '../model.js';
import type { Outline } from '../outline.js';
import { readMarkdown } from '../revision.js';

/**
 * What one page says about links, read from its body once: the heading anchors other links may point at,
 * and where its own links point. Nothing here depends on the rest of the revision, so a page whose body
 * did not change keeps its facts from one revision to the next (links-index.ts).
 */

/**
 * Where a link points, as written: a page (with an anchor or not; `#anchor` alone is the page's own), a
 * file, or a URL. A `local` URL is a relative or path-only one that the authoring batch would have
 * turned into `/pages/<id>` or `/files/<id>` had it named something (`./missing.md`, `/pages/no/such`).
 */
export type LinkRef =
  | { readonly kind: 'page'; readonly page: string; readonly anchor?: string }
  | { readonly kind: 'file'; readonly file: string }
  | { readonly kind: 'url'; readonly url: string; readonly local: boolean };

/** What a page contributes to its revision's links. */
export interface PageFacts {
  readonly id: string;
  /** The page fields the facts were read from: same values, same facts (see sameSource). */
  readonly type: PageType;
  readonly document?: string;
  readonly target?: LinkTarget;
  /** The anchors of its headings, as headingAnchor makes them (document pages only). */
  readonly anchors: ReadonlySet<string>;
  /** Where its links point, each target once, sorted by refKey. */
  readonly refs: readonly LinkRef[];
}

/** How a page body is read: outlineOf (off the event loop when the body is long), or a wrapper around it (tests count the calls). */
export type ReadOutline = (markdown: string) => Outline | Promise<Outline>;

/** How many of a body's URLs are read as refs between two pauses. */
const URLS_PER_SLICE = 2000;

/** A URL that leaves the content: a scheme (`https:`, `mailto:`, ...) or a protocol-relative `//host`. */
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** The key of a link target: one per distinct target, in the order lists show them (pages, files, URLs). */
export function refKey(ref: LinkRef): string {
  switch (ref.kind) {
    case 'page':
      return `1\u0000${ref.page}\u0000${ref.anchor ?? ''}`;
    case 'file':
      return `2\u0000${ref.file}`;
    default:
      return `3\u0000${ref.url}`;
  }
}

/** The key of the target "file `fileId`" (its backlinks are that target's locations). */
export const fileKey = (fileId: string): string => refKey({ kind: 'file', file: fileId });

/** Where a URL written in page `self` points (see LinkRef). */
function linkRefOf(url: string, self: string): LinkRef {
  // `#` alone is the top of the page itself; a trailing `#` with no anchor adds nothing.
  if (url === '#') return { kind: 'page', page: self };
  const ref = refOfUrl(url.length > 1 && url.endsWith('#') ? url.slice(0, -1) : url);
  switch (ref.kind) {
    case 'page':
      return { kind: 'page', page: ref.page };
    case 'anchor':
      return { kind: 'page', page: ref.page ?? self, anchor: ref.anchor };
    case 'file':
      return { kind: 'file', file: ref.file };
    default:
      return { kind: 'url', url, local: !EXTERNAL.test(url) };
  }
}

/** Each distinct ref once, sorted by key. */
function distinct(refs: readonly LinkRef[]): LinkRef[] {
  const byKey = new Map<string, LinkRef>();
  for (const ref of refs) byKey.set(refKey(ref), ref);
  return [...byKey.keys()].sort().map((key) => byKey.get(key)!);
}

/**
 * The facts of a page. Document pages are parsed (links, images and link definitions; raw HTML is not
 * read); a link page points at its target; groups and computed pages (generated, not written) link nowhere.
 */
export async function scanPage(page: PageEntry, markdown: string, parse: ReadOutline): Promise<PageFacts> {
  const source = { id: page.id, type: page.type, ...(page.document !== undefined && { document: page.document }), ...(page.target && { target: page.target }) };
  if (page.type === 'link' && page.target) {
    const ref: LinkRef = page.target.kind === 'page' ? { kind: 'page', page: page.target.page } : linkRefOf(page.target.url, page.id);
    return { ...source, anchors: new Set(), refs: [ref] };
  }
  if (page.type !== 'document' || markdown === '') return { ...source, anchors: new Set(), refs: [] };
  const outline = await parse(markdown);
  // In slices: a long body's 20,000 URLs, each read as a ref, held the event loop tens of ms.
  const refs: LinkRef[] = [];
  for (const url of outline.urls) if (refs.push(linkRefOf(url, page.id)) % URLS_PER_SLICE === 0) await pause();
  return { ...source, anchors: new Set(outline.anchors), refs: distinct(refs) };
}

/** Reads a page's body (only when it has one to parse) and scans it. */
export async function scanEntry(tx: ReadTransaction, page: PageEntry, parse: ReadOutline): Promise<PageFacts> {
  return scanPage(page, page.type === 'document' ? await readMarkdown(tx, page) : '', parse);
}

/** Whether a page's facts carry over from `before` to `after`: same type, same body, same link target. */
export function sameSource(before: PageEntry, after: PageEntry): boolean {
  return before.type === after.type && before.document === after.document && JSON.stringify(before.target) === JSON.stringify(after.target);
}
