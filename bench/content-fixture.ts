import { manualClock } from '../src/core/clock.js';
import { createPlatform, type Api, type Platform } from '../src/core/platform.js';
import { createMemoryStore } from '../src/store/memory.js';
import type { Store } from '../src/store/types.js';

/** A space of the content bench: its platform (memory store), the owner's API, and its pages. */
export interface ContentFixture {
  readonly platform: Platform;
  readonly api: Api;
  readonly spaceId: string;
  /** Every page id of the space, sections first then their subpages, in tree order. */
  readonly pageIds: readonly string[];
  /** A page id by a round number: spread over the whole space, the same for the same number. */
  readonly pick: (round: number) => string;
}

/** The most changes one authoring batch takes. */
const BATCH = 50;

/**
 * A space of `pages` pages, made the way users make one: written in a change request (batches of 50
 * through the authoring operation), then merged. 100 top-level sections (fewer below 100 pages) and the
 * other pages spread evenly under them, each with a heading and a line of text. `store` is the memory
 * store unless given (the bench passes a wrapper that counts reads).
 */
export async function contentFixture(pages: number, store: Store = createMemoryStore()): Promise<ContentFixture> {
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const platform = createPlatform({ store, clock, signingKey: 'bench' });
  const init = await platform.initialize({ title: 'Bench', email: 'bench@bench.test', name: 'Bench' });
  const api = platform.as(init.userId);
  const space = await api.createSpace({ organizationId: init.organizationId, title: 'Big' });
  const cr = await api.createChangeRequest({ spaceId: space.id });
  const sections = Math.min(100, pages);
  const apply = async (changes: unknown[]) => {
    for (let i = 0; i < changes.length; i += BATCH) {
      await api.updateChangeRequestContent({ spaceId: space.id, changeRequestId: cr.id, changes: changes.slice(i, i + BATCH) as never });
    }
  };
  await apply(Array.from({ length: sections }, (_, s) => ({ operation: 'insert_page', title: `Section ${s}`, document: { markdown: `Section ${s}.` } })));
  const sectionIds = (await api.listChangeRequestPages({ spaceId: space.id, changeRequestId: cr.id })).pages.map((page) => page.id);
  await apply(
    Array.from({ length: pages - sections }, (_, i) => ({
      operation: 'insert_page',
      into: sectionIds[i % sections],
      title: `Page ${i}`,
      document: { markdown: `# Page ${i}\n\nSome text about page ${i}, with a [link](https://example.com) and the word topic${i % 97}.\n` },
    })),
  );
  await api.mergeChangeRequest({ spaceId: space.id, changeRequestId: cr.id });
  const tree = await api.listSpacePages({ spaceId: space.id, computed: false, metadata: false });
  const top = tree.pages as unknown as { id: string; pages?: { id: string }[] }[];
  const pageIds = top.flatMap((page) => [page.id, ...(page.pages ?? []).map((child) => child.id)]);
  if (pageIds.length !== pages) throw new Error(`content fixture: ${pageIds.length} pages, wanted ${pages}`);
  // A large prime stride visits every page before repeating (it shares no factor with 100 or 10,000).
  const pick = (round: number) => pageIds[(round * 7919) % pageIds.length];
  return { platform, api, spaceId: space.id, pageIds, pick };
}
