import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { ApiError } from '../../src/core/errors.js';
import { decodeCursor, encodeCursor, pageOf, pageOfArray, type Page } from '../../src/core/pagination.js';
import { createPlatform } from '../../src/core/platform.js';
import { MEMBER_ROLES, type MemberRole } from '../../src/core/roles.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { ReadTransaction, SortKey, StoredRecord } from '../../src/store/types.js';
import { runs } from './runs.js';

/**
 * Keyset pagination, checked against a model: a plain array of what exists, sorted by (key, id) with
 * plain string comparison. Between page reads, new items are inserted with keys on both sides of the
 * cursor. Every page must be exactly the model's next slice at that moment, so a walk lists every
 * item that existed when it began exactly once, in the declared order, with `count` the total.
 */

/** Runs per property: the platform one costs ~25 ms a run, the store one ~5 ms (so it runs more). */
const NUM_RUNS = runs(50);
const STORE_RUNS = runs(200);
/** The page size without `limit` (docs/api-notes.md: 50), stated here rather than imported so that a change shows. */
const DEFAULT_LIMIT = 50;

/** A small set of instants, so that keys tie often and inserts land before and after any cursor. */
const INSTANTS = Array.from({ length: 12 }, (_, i) => new Date(Date.UTC(2026, 2, 1, 10, i)).toISOString());
const instant = fc.integer({ min: 0, max: INSTANTS.length - 1 }).map((i) => INSTANTS[i]);

/** Plain code-unit comparison of (key, id) pairs: what "the declared order" means. */
function compareModel(a: readonly [string, string], b: readonly [string, string]): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
  return 0;
}

/** The model's page: the items strictly after `last` in the order, at most `limit`, and the total. */
function modelPage<T>(items: readonly T[], keyOf: (item: T) => [string, string], order: 'asc' | 'desc', last: [string, string] | undefined, limit: number) {
  const direction = order === 'asc' ? 1 : -1;
  const sorted = [...items].sort((a, b) => direction * compareModel(keyOf(a), keyOf(b)));
  const after = last ? sorted.filter((item) => direction * compareModel(keyOf(item), last) > 0) : sorted;
  return { items: after.slice(0, limit), more: after.length > limit, count: items.length };
}

/** Checks the walk's result: every item that existed at the start exactly once, in order. */
function checkWalk(walked: readonly string[], initial: readonly string[]) {
  expect(new Set(walked).size, 'no item twice').toBe(walked.length);
  const seen = new Set(walked);
  for (const id of initial) expect(seen.has(id), `pre-existing ${id} listed`).toBe(true);
}

/** A draw for the page size: small ones often (many pages), otherwise any size. */
const limitDraw = fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 5, max: 1000 }));
/** Any limit from 1 to n+5, from a limitDraw. */
const limitFor = (raw: number, n: number) => (raw <= 4 ? raw : 1 + (raw % (n + 5)));

/** Inserts to make between page reads: batch i is applied after page i has been read. */
const insertBatches = <T>(item: fc.Arbitrary<T>) => fc.array(fc.array(item, { maxLength: 3 }), { maxLength: 40, size: 'max' });

