import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { createMemoryBlobStore } from '../../src/core/blobs.js';
import { loadRevision } from '../../src/core/content/revision.js';
import { createDerivedCache } from '../../src/core/derived.js';
import { createPlatform, type Api, type Platform } from '../../src/core/platform.js';
import { TABLES, type SpaceRecord } from '../../src/core/records.js';
import { SEARCH_KIND, buildIndex, withSearchIndex } from '../../src/core/search/build.js';
import { PostingList } from '../../src/core/search/posting-list.js';
import { SearchIndex, indexedPage } from '../../src/core/search/search-index.js';
import { inlineWorkers } from '../../src/core/inline-workers.js';
import { queryWords } from '../../src/core/search/words.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { runs } from './runs.js';

/**
 * The search index follows a space's revisions incrementally: after random batches of edits (pages
 * inserted, retitled, rewritten, moved, flagged noIndex or not, deleted; groups and computed pages too),
 * each published by merging a change request, and new versions of the OpenAPI specification the computed
 * pages expand, the index the platform keeps (taken over from the previous revision, updated with the
 * diff, its computed pages replaced for the new version) must answer every query exactly as an index
 * built from scratch for the same revision: same count, same hits in the same order, same scores bit for
 * bit, same sections.
 *
 * An oracle simpler than the system checks what matches and how it ranks: for a single word that is no
 * prefix of another word and too short for typos, the hits are exactly the pages whose title, description
 * or Markdown contain the word and that neither they nor an ancestor mark noIndex, as the content API
 * shows them (a computed page with the content it expands into: operation ids, summaries, paths,
 * parameters), and every hit with the word in its title or a heading comes before every hit without. The
 * posting lists under the index are checked against a Map.
 */

const NUM_RUNS = runs(25);

/** Four-letter words, none a prefix of another: a one-word query matches them exactly. */
const PLAIN = ['lynx', 'wolf', 'bear', 'deer', 'hawk', 'crow'];
/** Words that exercise prefixes and typos. */
const RICH = ['install', 'installation', 'installer', 'configure', 'configuration', 'deployment'];
const VOCABULARY = [...PLAIN, ...RICH];
const QUERIES = [...PLAIN, 'instal', 'configur', 'confgure', 'deploymnt', 'install configure', 'lynx wolf bear', 'wolf installation hawk crow', 'inst'];

const word = fc.constantFrom(...VOCABULARY);
const words = (max: number) => fc.array(word, { minLength: 1, maxLength: max }).map((list) => list.join(' '));
/** A Markdown body: some text, then up to three sections under headings (a repeated heading included). */
/** Some words, or one word again and again (a short body or description that scores high without a title match). */
const text = (max: number) => fc.oneof(words(max), word.map((each) => `${each} `.repeat(max).trim()));
const body = fc
  .tuple(text(6), fc.array(fc.tuple(fc.constantFrom('## ', '### '), words(2), words(8)), { maxLength: 3 }))
  .map(([intro, sections]) => [intro, ...sections.map(([level, heading, text]) => `${level}${heading}\n\n${text}`)].join('\n\n'));

/** One edit; pages are picked by position in the current tree, so every edit applies to something. */
type Edit =
  | { kind: 'insert'; parent: number; top: boolean; group: boolean; computed?: boolean; title: string; body: string; noIndex: boolean }
  | { kind: 'retitle'; page: number; title: string; description: string }
  | { kind: 'rewrite'; page: number; body: string }
  | { kind: 'flag'; page: number; noIndex: boolean }
  | { kind: 'move'; page: number; into: number; top: boolean }
  | { kind: 'delete'; page: number };

