import { computeContent, computedSeed } from '../content/computed.js';
import { childIds, diffRevisions, loadRevision, readMarkdown, readPage, readPageTree } from '../content/revision.js';
import type { PageEntry, PageNode } from '../content/model.js';
import { markdownWork } from '../content/markdown-work.js';
import type { Context } from '../context.js';
import { StringPacker } from '../packed-strings.js';
import { pacer, pause } from '../pause.js';
import type { RevisionRecord } from '../records.js';
import { buildSearchIndexJob, indexPageJob, pageStrings, type IndexPageInput } from './build-job.js';
import { SearchIndex, type ComputedEntry, type IndexedPage } from './search-index.js';

/**
 * The search index of a revision, kept in `ctx.derived` (kind `search`): built once per revision and
 * never per query. When an older revision on the way back along the first parents (at most
 * MAX_ANCESTOR_STEPS) has its index cached, that index is taken over and updated with only the pages that
 * changed between the two (diffRevisions: the cost follows the change, not the space), and the older
 * revision's entry is dropped: an index belongs to one revision at a time. Otherwise it is built from the
 * whole page tree.
 *
 * Which pages are indexed: document pages and computed pages (with the content they expand into, as a
 * one-page read shows it), unless they or one of their ancestors (a group included) has `noIndex` ("not
 * indexable in the search", the public API says). Hidden pages are indexed: `hidden` only takes a page out
 * of the navigation. Links and groups have no text of their own. A computed page's content follows its
 * specification's latest version, not the revision: each search first replaces the computed pages whose
 * specification has a newer version than the one they were indexed with (refreshComputed).
 */

/** The kind of the index in the derived-data cache. */
export const SEARCH_KIND = 'search';

/** How far back along the first parents a cached index is looked for. */
const MAX_ANCESTOR_STEPS = 16;

/** What building an index needs: reads, the cache, jobs, and the bytes of specification versions (computed pages). */
export type IndexContext = Pick<Context, 'tx' | 'derived' | 'workers' | 'blobs'>;

/** Where an index's pages come from: a revision of a space of an organization (whose specifications computed pages expand). */
export interface IndexTarget {
  readonly revision: RevisionRecord;
  readonly organizationId: string;
}

/** How many pages a full build reads between two pauses that let other requests run. */
const PAGES_BETWEEN_PAUSES = 200;


/** The kinds of page that are indexed (with their body, or the content they expand into). */
const INDEXED_TYPES: ReadonlySet<PageEntry['type']> = new Set(['document', 'computed']);

/** Whether a page is indexed, given whether an ancestor keeps its subtree out. */
const indexable = (page: PageEntry, excludedAbove: boolean) => INDEXED_TYPES.has(page.type) && !excludedAbove && page.noIndex !== true;

/** What indexPageJob reads of a page: its fields that go in an index, and its body. */
const indexPageInput = ({ id, title, description, path }: Pick<PageEntry, 'id' | 'title' | 'description' | 'path'>, markdown: string): IndexPageInput => ({
  page: { id, title, ...(description !== undefined && { description }), path },
  markdown,
});

/**
 * What a computed page puts in an index: the content its specification's latest version expands into,
 * generated and then cut into sections and words by jobs (it can be megabytes).
 */
async function computedEntryOf(ctx: IndexContext, organizationId: string, page: Pick<PageEntry, 'id' | 'title' | 'description' | 'path' | 'computed'>): Promise<ComputedEntry> {
  const { markdown, seed } = await computeContent(ctx, organizationId, page.computed!);
  return { source: page.computed!, seed, page: await ctx.workers.run(indexPageJob, indexPageInput(page, markdown)) };
}

/**
 * What a document page puts in an index (indexedPage), made off the event loop when its body is long
 * (content/markdown-work.ts): cutting 1 MiB into sections reads it with markdown-it, and counting its words
 * tokenizes it, a few hundred ms each; the main thread then only merges the counts into the index.
 */
