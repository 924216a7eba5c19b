import type { ReadTransaction } from '../../store/types.js';
import { childIds, diffRevisions, loadRevision, readMarkdown, readPage, readPageTree } from '../content/revision.js';
import type { PageEntry, PageNode } from '../content/model.js';
import type { DerivedCache } from '../derived.js';
import { StringPacker } from '../packed-strings.js';
import { pause } from '../pause.js';
import type { RevisionRecord } from '../records.js';
import type { Workers } from '../workers.js';
import { buildSearchIndexJob, pageStrings } from './build-job.js';
import { SearchIndex, indexedPage, type IndexedPage } from './search-index.js';

/**
 * The search index of a revision, kept in `ctx.derived` (kind `search`): built once per revision and
 * never per query. When an older revision on the way back along the first parents (at most
 * MAX_ANCESTOR_STEPS) has its index cached, that index is taken over and updated with only the pages that
 * changed between the two (diffRevisions: the cost follows the change, not the space), and the older
 * revision's entry is dropped: an index belongs to one revision at a time. Otherwise it is built from the
 * whole page tree.
 *
 * Which pages are indexed: document pages, unless they or one of their ancestors (a group included) has
 * `noIndex` ("not indexable in the search", the public API says). Hidden pages are indexed: `hidden` only
 * takes a page out of the navigation. Links, groups and computed pages have no text of their own.
 */

/** The kind of the index in the derived-data cache. */
export const SEARCH_KIND = 'search';

/** How far back along the first parents a cached index is looked for. */
const MAX_ANCESTOR_STEPS = 16;

/** What building an index needs. */
export interface IndexContext {
  readonly tx: ReadTransaction;
  readonly derived: DerivedCache;
  readonly workers: Workers;
}

/** How many pages a full build reads between two pauses that let other requests run. */
const PAGES_BETWEEN_PAUSES = 200;


/** Whether a page is indexed, given whether an ancestor keeps its subtree out. */
const indexable = (page: PageEntry, excludedAbove: boolean) => page.type === 'document' && !excludedAbove && page.noIndex !== true;

/**
 * Builds the index of a revision from its whole page tree: the pages are read here, in slices, and packed
 * for a job (build-job.ts) that builds the index, in a worker thread where the platform has them; its image
 * is restored here, in slices too. Measured at 10,000 pages of 1 KB: building took ~3 s of the main thread;
 * now reading takes ~0.1 s and restoring well under that, each in slices of a few milliseconds.
 */
export async function buildIndex(ctx: IndexContext, revision: RevisionRecord): Promise<SearchIndex> {
  const { tx } = ctx;
  const tree = await readPageTree(tx, revision, PAGES_BETWEEN_PAUSES);
  const pages = new StringPacker();
  let indexed = 0;
  const visit = async (nodes: readonly PageNode[], excludedAbove: boolean): Promise<void> => {
    for (const node of nodes) {
      if (indexable(node, excludedAbove)) {
        for (const text of pageStrings(node, await readMarkdown(tx, node))) pages.add(text);
        if (++indexed % PAGES_BETWEEN_PAUSES === 0) await pause();
      }
      await visit(node.pages, excludedAbove || node.noIndex === true);
    }
  };
  await visit(tree.pages, false);
  const image = await ctx.workers.run(buildSearchIndexJob, { revisionId: revision.id, pages: pages.finish() });
  return SearchIndex.restore(image);
}

/** One page's change in an index: what to take out (as it was added) and what to put in. */
interface PageUpdate {
  readonly remove?: IndexedPage;
  readonly add?: IndexedPage;
}

/** The fields of a page its indexed form is made of, besides whether it is indexed at all. */
const sameIndexedFields = (a: PageEntry, b: PageEntry) =>
  a.type === b.type && a.title === b.title && a.description === b.description && a.path === b.path && a.document === b.document;

/**
 * Works out, without touching the index, how to bring `index` (the index of `from`) to revision `to`: the
 * pages the diff names, and the subtrees under a page whose `noIndex` flipped (their pages did not change,
 * but whether they are indexed did).
 */