const insert = fc.record({
  kind: fc.constant('insert' as const),
  parent: fc.nat(),
  top: fc.boolean(),
  group: fc.boolean(),
  title: words(3),
  body,
  noIndex: fc.boolean(),
});
/** A computed page, from the space's OpenAPI specification. */
const insertComputed = insert.map((change) => ({ ...change, group: false, computed: true }));
const edit: fc.Arbitrary<Edit> = fc.oneof(
  { arbitrary: insert, weight: 2 },
  insertComputed,
  fc.record({ kind: fc.constant('retitle' as const), page: fc.nat(), title: words(3), description: text(3) }),
  fc.record({ kind: fc.constant('rewrite' as const), page: fc.nat(), body }),
  fc.record({ kind: fc.constant('flag' as const), page: fc.nat(), noIndex: fc.boolean() }),
  fc.record({ kind: fc.constant('move' as const), page: fc.nat(), into: fc.nat(), top: fc.boolean() }),
  fc.record({ kind: fc.constant('delete' as const), page: fc.nat() }),
);

/** A page of the tree as the content API lists it. */
interface TreePage {
  id: string;
  type: string;
  title: string;
  slug?: string;
  description?: string;
  noIndex?: boolean;
  pages?: TreePage[];
}

const flatten = (pages: TreePage[]): TreePage[] => pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);

/**
 * The changes of one batch, each edit resolved against the tree the batch starts from. An edit that an
 * earlier edit of the batch would make invalid is left out: anything inside a deleted subtree, and a move
 * or a delete that involves a page an earlier move involved (so that no move can make a cycle), and a
 * move into a parent (or the top level) that already has a page with its slug or that an earlier insert
 * or move of the batch put a page in (slugs must stay unique among siblings).
 */
function changesOf(tree: TreePage[], edits: Edit[]): unknown[] {
  const all = flatten(tree);
  const subtree = (page: TreePage) => flatten([page]).map((node) => node.id);
  const gone = new Set<string>();
  const moved = new Set<string>();
  const clear = (ids: string[], ...sets: Set<string>[]) => ids.every((id) => sets.every((set) => !set.has(id)));
  const filled = new Set<string>();
  const childrenOf = (parent: TreePage | null) => (parent === null ? tree : (parent.pages ?? []));
  const changes: unknown[] = [];
  for (const change of edits) {
    if (change.kind === 'insert') {
      const parents = all.filter((page) => page.type === 'document' || page.type === 'group');
      const parent = change.top || change.group || parents.length === 0 ? undefined : parents[change.parent % parents.length];
      if (parent && gone.has(parent.id)) continue;
      filled.add(parent?.id ?? '');
      changes.push({
        operation: 'insert_page',
        ...(change.computed ? { type: 'computed', computed: SOURCE } : change.group ? { type: 'group' } : { document: { markdown: change.body } }),
        title: change.title,
        ...(change.noIndex && { noIndex: true }),
        ...(parent && { into: parent.id }),
      });
      continue;
    }
    if (all.length === 0) continue;
    const page = all[change.page % all.length];
    if (gone.has(page.id)) continue;
    if (change.kind === 'retitle') changes.push({ operation: 'update_page', page: page.id, title: change.title, description: change.description });
    else if (change.kind === 'rewrite' && page.type === 'document') changes.push({ operation: 'update_page', page: page.id, document: { markdown: change.body } });
    else if (change.kind === 'flag') changes.push({ operation: 'update_page', page: page.id, noIndex: change.noIndex });
    else if (change.kind === 'delete' && clear(subtree(page), moved)) {
      changes.push({ operation: 'delete_page', page: page.id });
      subtree(page).forEach((id) => gone.add(id));
    } else if (change.kind === 'move' && page.type === 'document' && clear(subtree(page), moved)) {
      // Into a document or a group outside the page's own subtree, or to the top level.
      const targets = all.filter((target) => (target.type === 'document' || target.type === 'group') && !subtree(page).includes(target.id));
      const target = change.top || targets.length === 0 ? null : targets[change.into % targets.length];
      if (target && !clear([target.id], gone, moved)) continue;
      if (filled.has(target?.id ?? '') || childrenOf(target).some((child) => child.slug === page.slug)) continue;
      filled.add(target?.id ?? '');
      changes.push({ operation: 'update_page', page: page.id, into: target?.id ?? null });
      [...subtree(page), ...(target ? [target.id] : [])].forEach((id) => moved.add(id));
    }
  }
  return changes;
}