describe('pagination over the store (pageOf and pageOfArray, mixed)', () => {
  const INDEX = { by: 'group', order: ['at'] } as const;
  type Thing = { id: string; group: string; at: string; even: boolean };

  const thing = (group: fc.Arbitrary<string>) =>
    fc.record({ id: fc.stringMatching(/^[A-Za-z0-9_-]{1,6}$/), group, at: instant, even: fc.boolean() });

  it('walks every pre-existing item exactly once, in order, while items are inserted', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(thing(fc.constantFrom('g', 'g', 'g', 'other')), { maxLength: 120, size: 'max', selector: (t) => t.id }),
        limitDraw,
        fc.boolean(),
        fc.constantFrom('asc' as const, 'desc' as const),
        fc.boolean(),
        insertBatches(thing(fc.constantFrom('g', 'other'))),
        fc.infiniteStream(fc.boolean()),
        fc.boolean(),
        async (initial, rawLimit, useDefaultLimit, order, filtered, batches, useArray, inOneTransaction) => {
          const store = createMemoryStore();
          await store.write(async (tx) => {
            for (const t of initial) await tx.insert('things', t);
          });
          const inGroup = initial.filter((t) => t.group === 'g').length;
          // Any limit from 1 to N+5 (or none: the default).
          const limit = useDefaultLimit ? undefined : limitFor(rawLimit, inGroup);
          const where = filtered ? (record: StoredRecord) => (record as Thing).even : undefined;
          const model: Thing[] = initial.filter((t) => t.group === 'g' && (!filtered || t.even));
          const initialIds = model.map((t) => t.id);
          const keyOf = (t: Thing): [string, string] => [t.at, t.id];

          /** The walk, reading and inserting through `read`/`insert`: committed transactions, or one open one. */
          const walk = async (read: <T>(fn: (tx: ReadTransaction) => Promise<T>) => Promise<T>, insert: (things: Thing[]) => Promise<void>) => {
            const walked: string[] = [];
            let last: [string, string] | undefined;
            let cursor: string | undefined;
            let inserted = 0;
            for (let pageNumber = 0; pageNumber < 1000; pageNumber++) {
              const request = { page: cursor, limit };
              let page: Page<StoredRecord>;
              if (useArray.next().value) {
                // The core's way for joined lists: filter everything, then page the array with the same cursors.
                const { items } = await read((tx) => tx.list('things', { index: INDEX, value: 'g', where }));
                page = pageOfArray(items, (t) => [t.at as string, t.id], request, order);
              } else {
                page = await read((tx) => pageOf(tx, 'things', { index: INDEX, value: 'g', order, where }, request));
              }
              const expected = modelPage(model, keyOf, order, last, limit ?? DEFAULT_LIMIT);
              expect(page.items.map((t) => t.id)).toEqual(expected.items.map((t) => t.id));
              expect(page.count).toBe(model.length);
              expect(page.next !== undefined, 'next present exactly when more items follow').toBe(expected.more);
              walked.push(...page.items.map((t) => t.id));
              if (!page.next) break;
              expect(page.items.length).toBe(limit ?? DEFAULT_LIMIT);
              last = keyOf(page.items.at(-1) as Thing);
              cursor = page.next.page;
              expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
              const batch = (batches[pageNumber] ?? []).map((t) => ({ ...t, id: `${t.id}~${inserted++}` }));
              await insert(batch);
              model.push(...batch.filter((t) => t.group === 'g' && (!filtered || t.even)));
            }
            return walked;
          };

          const walked = inOneTransaction
            ? // A write transaction lists its own uncommitted inserts (the engine's merge path).
              await store.write((tx) =>
                walk(
                  (fn) => fn(tx),
                  async (things) => {
                    for (const t of things) await tx.insert('things', t);
                  },
                ),
              )
            : await walk(
                (fn) => store.read(fn),
                (things) =>
                  store.write(async (tx) => {
                    for (const t of things) await tx.insert('things', t);
                  }),
              );
          checkWalk(walked, initialIds);
        },
      ),
      { numRuns: STORE_RUNS },
    );
  });
});

