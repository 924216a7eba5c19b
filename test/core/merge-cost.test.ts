import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import type { WriteContext } from '../../src/core/context.js';
import { nodeIdsOf } from '../../src/core/content/btree.js';
import { openDraft } from '../../src/core/content/draft.js';
import { loadRevision } from '../../src/core/content/revision.js';
import { createPlatform } from '../../src/core/platform.js';
import { TABLES, type SpaceRecord } from '../../src/core/records.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { countingStore } from '../store/counting-store.js';

/**
 * What a three-way merge reads follows the size of the change, not of the space: in spaces of 520 and
 * 5,200 pages (sections of 25 pages), a merge whose request changed one page while the space changed
 * another reads about as many content map nodes at both sizes (the paths to the changed keys), and one
 * whose request added a page to a section reads, besides, at most a node per sibling of the new page;
 * both a small fraction of one revision's nodes (reading whole trees, the merge read ~760 at 5,200 pages).
 * Reads are counted through a store wrapper (test/store/counting-store.ts), not timed.
 */

const PER_SECTION = 25;

/** A space of `sections` sections of 25 pages each, written straight into its first revision (fast). */
async function largeSpace(sections: number) {
  const counting = countingStore(createMemoryStore());
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const platform = createPlatform({ store: counting.store, clock, signingKey: 'k' });
  const init = await platform.initialize({ title: 'Acme', email: 'owner@acme.test', name: 'Owner' });
  const api = platform.as(init.userId);
  const space = await api.createSpace({ organizationId: init.organizationId, title: 'Docs' });
  // The authoring API takes 50 changes a batch: 100 batches for 5,000 pages. One draft is the same content.
  const { pageIds, sectionIds } = await counting.store.write(async (tx) => {
    const ctx = { tx, ids: platform.ids, now: '2026-03-01T10:00:00.000Z' } as unknown as WriteContext;
    const record = (await tx.get(TABLES.spaces, space.id)) as SpaceRecord;
    const draft = await openDraft(ctx, record.revision);
    const ids: string[] = [];
    const tops: string[] = [];
    for (let s = 0; s < sections; s++) {
      const section = await draft.insertPage({ type: 'document', title: `Section ${s}`, markdown: `Section ${s}.` }, null);
      tops.push(section.id);
      for (let p = 0; p < PER_SECTION; p++) {
        ids.push((await draft.insertPage({ type: 'document', title: `Page ${p}`, markdown: `# Page ${s}.${p}\n\nText ${p}.\n` }, section.id)).id);
      }
    }
    const revision = await draft.commit({ parents: [record.revision], type: 'edits' });
    await tx.put(TABLES.spaces, { ...record, revision: revision.id });
    return { pageIds: ids, sectionIds: tops };
  });
  return { counting, platform, api, spaceId: space.id, pageIds, sectionIds };
}

/** Content map nodes and bodies read by a merge of request `second` after `first` was merged (both made from the same revision). */
async function mergeReads(
  { counting, api, spaceId }: Awaited<ReturnType<typeof largeSpace>>,
  first: unknown[],
  second: unknown[],
): Promise<{ nodes: number; bodies: number; result: string }> {
  const [a, b] = [await api.createChangeRequest({ spaceId }), await api.createChangeRequest({ spaceId })];
  await api.updateChangeRequestContent({ spaceId, changeRequestId: a.id, changes: first as never });
  await api.updateChangeRequestContent({ spaceId, changeRequestId: b.id, changes: second as never });
  await api.mergeChangeRequest({ spaceId, changeRequestId: a.id });
  counting.reset();
  const { result } = await api.mergeChangeRequest({ spaceId, changeRequestId: b.id });
  return { nodes: counting.readsOf(TABLES.contentNodes), bodies: counting.readsOf(TABLES.contentDocuments), result };
}

/** The content map nodes of a space's current revision (all four maps). */
async function revisionNodes({ platform, api, spaceId }: Awaited<ReturnType<typeof largeSpace>>): Promise<number> {
  const { revision } = await api.getSpace({ spaceId });
  return platform.store.read(async (tx) => {
    const { content } = await loadRevision(tx, revision as string);
    const counts = await Promise.all(Object.values(content).map(async (root) => (await nodeIdsOf(tx, root)).length));
    return counts.reduce((sum, count) => sum + count, 0);
  });
}

const edit = (page: string, n: number) => [{ operation: 'update_page', page, title: `Edited ${n}`, document: { markdown: `Edited body ${n}.` } }];

describe('merge cost', () => {
  it('reads about as many map nodes in a space of 5,200 pages as in one of 520, for a change of one page', async () => {
    const figures = [];
    for (const sections of [20, 200]) {
      const space = await largeSpace(sections);
      const { pageIds, sectionIds } = space;
      const edited = await mergeReads(space, edit(pageIds[3], 1), edit(pageIds[pageIds.length - 3], 2));
      const added = await mergeReads(space, edit(pageIds[5], 3), [{ operation: 'insert_page', into: sectionIds[7], title: 'New page', document: { markdown: 'New.' } }]);
      figures.push({ pages: pageIds.length + sections, edited, added, revisionNodes: await revisionNodes(space) });
      await space.platform.close();
    }
    const [small, large] = figures;
    for (const figure of figures) {
      expect([figure.edited.result, figure.added.result]).toEqual(['merge', 'merge']);
      // One body of each side's changed page at most; the rest is shared by reference.
      expect(figure.edited.bodies).toBeLessThanOrEqual(3);
    }
    // An edit reads the nodes on the changed keys' paths: a tree one level deeper costs a few reads more.
    expect(large.edited.nodes).toBeLessThanOrEqual(small.edited.nodes + 10);
    // An added page also reads its siblings (a leaf each at most): bounded by the section, not the space.
    expect(large.added.nodes).toBeLessThanOrEqual(large.edited.nodes + PER_SECTION + 5);
    expect(large.edited.nodes).toBeLessThan(large.revisionNodes / 20);
    expect(large.added.nodes).toBeLessThan(large.revisionNodes / 5);
  }, 60_000);
});
