import fc from 'fast-check';
import { describe, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { createDerivedCache } from '../../src/core/derived.js';
import { createPlatform } from '../../src/core/platform.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { check } from './links/check.js';
import { DeletePage, EditBody, InsertFile, InsertPage, MergeAndReopen, MoveToTop, type LinkSpec } from './links/commands.js';
import type { Model, Real } from './links/model.js';
import { runs } from './runs.js';

/**
 * Links against a model (fast-check's musicPlayer pattern, see links/model.ts): random sequences of edit
 * batches on a change request (pages with headings and links of every kind inserted, edited, deleted with
 * their subpages, renamed and moved; files uploaded) and merges that open a new request. After every step:
 * - the links index of the request's and the space's revisions, derived step by step from the previous
 *   one in a cache, equals the index built from nothing, and parsed no more bodies than the batch wrote;
 * - every page's link list (targets, statuses, stats with the request's own broken count), every file's
 *   backlinks and the space's link list are what the model says.
 * It runs in-process through the platform's operations on the memory store, with a platform that keeps
 * links indexes and with one that keeps none (page lists then read the page and its targets directly).
 */

const NUM_RUNS = runs(30);

const pick = fc.nat({ max: 20 });
const headings = fc.array(fc.nat({ max: 2 }), { maxLength: 4 });
const linkSpec: fc.Arbitrary<LinkSpec> = fc.oneof(
  fc.record({ t: fc.constant('page' as const), pick, anchor: fc.option(fc.nat({ max: 4 }), { nil: null }) }),
  fc.record({ t: fc.constant('self' as const), anchor: fc.nat({ max: 4 }) }),
  fc.record({ t: fc.constant('file' as const), pick }),
  fc.record({ t: fc.constant('url' as const), which: fc.nat({ max: 3 }) }),
);
const links = fc.array(linkSpec, { maxLength: 5 });
/** Mostly documents; now and then a link page (to a URL or a page). */
const linkPage = fc.oneof(
  { arbitrary: fc.constant(null), weight: 4 },
  { arbitrary: fc.oneof(fc.record({ url: fc.nat({ max: 3 }) }), fc.record({ page: pick })), weight: 1 },
);

const commands = [
  fc.tuple(headings, links, fc.option(pick, { nil: null }), linkPage).map(([h, l, into, link]) => new InsertPage(h, l, into, link)),
  fc.array(fc.tuple(pick, headings, links), { minLength: 1, maxLength: 3 }).map((edits) => new EditBody(edits)),
  pick.map((p) => new DeletePage(p)),
  pick.map((p) => new MoveToTop(p)),
  fc.constant(new InsertFile()),
  fc.constant(new MergeAndReopen()),
];

/**
 * An empty space with an open change request; the model knows nothing yet. `cached`: the platform keeps
 * links indexes (page lists read from them); otherwise it keeps none, so page lists are read directly.
 */
async function setup(cached: boolean): Promise<{ model: Model; real: Real }> {
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const platform = createPlatform({ store: createMemoryStore(), clock, signingKey: 'property-key', ...(!cached && { derivedCapacity: 0 }) });
  const init = await platform.initialize({ title: 'Acme Docs', email: 'owner@acme.test', name: 'Olive Owner' });
  const api = platform.as(init.userId);
  const spaceId = (await api.createSpace({ organizationId: init.organizationId, title: 'Linked' })).id;
  const changeRequestId = (await api.createChangeRequest({ spaceId })).id;
  const empty = () => ({ pages: new Map(), files: [] });
  const model: Model = { request: empty(), base: empty(), space: empty(), removed: [] };
  const real: Real = { platform, clock, api, spaceId, changeRequestId, cache: createDerivedCache(), parseBudget: 0 };
  await check(model, real);
  return { model, real };
}

describe('links (model-based)', () => {
  it('lists, stats, backlinks and the incremental index follow the model through any edit batches and merges', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.commands(commands, { maxCommands: 15 }), async (cached, cmds) => {
        const { model, real } = await setup(cached);
        try {
          await fc.asyncModelRun(() => ({ model, real }), cmds);
        } finally {
          await real.platform.close();
        }
      }),
      { numRuns: NUM_RUNS },
    );
  }, 120_000);
});
