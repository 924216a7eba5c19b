import type { ReadTransaction } from '../../../store/types.js';
import type { DerivedCache } from '../../derived.js';
import type { RevisionRecord } from '../../records.js';
import type { Workers } from '../../workers.js';
import { lowerBound, readMap } from '../btree.js';
import { outlineOf } from '../outline.js';
import { outlineOff } from '../outline-job.js';
import type { PageEntry } from '../model.js';
import { diffRevisions, loadRevision } from '../revision.js';
import { refKey, sameSource, scanEntry, type LinkRef, type PageFacts, type ReadOutline } from './scan.js';

/**
 * The links of one revision: every page's facts, the files that exist, and every distinct link target
 * with the pages that link to it. A revision never changes, so this is computed once per revision and
 * kept in `ctx.derived` (kind `links`). When a parent revision's index is there, the new one is that
 * index plus what diffRevisions says changed: only pages whose body (or link target) changed are parsed
 * (the maps are copied, O(pages) without parsing: ~5 ms at 10,000 pages).
 * Statuses are not stored: they follow from these maps in O(1) per target when a list is read
 * (status.ts), so a page that appears, disappears or changes its headings needs no update elsewhere.
 */

/** A distinct link target and the pages linking to it. */
export interface TargetEntry {
  readonly key: string;
  readonly ref: LinkRef;
  /** The ids of the pages whose links point at it, sorted. */
  readonly locations: readonly string[];
}

/** The links index of a revision (immutable once built). */
export interface LinksIndex {
  readonly revisionId: string;
  readonly pages: ReadonlyMap<string, PageFacts>;
  readonly files: ReadonlySet<string>;
  readonly targets: ReadonlyMap<string, TargetEntry>;
  /** The keys of `targets`, sorted: the order of the space's link list. */
  readonly keys: readonly string[];
}

/** The kind of the index in the derived-data cache. */
export const LINKS_KIND = 'links';

/** What building an index needs: a transaction, the derived cache, the workers that read long bodies, and (for tests) the parser. */
export interface IndexContext {
  readonly tx: ReadTransaction;
  readonly derived: DerivedCache;
  readonly workers: Workers;
  readonly parse?: ReadOutline;
}

/** How an index reads a body: the context's parser, else the outline, off the event loop when the body is long. */
export const readOutline = (ctx: IndexContext): ReadOutline => ctx.parse ?? ((markdown) => outlineOff(ctx.workers, markdown));

/** Targets over a base map, copied on write: adding or removing a page's links touches only its targets. */
class Targets {
  readonly map: Map<string, TargetEntry>;
  /** Keys this change set made or emptied (the others keep their place in the sorted keys). */
  private readonly made = new Set<string>();
  private readonly emptied = new Set<string>();

  constructor(private readonly base: ReadonlyMap<string, TargetEntry> = new Map()) {
    this.map = new Map(base);
  }

  add(facts: PageFacts): void {
    for (const ref of facts.refs) {
      const key = refKey(ref);
      const entry = this.map.get(key);
      const locations = entry ? [...entry.locations] : [];
      locations.splice(lowerBound(locations, facts.id), 0, facts.id);
      this.map.set(key, { key, ref, locations });
      if (!entry) {
        if (this.emptied.has(key)) this.emptied.delete(key);
        else this.made.add(key);
      }
    }
  }

  remove(facts: PageFacts): void {
    for (const ref of facts.refs) {
      const key = refKey(ref);
      const entry = this.map.get(key)!;
      const locations = entry.locations.filter((id) => id !== facts.id);
      if (locations.length > 0) {
        this.map.set(key, { ...entry, locations });
        continue;
      }
      this.map.delete(key);
      if (this.made.has(key)) this.made.delete(key);
      else this.emptied.add(key);
    }
  }