async function planUpdate(tx: ReadTransaction, index: SearchIndex, from: RevisionRecord, to: RevisionRecord): Promise<PageUpdate[]> {
  const diff = await diffRevisions(tx, from, to);
  const excludedMemo = new Map<string, boolean>();
  // Whether a page of `to` is kept out by itself or an ancestor: walks up, remembering every answer.
  const excluded = async (page: PageEntry): Promise<boolean> => {
    const known = excludedMemo.get(page.id);
    if (known !== undefined) return known;
    let answer = page.noIndex === true;
    if (!answer && page.parent !== null) answer = await excluded((await readPage(tx, to, page.parent))!);
    excludedMemo.set(page.id, answer);
    return answer;
  };
  const updates: PageUpdate[] = [];
  const seen = new Set<string>();
  const reconsider = async (before: PageEntry | undefined, after: PageEntry | undefined) => {
    const id = (before ?? after)!.id;
    seen.add(id);
    const wasIn = before !== undefined && index.has(id);
    const goesIn = after !== undefined && after.type === 'document' && !(await excluded(after));
    if (wasIn && goesIn && sameIndexedFields(before, after)) return;
    if (!wasIn && !goesIn) return;
    updates.push({
      ...(wasIn && { remove: indexedPage(before, await readMarkdown(tx, before)) }),
      ...(goesIn && { add: indexedPage(after, await readMarkdown(tx, after)) }),
    });
  };
  for (const page of diff.pages.removed) await reconsider(page, undefined);
  for (const page of diff.pages.added) await reconsider(undefined, page);
  for (const { before, after } of diff.pages.changed) await reconsider(before, after);
  // A page whose noIndex flipped changes whether its unchanged descendants are indexed.
  const flipped = diff.pages.changed.filter(({ before, after }) => (before.noIndex === true) !== (after.noIndex === true)).map(({ after }) => after);
  const stack = [...flipped];
  while (stack.length > 0) {
    const parent = stack.pop()!;
    for (const childId of await childIds(tx, to.content, parent.id)) {
      const child = (await readPage(tx, to, childId))!;
      if (!seen.has(child.id)) await reconsider(child, child);
      stack.push(child);
    }
  }
  return updates;
}

/** Applies a plan; any mismatch throws (the index is then dropped by the caller). */
function applyUpdate(index: SearchIndex, updates: readonly PageUpdate[], revisionId: string): void {
  index.revisionId = revisionId;
  for (const update of updates) if (update.remove) index.remove(update.remove);
  for (const update of updates) if (update.add) index.add(update.add);
}

/** The nearest revision back along the first parents whose index is cached, with that index. */
async function cachedAncestor(ctx: IndexContext, revision: RevisionRecord) {
  let current = revision;
  for (let step = 0; step < MAX_ANCESTOR_STEPS; step++) {
    const parentId = current.parents[0];
    if (parentId === undefined) return undefined;
    const index = ctx.derived.peek<SearchIndex>(SEARCH_KIND, parentId);
    if (index && index.revisionId === parentId) return { ancestorId: parentId, index };
    current = await loadRevision(ctx.tx, parentId);
  }
  return undefined;
}

/** Computes the index of a revision: an ancestor's, taken over and updated, or a new one. */
async function computeIndex(ctx: IndexContext, revision: RevisionRecord): Promise<SearchIndex> {
  const found = await cachedAncestor(ctx, revision);
  if (found) {
    const { ancestorId, index } = found;
    const plan = await planUpdate(ctx.tx, index, await loadRevision(ctx.tx, ancestorId), revision);
    // Taken over only if nobody else took it while the plan was read; from here on nothing awaits, so
    // no search sees it half updated.
    if (ctx.derived.peek(SEARCH_KIND, ancestorId) === index && index.revisionId === ancestorId) {
      ctx.derived.delete(SEARCH_KIND, ancestorId);
      try {
        applyUpdate(index, plan, revision.id);
        return index;
      } catch {
        // Out of step with its pages (never expected): dropped, and built anew below.
      }
    }
  }
  return buildIndex(ctx, revision);
}

/**
 * Runs `use` on the index of a revision. `use` must not await: the index may be handed over to a newer
 * revision (and changed) at any await, so everything a search needs is read from it in one go.
 */
export async function withSearchIndex<T>(ctx: IndexContext, revision: RevisionRecord, use: (index: SearchIndex) => T): Promise<T> {
  for (let attempt = 0; attempt < 3; attempt++) {
    // It weighs the pages of its revision in the cache (derived.ts).
    const index = await ctx.derived.get(SEARCH_KIND, revision.id, () => computeIndex(ctx, revision), () => revision.content.pages.size);
    // Still this revision's when this line runs: use it before anything else can run.
    if (index.revisionId === revision.id) return use(index);
  }
  // Taken over again and again by newer revisions (a burst of merges): this search builds its own.
  return use(await buildIndex(ctx, revision));
}
