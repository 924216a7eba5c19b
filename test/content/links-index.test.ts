import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { buildLinksIndex, linksIndexOf } from '../../src/core/content/links/links-index.js';
import { outlineOf } from '../../src/core/content/outline.js';
import { loadRevision } from '../../src/core/content/revision.js';
import { createDerivedCache } from '../../src/core/derived.js';
import { createPlatform, type Platform } from '../../src/core/platform.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { plainIndex } from './links-plain.js';
import { inlineWorkers } from '../../src/core/inline-workers.js';

/**
 * The per-revision links index is derived from its parent's when that one is cached: editing one page
 * parses that page's body and no other; a move or a rename parses nothing; with nothing cached every body
 * is parsed. Parses are counted through the injectable parser, and the derived index must equal the one
 * built from nothing.
 */

async function setup() {
  const platform: Platform = createPlatform({ store: createMemoryStore(), clock: manualClock('2026-03-01T10:00:00.000Z'), signingKey: 'k' });
  const { organizationId, userId } = await platform.initialize({ title: 'Acme', email: 'o@acme.test', name: 'O' });
  const api = platform.as(userId);
  const space = await api.createSpace({ organizationId, title: 'Docs' });
  const cr = await api.createChangeRequest({ spaceId: space.id });
  const batch = async (changes: unknown[]) => {
    const answer = (await api.updateChangeRequestContent({ spaceId: space.id, changeRequestId: cr.id, compat: false, changes: changes as never })) as any;
    return { revision: answer.changeRequest.revision as string, pages: answer.changes.map((change: any) => change.page.id ?? change.page) as string[] };
  };
  const pages = Array.from({ length: 6 }, (_, i) => ({
    operation: 'insert_page',
    ref: `p${i}`,
    title: `Page ${i}`,
    document: { markdown: `## Part ${i}\n\nSee [next](./p${(i + 1) % 6}#part-${(i + 1) % 6}) and [web](https://example.com/${i}).` },
  }));
  const first = await batch(pages);
  /** The index of a revision through a cache, counting the bodies parsed. */
  const indexOf = async (cache: ReturnType<typeof createDerivedCache>, revisionId: string) => {
    let parses = 0;
    const parse = (markdown: string) => {
      parses++;
      return outlineOf(markdown);
    };
    const index = await platform.store.read(async (tx) => linksIndexOf({ tx, derived: cache, parse, workers: inlineWorkers }, await loadRevision(tx, revisionId)));
    const scratch = await platform.store.read(async (tx) => buildLinksIndex(tx, await loadRevision(tx, revisionId)));
    expect(plainIndex(index)).toEqual(plainIndex(scratch));
    return { index, parses };
  };
  return { platform, batch, first, indexOf };
}

describe('links index', () => {
  it('parses only the edited page when the parent revision is cached, nothing for a move, every body without a cache', async () => {
    const { batch, first, indexOf } = await setup();
    const cache = createDerivedCache();
    expect((await indexOf(cache, first.revision)).parses).toBe(6);
    // Asked again: cached, nothing parsed.
    expect((await indexOf(cache, first.revision)).parses).toBe(0);

    const [edited] = first.pages;
    const second = await batch([{ operation: 'update_page', page: edited, document: { markdown: 'Now [only the web](https://example.org).' } }]);
    const { index, parses } = await indexOf(cache, second.revision);
    expect(parses).toBe(1);
    expect(index.pages.get(edited)!.refs).toEqual([{ kind: 'url', url: 'https://example.org', local: false }]);
    // The page that pointed at #part-0 of the edited page still does; the anchor is gone, which the
    // status reads from the edited page's new facts.
    expect(index.pages.get(edited)!.anchors.size).toBe(0);

    const third = await batch([
      { operation: 'update_page', page: first.pages[1], title: 'Renamed' },
      { operation: 'update_page', page: first.pages[2], into: first.pages[3] },
    ]);
    expect((await indexOf(cache, third.revision)).parses).toBe(0);

    const fourth = await batch([{ operation: 'delete_page', page: first.pages[3] }]);
    const after = await indexOf(cache, fourth.revision);
    expect(after.parses).toBe(0);
    // Pages 3 and 2 (moved under 3) are gone with their links.
    expect([...after.index.pages.keys()].sort()).toEqual([first.pages[0], first.pages[1], first.pages[4], first.pages[5]].sort());

    // A cache without the parent parses every body of the revision.
    expect((await indexOf(createDerivedCache(), fourth.revision)).parses).toBe(4);
  });
});