  /** The sorted keys: the base's still present, merged with the new ones. */
  keys(baseKeys: readonly string[]): readonly string[] {
    if (this.made.size === 0 && this.emptied.size === 0) return baseKeys;
    const kept = this.emptied.size === 0 ? baseKeys : baseKeys.filter((key) => !this.emptied.has(key));
    const fresh = [...this.made].sort();
    const merged: string[] = [];
    let i = 0;
    for (const key of fresh) {
      while (i < kept.length && kept[i] < key) merged.push(kept[i++]);
      merged.push(key);
    }
    return merged.concat(kept.slice(i));
  }
}

/** Builds the index of a revision from nothing: every page is read and parsed (O(pages)). */
export async function buildLinksIndex(tx: ReadTransaction, revision: RevisionRecord, parse: ReadOutline = outlineOf): Promise<LinksIndex> {
  const pages = new Map<string, PageFacts>();
  const targets = new Targets();
  for await (const [, value] of readMap(tx, revision.content.pages).entries()) {
    const facts = await scanEntry(tx, value as PageEntry, parse);
    pages.set(facts.id, facts);
    targets.add(facts);
  }
  const files = new Set<string>();
  for await (const [id] of readMap(tx, revision.content.files).entries()) files.add(id);
  return { revisionId: revision.id, pages, files, targets: targets.map, keys: targets.keys([]) };
}

/**
 * Derives the index of `revision` from the index of `parent` (its revision `parentRevision`): only the
 * pages diffRevisions reports are looked at, and only those whose source changed are parsed again.
 */
async function deriveLinksIndex(
  tx: ReadTransaction,
  parent: LinksIndex,
  parentRevision: RevisionRecord,
  revision: RevisionRecord,
  parse: ReadOutline = outlineOf,
): Promise<LinksIndex> {
  const diff = await diffRevisions(tx, parentRevision, revision);
  const pages = new Map(parent.pages);
  const targets = new Targets(parent.targets);
  for (const page of diff.pages.removed) {
    targets.remove(pages.get(page.id)!);
    pages.delete(page.id);
  }
  for (const { before, after } of diff.pages.changed) {
    // A move, a rename or a flag keeps the body: the facts stay as they are.
    if (sameSource(before, after)) continue;
    const facts = await scanEntry(tx, after, parse);
    targets.remove(pages.get(after.id)!);
    targets.add(facts);
    pages.set(after.id, facts);
  }
  for (const page of diff.pages.added) {
    const facts = await scanEntry(tx, page, parse);
    targets.add(facts);
    pages.set(page.id, facts);
  }
  const files = new Set(parent.files);
  for (const file of diff.files.removed) files.delete(file.id);
  for (const file of diff.files.added) files.add(file.id);
  return { revisionId: revision.id, pages, files, targets: targets.map, keys: targets.keys(parent.keys) };
}

/** The first parent of a revision whose index is cached (a merge has two parents: either will do). */
function cachedParent(ctx: IndexContext, revision: RevisionRecord): LinksIndex | undefined {
  for (const id of revision.parents) {
    const index = ctx.derived.peek<LinksIndex>(LINKS_KIND, id);
    if (index) return index;
  }
  return undefined;
}

/** Whether a revision's index is cached or cheap to make: derived from a cached parent's. */
export function indexAtHand(ctx: IndexContext, revision: RevisionRecord): boolean {
  return ctx.derived.peek(LINKS_KIND, revision.id) !== undefined || cachedParent(ctx, revision) !== undefined;
}

/**
 * The links index of a revision, from the cache or computed once: derived from a parent's index when one
 * is cached, else built from nothing.
 */
export function linksIndexOf(ctx: IndexContext, revision: RevisionRecord): Promise<LinksIndex> {
  const parse = readOutline(ctx);
  return ctx.derived.get(LINKS_KIND, revision.id, async () => {
    const parent = cachedParent(ctx, revision);
    if (parent) return deriveLinksIndex(ctx.tx, parent, await loadRevision(ctx.tx, parent.revisionId), revision, parse);
    return buildLinksIndex(ctx.tx, revision, parse);
    // It weighs the pages of its revision in the cache (derived.ts).
  }, () => revision.content.pages.size);
}
