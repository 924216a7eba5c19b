import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyMerged } from '../../src/core/change-requests/merge/apply.js';
import { commitMerge } from '../../src/core/change-requests/merge/commit.js';
import { OWN_FIELDS } from '../../src/core/change-requests/merge/pages.js';
import { bodiesToRead, mergeContent } from '../../src/core/change-requests/merge/three-way.js';
import type { MergedContent } from '../../src/core/change-requests/merge/types.js';
import type { WriteContext } from '../../src/core/context.js';
import { openDraft } from '../../src/core/content/draft.js';
import { EMPTY_CONTENT, type PageEntry } from '../../src/core/content/model.js';
import { loadPageTree, readMarkdown } from '../../src/core/content/revision.js';
import { sequentialIds } from '../../src/core/ids.js';
import { TABLES, type RevisionRecord } from '../../src/core/records.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { ReadTransaction } from '../../src/store/types.js';
import { contendedScriptArb, editArb, emptySide, scriptArb, sidesOf, textOf, type Docs, type Side } from './merge-trees.js';
import { runs } from './runs.js';

/**
 * The merge as stored, when the three revisions share what they did not change (as a space and its
 * change requests do): the base is stored, and the space's and the request's contents are stored as
 * edits of it with the draft, so each keeps the base's page entries, bodies and map nodes for the pages
 * its script left alone. commitMerge then reads only what the two sides changed (merge/sides.ts) and must
 * store what the pure merge of the three whole trees gives: per page its fields, slug, path, parent,
 * position among its siblings and body; the same files; the same conflicts. And it says so whenever a
 * path of the space's side no longer leads to the same page (`movesPages`, content/moved-pages.ts).
 */

const NUM_RUNS = runs(100);

const contextOf = (tx: ReadTransaction): WriteContext => ({ tx, ids: sequentialIds('n'), now: '2024-02-01T00:00:00.000Z' }) as unknown as WriteContext;

/**
 * Stores `to` as a revision made from the stored revision `fromId` (whose content is the pure side
 * `from`): a page whose body is the one it had in `from` keeps its stored body, and applyMerged (checked
 * on whole trees by merge-apply.test.ts) rewrites only the pages that differ, so the rest is shared.
 */
async function storeEdit(ctx: WriteContext, fromId: string, from: Side, to: Side, docs: Docs): Promise<string> {
  const stored = await loadPageTree(ctx.tx, fromId);
  const pages = new Map<string, PageEntry>();
  const bodies = new Map<string, string>();
  for (const [id, page] of to.byId) {
    const { document: _key, ...rest } = page;
    const same = from.byId.has(id) && from.byId.get(id)!.document === page.document;
    const document = same ? stored.byId.get(id)!.document : undefined;
    pages.set(id, { ...rest, ...(document !== undefined && { document }) });
    if (!same && page.type === 'document') bodies.set(id, textOf(docs, page));
  }
  const draft = await openDraft(ctx, fromId);
  await applyMerged(draft, stored, { pages, bodies, files: new Map(to.files.map((file) => [file.id, file])), conflicts: [] });
  return (await draft.commit({ parents: [fromId], type: 'edits' })).id;
}

/** The pure merge of three stored revisions, read whole (loadPageTree), with the bodies it asks for. */
async function wholeTreeMerge(tx: ReadTransaction, [base, ours, theirs]: readonly string[]): Promise<MergedContent> {
  const sides = await Promise.all([base, ours, theirs].map((id) => loadPageTree(tx, id)));
  const needed = bodiesToRead(sides[0], sides[1], sides[2]);
  const bodies = new Map(await Promise.all(needed.map(async (page) => [page.document!, await readMarkdown(tx, page)] as const)));
  return mergeContent(sides[0], sides[1], sides[2], bodies);
}

/** Pages in a form to compare: fields, place as a position among siblings (by ordering key), and body. */
function outline(pages: readonly PageEntry[], bodies: ReadonlyMap<string, string>) {
  const position = (page: PageEntry) => pages.filter((other) => other.parent === page.parent && other.order < page.order).length;
  return [...pages]
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((page) => ({
      ...Object.fromEntries(OWN_FIELDS.map((field) => [field, page[field]])),
      id: page.id,
      type: page.type,
      slug: page.slug,
      path: page.path,
      parent: page.parent,
      at: position(page),
      body: bodies.get(page.id),
    }));
}

/** A base of several pages and a few other edits, so that most of its pages are left alone by each side. */
const baseArb = fc
  .tuple(fc.array(editArb.filter((edit) => edit.op === 'insert'), { minLength: 4, maxLength: 20 }), scriptArb(6))
  .map(([inserts, more]) => [...inserts, ...more]);

const scriptsArb = fc.oneof(
  fc.record({ base: baseArb, ours: scriptArb(6), theirs: scriptArb(6) }),
  fc.record({ base: baseArb, ours: contendedScriptArb(6), theirs: contendedScriptArb(6) }),
);

describe('merging revisions that share their unchanged content', () => {
  it('stores what the pure merge of the whole trees gives', async () => {
    await fc.assert(
      fc.asyncProperty(scriptsArb, async (scripts) => {
        const { docs, base, ours, theirs } = sidesOf(scripts);
        await createMemoryStore().write(async (tx) => {
          const ctx = contextOf(tx);
          const empty: RevisionRecord = { id: 'empty', spaceId: 'space', parents: [], type: 'edits', content: EMPTY_CONTENT, createdAt: ctx.now };
          await tx.insert(TABLES.revisions, empty);
          const baseId = await storeEdit(ctx, empty.id, emptySide(), base, docs);
          const ids = { base: baseId, ours: await storeEdit(ctx, baseId, base, ours, docs), theirs: await storeEdit(ctx, baseId, base, theirs, docs) };
          const merged = await wholeTreeMerge(tx, [ids.base, ids.ours, ids.theirs]);
          const { revision, conflicts, movesPages } = await commitMerge(ctx, { ...ids, parents: [ids.ours, ids.theirs], type: 'merge', changeRequestId: 'cr' });
          expect(conflicts).toEqual(merged.conflicts);
          const result = await loadPageTree(tx, revision.id);
          // A path of the space's side that the result gives no page, or another one, is one the old URLs of moved pages need.
          const left = [...(await loadPageTree(tx, ids.ours)).byPath].filter(([path, page]) => result.byPath.get(path)?.id !== page.id);
          if (left.length > 0) expect(movesPages, `paths left: ${left.map(([path]) => path).join(', ')}`).toBe(true);
          const stored = [...result.byId.values()];
          const storedBodies = new Map(await Promise.all(stored.map(async (page) => [page.id, await readMarkdown(tx, page)] as const)));
          const expectedBodies = new Map(await Promise.all([...merged.pages.values()].map(async (page) => [page.id, merged.bodies.get(page.id) ?? (await readMarkdown(tx, page))] as const)));
          expect(outline(stored, storedBodies)).toEqual(outline([...merged.pages.values()], expectedBodies));
          expect(result.files).toEqual([...merged.files.values()]);
        });
      }),
      { numRuns: NUM_RUNS },
    );
  }, 60_000);
});