/** The source of the computed pages: the organization's specification `zoo`. */
const SOURCE = { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'zoo' } } }, props: {} };

/** An operation of the specification, its every text from the vocabulary. */
const operation = fc.record({ path: word, method: fc.constantFrom('get', 'post', 'delete'), operationId: word, summary: words(3), parameter: word, about: words(3) });

/** A specification of the vocabulary: its operation ids, summaries, paths and parameters are what computed pages are searched by. */
const specArb = fc.array(operation, { minLength: 1, maxLength: 3 }).map((operations) => {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { path, method, operationId, summary, parameter, about } of operations) {
    (paths[`/${path}`] ??= {})[method] = {
      operationId,
      summary,
      parameters: [{ name: parameter, in: 'query', description: about, schema: { type: 'string' } }],
      responses: { '200': { description: 'Done' } },
    };
  }
  return JSON.stringify({ openapi: '3.1.0', info: { title: 'Zoo', version: '1' }, paths });
});

interface World {
  platform: Platform;
  api: Api;
  spaceId: string;
  organizationId: string;
  blobs: ReturnType<typeof createMemoryBlobStore>;
}

async function world(spec: string): Promise<World> {
  const blobs = createMemoryBlobStore();
  const platform = createPlatform({ store: createMemoryStore(), clock: manualClock('2026-03-01T10:00:00.000Z'), signingKey: 'property', blobs });
  const init = await platform.initialize({ title: 'Search', email: 'search@property.test', name: 'Searcher' });
  const api = platform.as(init.userId);
  const space = await api.createSpace({ organizationId: init.organizationId, title: 'Docs' });
  const w = { platform, api, spaceId: space.id, organizationId: init.organizationId, blobs };
  await setSpec(w, spec);
  return w;
}

/** Gives the specification a text (a new version when it differs) and waits for it to be processed. */
async function setSpec({ api, platform, organizationId }: World, text: string) {
  await api.putOpenAPISpec({ organizationId, specSlug: 'zoo', source: { text } });
  await platform.settle();
  const spec = await api.getOpenAPISpec({ organizationId, specSlug: 'zoo' });
  expect(spec.lastProcessErrorCode, 'the specification is processed').toBeUndefined();
}

/** Publishes a batch: a change request with these changes, merged into the space. */
async function publish({ api, spaceId }: World, changes: unknown[]) {
  const cr = await api.createChangeRequest({ spaceId });
  await api.updateChangeRequestContent({ spaceId, changeRequestId: cr.id, changes: changes as never }).catch((error: Error) => {
    throw new Error(`batch refused: ${error.message}: ${JSON.stringify(changes)}`);
  });
  const merged = await api.mergeChangeRequest({ spaceId, changeRequestId: cr.id });
  expect(merged.result).toBe('merge');
}

/**
 * The oracle: the pages a one-word query must find, from the content API alone (computed pages are
 * listed expanded, as documents with the content they expand into), each with whether the word is in its
 * title or a heading.
 */