const indexedPageOff = (ctx: IndexContext, page: PageEntry, markdown: string): Promise<IndexedPage> =>
  markdownWork(ctx.workers, indexPageJob, indexPageInput(page, markdown), markdown.length);

/** What a page puts in an index: a document's body, or (`computed` set) a computed page's content. */
async function indexedFormOf(ctx: IndexContext, organizationId: string, page: PageEntry): Promise<{ page: IndexedPage; computed?: ComputedEntry }> {
  if (page.type !== 'computed') return { page: await indexedPageOff(ctx, page, await readMarkdown(ctx.tx, page)) };
  const computed = await computedEntryOf(ctx, organizationId, page);
  return { page: computed.page, computed };
}

/**
 * Builds the index of a revision from its whole page tree: the pages are read here, in slices, and packed
 * for a job (build-job.ts) that builds the index, in a worker thread where the platform has them; its image
 * is restored here, in slices too. Measured at 10,000 pages of 1 KB: building took ~3 s of the main thread;
 * now reading takes ~0.1 s and restoring well under that, each in slices of a few milliseconds.
 */
export async function buildIndex(ctx: IndexContext, { revision, organizationId }: IndexTarget): Promise<SearchIndex> {
  const { tx } = ctx;
  const tree = await readPageTree(tx, revision, PAGES_BETWEEN_PAUSES);
  const pages = new StringPacker();
  const computed: PageNode[] = [];
  let indexed = 0;
  const visit = async (nodes: readonly PageNode[], excludedAbove: boolean): Promise<void> => {
    for (const node of nodes) {
      if (indexable(node, excludedAbove) && node.type === 'computed') computed.push(node);
      else if (indexable(node, excludedAbove)) {
        for (const text of pageStrings(node, await readMarkdown(tx, node))) pages.add(text);
        if (++indexed % PAGES_BETWEEN_PAUSES === 0) await pause();
      }
      await visit(node.pages, excludedAbove || node.noIndex === true);
    }
  };
  await visit(tree.pages, false);
  const image = await ctx.workers.run(buildSearchIndexJob, { revisionId: revision.id, pages: pages.finish() });
  const index = await SearchIndex.restore(image);
  // Computed pages go in afterwards, each with its generated content (the order pages go in changes no score).
  for (const node of computed) index.addComputed(await computedEntryOf(ctx, organizationId, node));
  return index;
}

/** One page's change in an index: what to take out (as it was added) and what to put in (`computed`: a computed page's). */
interface PageUpdate {
  readonly remove?: IndexedPage;
  readonly add?: IndexedPage;
  readonly computed?: ComputedEntry;
}

/** The fields of a page its indexed form is made of, besides whether it is indexed at all. */
const sameIndexedFields = (a: PageEntry, b: PageEntry) =>
  a.type === b.type &&
  a.title === b.title &&
  a.description === b.description &&
  a.path === b.path &&
  a.document === b.document &&
  JSON.stringify(a.computed) === JSON.stringify(b.computed);

/**
 * Works out, without touching the index, how to bring `index` (the index of `from`) to revision `to`: the
 * pages the diff names, and the subtrees under a page whose `noIndex` flipped (their pages did not change,
 * but whether they are indexed did).
 */
