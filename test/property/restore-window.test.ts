import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { createPlatform } from '../../src/core/platform.js';
import { INDEXES, TABLES } from '../../src/core/records.js';
import { RESTORE_WINDOW_MS, restorable } from '../../src/core/spaces/trash.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { outcome } from './outcome.js';
import { runs } from './runs.js';

/**
 * The 7-day restore window: for any delete time and any elapsed time, restoring succeeds exactly when
 * the elapsed time is at most 7 days (inclusive boundary), whatever is done first (a read, the sweep,
 * a write that reaches the space); after the window nothing of the space is reachable through the API
 * (get, lists, counts, every write) and, once anything purged it, nothing of it is left in the store.
 */

const DAY = 24 * 60 * 60 * 1000;
/** Elapsed times: anywhere in 30 days, and often within a few milliseconds of the boundary. */
const elapsed = fc.oneof(
  fc.integer({ min: 0, max: 30 * DAY }),
  fc.integer({ min: RESTORE_WINDOW_MS - 3, max: RESTORE_WINDOW_MS + 3 }),
  fc.constantFrom(0, RESTORE_WINDOW_MS, RESTORE_WINDOW_MS + 1),
);
/** Delete times from 2000 to 2100, to the millisecond. */
const deleteTime = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) });
/** What happens before the restore is tried. */
const before = fc.constantFrom('nothing', 'read', 'sweep', 'patch', 'list');

describe('the restore window', () => {
  it('restorable() is true exactly up to and including 7 days after the delete', () => {
    fc.assert(
      fc.property(deleteTime, elapsed, (at, ms) => {
        expect(restorable(new Date(at).toISOString(), new Date(at + ms))).toBe(ms <= RESTORE_WINDOW_MS);
      }),
      { numRuns: runs(1000) },
    );
  });

  it('restores exactly within the window; after it nothing of the space is reachable or left', async () => {
    await fc.assert(
      fc.asyncProperty(deleteTime, elapsed, before, async (at, ms, first) => {
        const clock = manualClock(new Date(at - 1000));
        const platform = createPlatform({ store: createMemoryStore(), clock, signingKey: 'property-key' });
        const { organizationId, userId } = await platform.initialize({ email: 'owner@acme.test' });
        const api = platform.as(userId);
        const kept = await api.createSpace({ organizationId, title: 'Kept' });
        const doomed = await api.createSpace({ organizationId, title: 'Doomed' });
        const team = await api.createTeam({ organizationId, title: 'Crew', members: [userId] });
        await platform.store.write(async (tx) => {
          const now = clock.now().toISOString();
          await tx.insert(TABLES.spaceGrants, { id: 'g', spaceId: doomed.id, teamId: team.id, role: 'edit', createdAt: now });
          await tx.insert(TABLES.changeRequests, { id: 'cr', spaceId: doomed.id, number: 1, status: 'open', createdAt: now });
          await tx.insert(TABLES.comments, { id: 'c', spaceId: doomed.id, status: 'open', postedAt: now });
        });
        clock.set(new Date(at));
        await api.deleteSpace({ spaceId: doomed.id });
        clock.set(new Date(at + ms));
        const within = ms <= RESTORE_WINDOW_MS;

        if (first === 'read') expect(await outcome(() => api.getSpace({ spaceId: doomed.id }))).toBe(within ? 'ok' : 404);
        if (first === 'sweep') expect(await platform.purgeDeletedSpaces()).toBe(within ? 0 : 1);
        if (first === 'patch') expect(await outcome(() => api.updateSpace({ spaceId: doomed.id, title: 'x' }))).toBe(404);
        if (first === 'list') expect((await api.listSpaces({ organizationId })).items.map((s) => s.id)).toEqual([kept.id]);

        expect(await outcome(() => api.restoreSpace({ spaceId: doomed.id }))).toBe(within ? 'ok' : 404);
        if (within) {
          expect((await api.getSpace({ spaceId: doomed.id })).changeRequests).toBe(1);
          expect((await api.listSpaces({ organizationId })).items.map((s) => s.id)).toEqual([kept.id, doomed.id]);
        } else {
          const reached = [
            () => api.getSpace({ spaceId: doomed.id }),
            () => api.updateSpace({ spaceId: doomed.id, title: 'x' }),
            () => api.deleteSpace({ spaceId: doomed.id }),
            () => api.duplicateSpace({ spaceId: doomed.id }),
            () => api.moveSpace({ spaceId: doomed.id, parent: null }),
            () => api.transferSpace({ spaceId: doomed.id, organization: organizationId }),
            () => api.restoreSpace({ spaceId: doomed.id }),
          ];
          for (const attempt of reached) expect(await outcome(attempt)).toBe(404);
          expect((await api.listSpaces({ organizationId })).items.map((s) => s.id)).toEqual([kept.id]);
          expect((await api.getMember({ organizationId, userId })).spaces).toBe(1);
          expect((await api.getTeam({ organizationId, teamId: team.id })).spaces).toBe(0);
          expect((await api.listMemberSpaces({ organizationId, userId })).items.map((entry) => entry.space.id)).toEqual([kept.id]);
          const left = await platform.store.read(async (tx) => {
            const found: unknown[] = [await tx.get(TABLES.spaces, doomed.id), await tx.get(TABLES.revisions, doomed.revision)];
            for (const [table, index] of [
              [TABLES.spaceGrants, INDEXES.spaceGrantsBySpace],
              [TABLES.changeRequests, INDEXES.changeRequestsBySpace],
              [TABLES.comments, INDEXES.commentsBySpace],
            ] as const) {
              found.push(...(await tx.list(table, { index, value: doomed.id })).items);
            }
            return found.filter((record) => record !== undefined);
          });
          expect(left).toEqual([]);
          expect(await platform.purgeDeletedSpaces()).toBe(0);
        }
        await platform.close();
      }),
      { numRuns: runs(150) },
    );
  }, 60_000);
});
