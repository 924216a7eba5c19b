import fc from 'fast-check';
import { describe, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { createPlatform } from '../../src/core/platform.js';
import { openTestStore, TEST_STORE } from '../store/test-store.js';
import { commands } from './blob-collection/commands.js';
import { contentKeys, GRACE_MS, type Model, type Real } from './blob-collection/model.js';
import { runs } from './runs.js';

/**
 * The blob collection, as a model: bytes are uploaded, referenced by files of spaces, left unreferenced by
 * failed batches, dereferenced by deleting and purging spaces, while time passes, in random orders. Nothing
 * a space that is not purged references is ever removed, and everything unreferenced and last stored
 * before the grace period is gone after a collection (and nothing else is). Runs on the store
 * DOCS_PLATFORM_TEST_STORE names, with its own blob store (memory, folder, PostgreSQL table).
 */

describe(`the blob collection (${TEST_STORE} store)`, () => {
  it('never removes referenced bytes, and removes every unreferenced blob past its grace period', { timeout: 240_000 }, async () => {
    const keys = await contentKeys();
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 30 }), async (run) => {
        const clock = manualClock('2026-05-01T00:00:00.000Z');
        const { store, blobs, dispose } = await openTestStore({ now: clock.now });
        const platform = createPlatform({ store, blobs: blobs!, clock, signingKey: 'property-key', blobGraceMs: GRACE_MS });
        try {
          const { organizationId, userId } = await platform.initialize({ email: 'owner@acme.test' });
          const api = platform.as(userId);
          const space = await api.createSpace({ organizationId, title: 'First' });
          const changeRequest = await api.createChangeRequest({ spaceId: space.id });
          const real: Real = { platform, api, organizationId, blobs: blobs!, clock, spaces: [{ id: space.id, changeRequestId: changeRequest.id }], keys };
          const model: Model = { now: clock.now().getTime(), storedAt: new Map(), referencedBy: new Map(), spaces: [{ purged: false }] };
          await fc.asyncModelRun(() => ({ model, real }), run);
        } finally {
          await platform.close();
          await dispose();
        }
      }),
      { numRuns: runs(TEST_STORE === 'memory' ? 200 : 30) },
    );
  });
});