async function planUpdate(ctx: IndexContext, organizationId: string, index: SearchIndex, from: RevisionRecord, to: RevisionRecord): Promise<PageUpdate[]> {
  const { tx } = ctx;
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
    const goesIn = after !== undefined && INDEXED_TYPES.has(after.type) && !(await excluded(after));
    if (wasIn && goesIn && sameIndexedFields(before, after)) return;
    if (!wasIn && !goesIn) return;
    // A computed page is taken out with what it was put in with (its content may come from an older version).
    const removed = wasIn ? (index.computedEntry(id)?.page ?? (await indexedPageOff(ctx, before, await readMarkdown(tx, before)))) : undefined;
    const added = goesIn ? await indexedFormOf(ctx, organizationId, after) : undefined;
    updates.push({ ...(removed && { remove: removed }), ...(added && { add: added.page }), ...(added?.computed && { computed: added.computed }) });
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

/** How long applying a plan works between two pauses, in ms. */
const UPDATE_SLICE_MS = 5;

/** The steps of applying a plan (SearchIndex.adding and removing: a few hundred terms each). */
function* updating(index: SearchIndex, updates: readonly PageUpdate[]): Generator<void, void, undefined> {
  for (const update of updates) if (update.remove) yield* index.removing(update.remove);
  for (const update of updates) {
    if (update.computed) yield* index.addingComputed(update.computed);
    else if (update.add) yield* index.adding(update.add);
  }
}

/**
 * Applies a plan, in slices of UPDATE_SLICE_MS with pauses between them: a page of 1 MiB brings tens of
 * thousands of new terms, 0.1-0.2 s of the event loop at once. No search sees the index half updated: its
 * caller has taken it out of the cache, and it carries the new revision's id from the first step, so a search
 * of the old revision that still holds it finds it is no longer its own (withSearchIndex) and looks again,
 * while a search of the new one waits for this to end (ctx.derived). Any mismatch throws (the index is then
 * dropped by the caller).
 */
async function applyUpdate(index: SearchIndex, updates: readonly PageUpdate[], revisionId: string): Promise<void> {
  index.revisionId = revisionId;
  const pace = pacer(UPDATE_SLICE_MS);
  for (const _ of updating(index, updates)) {
    const pausing = pace();
    if (pausing) await pausing;
  }
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
async function computeIndex(ctx: IndexContext, target: IndexTarget): Promise<SearchIndex> {
  const { revision, organizationId } = target;
  const found = await cachedAncestor(ctx, revision);
  if (found) {
    const { ancestorId, index } = found;
    const plan = await planUpdate(ctx, organizationId, index, await loadRevision(ctx.tx, ancestorId), revision);
    // Taken over only if nobody else took it while the plan was read: out of the cache from here on, so
    // no search reaches it half updated (applyUpdate).
    if (ctx.derived.peek(SEARCH_KIND, ancestorId) === index && index.revisionId === ancestorId) {
      ctx.derived.delete(SEARCH_KIND, ancestorId);
      try {
        await applyUpdate(index, plan, revision.id);
        return index;
      } catch {
        // Out of step with its pages (never expected): dropped, and built anew below.
      }
    }
  }
  return buildIndex(ctx, target);
}

/**
 * Replaces the computed pages of an index whose specification has a newer version than the one their
 * content came from (two reads per computed page; the content of a new version is generated once, by a
 * job). Searches may run on the index meanwhile: each page is replaced at once, in one step.
 */
async function refreshComputed(ctx: IndexContext, organizationId: string, index: SearchIndex): Promise<void> {
  for (const entry of index.computedPages()) {
    if ((await computedSeed(ctx, organizationId, entry.source)) === entry.seed) continue;
    const { id, title, description, path } = entry.page.document;
    index.replaceComputed(entry, await computedEntryOf(ctx, organizationId, { id, title, description, path, computed: entry.source }));
  }
}

/**
 * Runs `use` on the index of a revision. `use` must not await: the index may be handed over to a newer
 * revision (and changed) at any await, so everything a search needs is read from it in one go.
 */
export async function withSearchIndex<T>(ctx: IndexContext, target: IndexTarget, use: (index: SearchIndex) => T): Promise<T> {
  const { revision, organizationId } = target;
  for (let attempt = 0; attempt < 3; attempt++) {
    // It weighs the pages of its revision in the cache (derived.ts).
    const index = await ctx.derived.get(SEARCH_KIND, revision.id, () => computeIndex(ctx, target), () => revision.content.pages.size);
    if (index.revisionId !== revision.id) continue;
    await refreshComputed(ctx, organizationId, index);
    // Still this revision's when this line runs: use it before anything else can run.
    if (index.revisionId === revision.id) return use(index);
  }
  // Taken over again and again by newer revisions (a burst of merges): this search builds its own.
  return use(await buildIndex(ctx, target));
}