async function expectedFor(term: string, { api, spaceId }: World): Promise<{ id: string; prominent: boolean }[]> {
  const tree = (await api.listSpacePages({ spaceId })).pages as unknown as TreePage[];
  const found: { id: string; prominent: boolean }[] = [];
  const wordsOf = (text: string) => text.toLowerCase().split(/[^a-z]+/);
  const visit = async (pages: TreePage[], excluded: boolean) => {
    for (const page of pages) {
      const out = excluded || page.noIndex === true;
      if (!out && page.type === 'document') {
        const { markdown } = (await api.getSpacePage({ spaceId, pageId: page.id })) as { markdown: string };
        const headings = markdown.split('\n').filter((line) => /^#{1,6} /.test(line));
        if (wordsOf(`${page.title} ${page.description ?? ''} ${markdown}`).includes(term)) {
          found.push({ id: page.id, prominent: wordsOf([page.title, ...headings].join(' ')).includes(term) });
        }
      }
      await visit(page.pages ?? [], out);
    }
  };
  await visit(tree, false);
  return found.sort((a, b) => (a.id < b.id ? -1 : 1));
}

describe('search index', () => {
  it('updated through random edit batches and specification versions, answers every query as an index built from scratch', async () => {
    // Two batches of inserts first (the second nests pages under the first's), so that the edits after
    // them have a tree to work on; each batch may come with a new version of the specification.
    const seed = fc.array(fc.oneof({ arbitrary: insert, weight: 3 }, insertComputed), { minLength: 2, maxLength: 6 });
    const later = fc.array(fc.tuple(fc.array(edit, { maxLength: 6 }), fc.option(specArb, { nil: undefined })), { minLength: 1, maxLength: 8 });
    const batchLists = fc
      .tuple(specArb, seed, seed, later)
      .map(([spec, first, second, rest]) => ({
        spec,
        batches: [[first, undefined], [second.map((change) => ({ ...change, top: false, group: false })), undefined], ...rest] as [Edit[], string | undefined][],
      }));
    await fc.assert(
      fc.asyncProperty(batchLists, async ({ spec, batches }) => {
        const w = await world(spec);
        const derived = createDerivedCache();
        const context = (tx: Parameters<Parameters<Platform['store']['read']>[0]>[0]) => ({ tx, derived, workers: inlineWorkers, blobs: w.blobs });
        let previous: SearchIndex | undefined;
        for (const [edits, nextSpec] of batches) {
          // As stored: computed pages as `computed`, not expanded into documents.
          const tree = (await w.api.listSpacePages({ spaceId: w.spaceId, computed: false })).pages as unknown as TreePage[];
          const changes = changesOf(tree, edits);
          if (changes.length === 0 && nextSpec === undefined) continue;
          if (nextSpec !== undefined) await setSpec(w, nextSpec);
          if (changes.length > 0) await publish(w, changes);
          await w.platform.store.read(async (tx) => {
            const space = (await tx.get(TABLES.spaces, w.spaceId)) as SpaceRecord;
            const target = { revision: await loadRevision(tx, space.revision), organizationId: w.organizationId };
            const scratch = await buildIndex(context(tx), target);
            const kept = await withSearchIndex(context(tx), target, (index) => index);
            // Taken over from the previous revision (and that revision's entry dropped), not rebuilt.
            if (previous) expect(kept).toBe(previous);
            if (changes.length > 0) expect(derived.peek(SEARCH_KIND, target.revision.parents[0])).toBeUndefined();
            expect(kept.size).toBe(scratch.size);
            for (const query of QUERIES) {
              const terms = queryWords(query);
              expect(kept.search(terms, 0, 1000), query).toEqual(scratch.search(terms, 0, 1000));
            }
            previous = kept;
          });
          for (const term of PLAIN) {
            const hits = previous!.search([term], 0, 1000).hits;
            const expected = await expectedFor(term, w);
            expect(hits.map((hit) => hit.id).sort(), term).toEqual(expected.map((page) => page.id));
            // A title or heading match ranks above a body match.
            const prominent = new Set(expected.filter((page) => page.prominent).map((page) => page.id));
            const order = hits.map((hit) => prominent.has(hit.id));
            expect(order, `${term}: title and heading matches first`).toEqual([...order].sort((a, b) => Number(b) - Number(a)));
          }
        }
        await w.platform.close();
      }),
      { numRuns: NUM_RUNS },
    );
  }, 240_000);

  it('updated by a long page in slices, never answers a search half updated: the revision before is searched anew, the one after when the update ends', async () => {
    const w = await world(JSON.stringify({ openapi: '3.1.0', info: { title: 'Zoo', version: '1' }, paths: {} }));
    await publish(w, [{ operation: 'insert_page', title: 'Wolf', document: { markdown: 'A lynx.' } }]);
    const derived = createDerivedCache();
    const targetOf = async () => {
      const space = (await w.platform.store.read((tx) => tx.get(TABLES.spaces, w.spaceId))) as SpaceRecord;
      return { revision: await w.platform.store.read((tx) => loadRevision(tx, space.revision)), organizationId: w.organizationId };
    };
    const before = await targetOf();
    const search = (target: typeof before, query: string) =>
      w.platform.store.read(async (tx) => {
        const context = { tx, derived, workers: inlineWorkers, blobs: w.blobs };
        const [kept, scratch] = [await withSearchIndex(context, target, (index) => index.search(queryWords(query), 0, 10)), (await buildIndex(context, target)).search(queryWords(query), 0, 10)];
        return { kept, scratch };
      });
    await search(before, 'lynx');
    // Tens of thousands of new terms: many slices of the update, with pauses between them.
    const long = Array.from({ length: 40_000 }, (_, i) => `lynx${i}`).join(' ');
    await publish(w, [{ operation: 'insert_page', title: 'Long', document: { markdown: `Lynx and ${long}` } }]);
    const after = await targetOf();
    const updated = search(after, 'lynx');
    // The revision before's index is taken over as soon as the plan is read; a search of that revision
    // during the update builds its own.
    while (derived.peek(SEARCH_KIND, before.revision.id) !== undefined) await new Promise((resolve) => setTimeout(resolve, 0));
    const during = await search(before, 'lynx');
    expect(during.kept.count).toBe(1);
    expect(during.kept).toEqual(during.scratch);
    const { kept, scratch } = await updated;
    expect(kept.count).toBe(2);
    expect(kept).toEqual(scratch);
    await w.platform.close();
  }, 60_000);

  it('restored from its image (as a worker thread sends it back), answers and updates as the index it was made of', async () => {
    const page = fc.record({ title: words(3), description: fc.option(words(3), { nil: undefined }), markdown: body });
    const pages = fc.array(page, { minLength: 1, maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(pages, pages, fc.array(fc.nat(), { maxLength: 6 }), async (first, later, removed) => {
        const entries = first.map((each, i) => ({ id: `p${i}`, path: `page-${i}`, title: each.title, description: each.description, markdown: each.markdown }));
        const built = new SearchIndex('r1');
        for (const entry of entries) built.add(indexedPage(entry, entry.markdown));
        const restored = await SearchIndex.restore(structuredClone(built.image()));
        const same = () => {
          expect(restored.size).toBe(built.size);
          for (const query of QUERIES) expect(restored.search(queryWords(query), 0, 1000), query).toEqual(built.search(queryWords(query), 0, 1000));
        };
        same();
        // Then both follow the same edits: the restored posting lists grow and shrink over the image's arrays.
        const gone = [...new Set(removed.map((n) => entries[n % entries.length]))];
        for (const entry of gone) {
          for (const index of [built, restored]) index.remove(indexedPage(entry, entry.markdown));
        }
        const added = later.map((each, i) => ({ id: `q${i}`, path: `later-${i}`, title: each.title, description: each.description, markdown: each.markdown }));
        for (const entry of added) for (const index of [built, restored]) index.add(indexedPage(entry, entry.markdown));
        same();
      }),
      { numRuns: runs(100) },
    );
  });

  it('keeps posting lists as a map would: sets, deletes, lookups, ascending order', () => {
    // Over a few numbers too, so that lists go back and forth between one document (kept without arrays) and more.
    const operations = fc.constantFrom(2, 5, 300).chain((max) =>
      fc.array(fc.oneof(fc.record({ set: fc.nat({ max }), count: fc.integer({ min: 1, max: 1000 }) }), fc.record({ delete: fc.nat({ max }) })), { maxLength: 400 }),
    );
    fc.assert(
      fc.property(operations, (operations) => {
        const list = new PostingList();
        const model = new Map<number, number>();
        for (const op of operations) {
          if ('set' in op) {
            list.set(op.set, op.count);
            model.set(op.set, op.count);
          } else {
            list.delete(op.delete);
            model.delete(op.delete);
          }
        }
        expect(list.size).toBe(model.size);
        const seen: [number, number][] = [];
        list.forEach((count, number) => seen.push([number, count]));
        expect(seen).toEqual([...model].sort(([a], [b]) => a - b));
        for (let number = 0; number <= 300; number++) expect(list.get(number)).toBe(model.get(number));
      }),
      { numRuns: runs(200) },
    );
  });
});