describe('pagination of listMembers through the platform', () => {
  const ROLE_OR_GUEST = [...MEMBER_ROLES, null] as const;
  const TAGS = ['red', 'green', 'blue'] as const;

  type Joiner = { at: string; role: MemberRole | null; tag: (typeof TAGS)[number]; tagInEmail: boolean; seenAt?: string };
  const joiner = fc.record({
    at: instant,
    role: fc.constantFrom(...ROLE_OR_GUEST),
    tag: fc.constantFrom(...TAGS),
    tagInEmail: fc.boolean(),
    seenAt: fc.option(instant, { nil: undefined }),
  });

  type Mode =
    | { kind: 'plain' }
    | { kind: 'role'; role: MemberRole | 'guest' }
    | { kind: 'search'; needle: string }
    | { kind: 'lastSeen' }
    | { kind: 'lastSeenSearch'; needle: string };
  const mode: fc.Arbitrary<Mode> = fc.oneof(
    fc.constant({ kind: 'plain' as const }),
    fc.constantFrom(...MEMBER_ROLES, 'guest' as const).map((role) => ({ kind: 'role' as const, role })),
    fc.constantFrom('RED', 'Green', 'bLuE', 'member', 'nothing').map((needle) => ({ kind: 'search' as const, needle })),
    fc.constant({ kind: 'lastSeen' as const }),
    fc.constantFrom('red', 'GREEN').map((needle) => ({ kind: 'lastSeenSearch' as const, needle })),
  );

  type Member = { userId: string; joinedAt: string; lastSeenAt?: string; role: MemberRole | null; name: string; email: string };

  it('walks every pre-existing member exactly once, in order, while members join and are seen', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(joiner, { maxLength: 120, size: 'max' }),
        limitDraw,
        fc.constantFrom('asc' as const, 'desc' as const, undefined),
        mode,
        insertBatches(joiner),
        async (initial, rawLimit, order, mode, batches) => {
          const clock = manualClock(INSTANTS[0]);
          const platform = createPlatform({ store: createMemoryStore(), clock, signingKey: 'k' });
          const { organizationId, userId: ownerId } = await platform.initialize({ title: 'Org', email: 'owner@org.test', name: 'Owner' });
          const members: Member[] = [{ userId: ownerId, joinedAt: INSTANTS[0], role: 'admin', name: 'Owner', email: 'owner@org.test' }];
          let count = 0;
          const join = async (j: Joiner) => {
            const n = count++;
            const name = `Member ${n} ${j.tag.toUpperCase()}`;
            const email = j.tagInEmail ? `m${n}.${j.tag}@org.test` : `m${n}@org.test`;
            clock.set(j.at);
            const { userId } = await platform.addUser({ organizationId, email, name: j.tagInEmail ? `Member ${n}` : name, role: j.role });
            const member: Member = { userId, joinedAt: j.at, role: j.role, name: j.tagInEmail ? `Member ${n}` : name, email };
            if (j.seenAt !== undefined) {
              clock.set(j.seenAt);
              await platform.as(userId).pingOrganization({ organizationId });
              member.lastSeenAt = j.seenAt;
            }
            members.push(member);
          };
          for (const j of initial) await join(j);

          const sort = mode.kind === 'lastSeen' || mode.kind === 'lastSeenSearch' ? 'lastSeenAt' : 'joinedAt';
          const needle = mode.kind === 'search' || mode.kind === 'lastSeenSearch' ? mode.needle : undefined;
          const role = mode.kind === 'role' ? mode.role : undefined;
          const matches = (m: Member) =>
            (sort === 'joinedAt' || m.lastSeenAt !== undefined) &&
            (role === undefined || m.role === (role === 'guest' ? null : role)) &&
            (needle === undefined || `${m.name}\n${m.email}`.toLowerCase().includes(needle.toLowerCase()));
          const keyOf = (m: Member): [string, string] => [(sort === 'lastSeenAt' ? m.lastSeenAt : m.joinedAt)!, m.userId];
          const initialIds = members.filter(matches).map((m) => m.userId);
          const limit = limitFor(rawLimit, initialIds.length);

          const api = platform.as(ownerId);
          const walked: string[] = [];
          let last: [string, string] | undefined;
          let page: string | undefined;
          for (let pageNumber = 0; pageNumber < 1000; pageNumber++) {
            const result = await api.listMembers({ organizationId, limit, page, order, sort, role, search: needle });
            const expected = modelPage(members.filter(matches), keyOf, order ?? 'desc', last, limit);
            expect(result.items.map((m) => m.id)).toEqual(expected.items.map((m) => m.userId));
            expect(result.count).toBe(expected.count);
            expect(result.next !== undefined).toBe(expected.more);
            walked.push(...result.items.map((m) => m.id));
            if (!result.next) break;
            last = keyOf(members.find((m) => m.userId === result.items.at(-1)!.id)!);
            page = result.next.page;
            for (const j of batches[pageNumber] ?? []) await join(j);
          }
          checkWalk(walked, initialIds);
          await platform.close();
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('cursors', () => {
  const scalar = fc.oneof(
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x)),
  );

  it('decode what they encode, and are URL-safe', () => {
    fc.assert(
      fc.property(fc.array(scalar, { minLength: 1, maxLength: 5 }), (key: SortKey) => {
        const cursor = encodeCursor(key);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(decodeCursor(cursor)).toEqual(key);
      }),
      { numRuns: runs(200) },
    );
  });

  it('refuse anything else with a 400 naming page, never another error', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.base64String(), fc.json().map((json) => Buffer.from(json).toString('base64url'))), (page) => {
        try {
          const key = decodeCursor(page);
          expect(Array.isArray(key) && key.length > 0).toBe(true);
          for (const value of key) expect(value === null || ['string', 'number', 'boolean'].includes(typeof value)).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(ApiError);
          expect((error as ApiError).status).toBe(400);
          expect((error as ApiError).message).toMatch(/^page: /);
        }
      }),
      { numRuns: runs(300) },
    );
  });
});
