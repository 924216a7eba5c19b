import type { PageEntry } from '../../content/model.js';
import { NO_BASE, pick, sameValue, type Pick } from './pick.js';
import { mergedBody, mergeText } from './text.js';
import type { Bodies, MergeConflict } from './types.js';

/** A page's own fields: what `updatePage` changes besides its slug and body. */
export const OWN_FIELDS = ['title', 'emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex', 'target', 'computed', 'layout', 'cover'] as const;

/** Where a page sits: its parent (null: the top level) and its ordering key among its siblings. */
export interface Place {
  readonly parent: string | null;
  readonly order: string;
}

/** A page of the result before places, slugs and paths are settled across the whole tree (places.ts). */
export interface MergedPage {
  /** The page, with `path` still to be computed. */
  entry: PageEntry;
  /** Which side its place came from: decides who yields in the tree-wide checks. */
  placeFrom: Pick<Place>['from'];
  /** A body the merge wrote (the page then has no `document`). */
  body?: string;
}

/** A page's place. */
export const placeOf = (page: PageEntry): Place => ({ parent: page.parent, order: page.order });

/** Whether a side changed a page from the base: its own fields, slug, place or body (not its path: an ancestor's doing). */
export function changedFrom(base: PageEntry, side: PageEntry): boolean {
  return (
    base.slug !== side.slug ||
    base.parent !== side.parent ||
    base.order !== side.order ||
    base.document !== side.document ||
    OWN_FIELDS.some((field) => !sameValue(base[field], side[field]))
  );
}

const ENTRY_KEYS = [
  'id', 'type', 'title', 'slug', 'path', 'parent', 'order', 'emoji', 'icon', 'description', 'hidden', 'noIndex',
  'noRobotsIndex', 'document', 'target', 'computed', 'layout', 'cover', 'createdAt', 'updatedAt',
] as const;

/** A page entry with exactly the fields of PageEntry (a PageNode's `pages` left out) and no undefined ones. */
export function entryOf(page: PageEntry, changes: Partial<PageEntry> = {}): PageEntry {
  const out: Record<string, unknown> = {};
  // No spread: this runs for every page of a merge.
  for (const key of ENTRY_KEYS) {
    const value = key in changes ? changes[key] : page[key];
    if (value !== undefined) out[key] = value;
  }
  return out as unknown as PageEntry;
}

/** The text of a body reference ('' for none); a missing document is the caller's bug. */
function textOf(bodies: Bodies, document: string | undefined): string {
  if (document === undefined) return '';
  const text = bodies.get(document);
  if (text === undefined) throw new Error(`mergeContent: the body of document ${document} was not given`);
  return text;
}

/**
 * Merges one page that is on both sides (`base` undefined: added on both, with the same id). Each aspect
 * (every own field, the slug, the place, the body) is chosen on its own by `pick`, so that a title changed
 * on one side and a body on the other combine; bodies changed on both sides are merged line by line.
 */
export function mergePage(
  base: PageEntry | undefined,
  ours: PageEntry,
  theirs: PageEntry,
  bodies: Bodies,
  conflicts: MergeConflict[],
  normalize: (text: string) => string = mergedBody,
): MergedPage {
  const report = (reason: MergeConflict['reason'], field?: string) =>
    conflicts.push({ kind: 'page', id: theirs.id, reason, ...(field !== undefined && { field }) });
  if (ours.type !== theirs.type) {
    // Only possible for a page added on both sides under one id: nothing can be combined.
    report('field', 'type');
    return { entry: entryOf(theirs), placeFrom: 'theirs' };
  }
  const from = <T>(read: (page: PageEntry) => T): T | typeof NO_BASE => (base === undefined ? NO_BASE : read(base));
  const changes: Record<string, unknown> = {};
  for (const field of OWN_FIELDS) {
    const chosen = pick(from((page) => page[field]), ours[field], theirs[field]);
    if (chosen.conflict) report('field', field);
    changes[field] = chosen.value;
  }
  const slug = pick(from((page) => page.slug), ours.slug, theirs.slug);
  if (slug.conflict) report('slug');
  const place = pick(from(placeOf), placeOf(ours), placeOf(theirs));
  if (place.conflict) report('place');
  const document = pick(from((page) => page.document), ours.document, theirs.document);
  let body: string | undefined;
  changes.document = document.value;
  if (document.conflict) {
    const merged = mergeText(base === undefined ? '' : textOf(bodies, base.document), textOf(bodies, ours.document), textOf(bodies, theirs.document), normalize);
    if (merged.conflict) report('body');
    if (merged.text === textOf(bodies, theirs.document)) changes.document = theirs.document;
    else if (merged.text === textOf(bodies, ours.document)) changes.document = ours.document;
    else {
      changes.document = undefined;
      if (merged.text !== '') body = merged.text;
    }
  }
  const entry = entryOf(theirs, {
    ...changes,
    slug: slug.value,
    ...place.value,
    createdAt: (base ?? theirs).createdAt,
    updatedAt: updatedAtOf(base, ours, theirs),
  });
  return { entry, placeFrom: place.from, ...(body !== undefined && { body }) };
}

/**
 * A merged page's `updatedAt`: the side's that moved it (base: absent for a page added on both sides), the
 * later of the two when both did, the base's when neither did.
 */
export function updatedAtOf(base: PageEntry | undefined, ours: PageEntry, theirs: PageEntry): string {
  if (base !== undefined && ours.updatedAt === base.updatedAt) return theirs.updatedAt;
  if (base !== undefined && theirs.updatedAt === base.updatedAt) return ours.updatedAt;
  return ours.updatedAt > theirs.updatedAt ? ours.updatedAt : theirs.updatedAt;
}
