import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { SegmentHandle } from '../../src/store/journal.js';
import { createJsonFileStore } from '../../src/store/json-file.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { IndexDefinition, ListQuery, ReadTransaction, Store, StoredRecord } from '../../src/store/types.js';
import { runs } from './runs.js';

/**
 * What a store shows, checked against a model that is a plain map of records:
 * - a read transaction sees the state at its start for its whole run, whatever commits meanwhile, in
 *   `get` and in `list` (order, cursor, limit, filter, count), and a write transaction sees its own changes;
 * - with journal appends that fail at random (a torn write, a failed flush) while a compaction runs after
 *   every append, the store and a reopening of its file hold exactly the acknowledged writes.
 */

const folder = await mkdtemp(join(tmpdir(), 'dp-store-visibility-'));
afterAll(() => rm(folder, { recursive: true, force: true }));
let n = 0;

type Thing = StoredRecord & { group: string; rank: number };
type State = ReadonlyMap<string, Thing>;

const IDS = ['a', 'b', 'c', 'd', 'e', 'f'];
const GROUPS = ['g', 'h'];
const byGroup: IndexDefinition = { by: 'group', order: ['rank'] };

/** A change: put a record, or delete one. */
type Change = { kind: 'put'; thing: Thing } | { kind: 'delete'; id: string };

const thing = fc.record({ id: fc.constantFrom(...IDS), group: fc.constantFrom(...GROUPS), rank: fc.integer({ min: 0, max: 3 }) });
const change: fc.Arbitrary<Change> = fc.oneof(
  thing.map((t) => ({ kind: 'put' as const, thing: t })),
  fc.constantFrom(...IDS).map((id) => ({ kind: 'delete' as const, id })),
);
const query = fc.record({
  value: fc.constantFrom(...GROUPS),
  order: fc.constantFrom('asc' as const, 'desc' as const),
  limit: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
  after: fc.option(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.constantFrom(...IDS)), { nil: undefined }),
  evenOnly: fc.boolean(),
  prefix: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
});
type Query = typeof query extends fc.Arbitrary<infer Q> ? Q : never;

const applyTo = (state: Map<string, Thing>, c: Change) => (c.kind === 'put' ? state.set(c.thing.id, c.thing) : state.delete(c.id));

/** The model's answer to a list: the group's records by (rank, id), then order, cursor, filter, limit. */
function expectedList(state: State, q: Query) {
  const key = (t: Thing): [number, string] => [t.rank, t.id];
  const cmp = (a: [number, string], b: [number, string]) => (a[0] !== b[0] ? a[0] - b[0] : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
  const sign = q.order === 'asc' ? 1 : -1;
  const matching = [...state.values()]
    .filter((t) => t.group === q.value && (!q.evenOnly || t.rank % 2 === 0) && (q.prefix === undefined || t.rank === q.prefix))
    .sort((x, y) => sign * cmp(key(x), key(y)));
  const after = q.after;
  const rest = after ? matching.filter((t) => sign * cmp(key(t), after) > 0) : matching;
  return { ids: rest.slice(0, q.limit ?? rest.length).map((t) => t.id), count: matching.length };
}

const toQuery = (q: Query): ListQuery => ({
  index: byGroup,
  value: q.value,
  order: q.order,
  limit: q.limit,
  after: q.after,
  where: q.evenOnly ? (r) => (r.rank as number) % 2 === 0 : undefined,
  prefix: q.prefix === undefined ? undefined : [q.prefix],
});

async function observe(tx: ReadTransaction, q: Query) {
  const list = await tx.list('things', toQuery(q));
  const gets = await Promise.all(IDS.map((id) => tx.get('things', id)));
  return { ids: list.items.map((r) => r.id), count: list.count, gets };
}

const expected = (state: State, q: Query) => ({ ...expectedList(state, q), gets: IDS.map((id) => state.get(id)) });

const write = (store: Store, changes: readonly Change[]) =>
  store.write(async (tx) => {
    for (const c of changes) await (c.kind === 'put' ? tx.put('things', c.thing) : tx.delete('things', c.id));
  });

/** A step: commit a few changes, or look through the open read transaction (and, within a write, through the write's own). */
type Step = { kind: 'commit'; changes: Change[] } | { kind: 'look'; query: Query } | { kind: 'look-in-write'; changes: Change[]; query: Query };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('commit' as const), changes: fc.array(change, { minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('look' as const), query }),
  fc.record({ kind: fc.constant('look-in-write' as const), changes: fc.array(change, { maxLength: 3 }), query }),
);

const stores = [
  ['memory', async () => createMemoryStore()],
  ['json-file', async () => createJsonFileStore({ path: join(folder, `iso-${++n}.json`) })],
] as const;

describe.each(stores)('%s store: what transactions see', (_, create) => {
  it('a read transaction sees its starting state throughout; a write transaction sees its own changes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(change, { maxLength: 8 }), fc.array(step, { minLength: 1, maxLength: 12 }), async (initial, steps) => {
        const store = await create();
        try {
          const model = new Map<string, Thing>();
          for (const c of initial) applyTo(model, c);
          await write(store, initial);
          const pinned: State = new Map(model);
          await store.read(async (reader) => {
            for (const s of steps) {
              if (s.kind === 'commit') {
                await write(store, s.changes);
                for (const c of s.changes) applyTo(model, c);
              } else if (s.kind === 'look') {
                expect(await observe(reader, s.query)).toEqual(expected(pinned, s.query));
                expect(await store.read((fresh) => observe(fresh, s.query))).toEqual(expected(model, s.query));
              } else {
                const staged = new Map(model);
                for (const c of s.changes) applyTo(staged, c);
                const seen = await store.write(async (tx) => {
                  for (const c of s.changes) await (c.kind === 'put' ? tx.put('things', c.thing) : tx.delete('things', c.id));
                  return observe(tx, s.query);
                });
                expect(seen).toEqual(expected(staged, s.query));
                for (const c of s.changes) applyTo(model, c);
              }
            }
          });
        } finally {
          await store.close();
        }
      }),
      { numRuns: runs(60) },
    );
  });
});

/** A journal whose next appends fail as told: a torn write (ENOSPC) or a failed flush (EIO). */
function flakyDisk() {
  const faults: ('torn' | 'sync' | 'ok')[] = [];
  return {
    faults,
    async openSegment(path: string): Promise<SegmentHandle> {
      const file = await open(path, 'a');
      let fault: 'torn' | 'sync' | 'ok' = 'ok';
      return {
        async write(bytes, offset, length) {
          fault = faults.shift() ?? 'ok';
          if (fault === 'torn') {
            await file.write(bytes, offset, Math.max(1, length >> 1));
            throw new Error('ENOSPC: no space left on device');
          }
          return file.write(bytes, offset, length);
        },
        async datasync() {
          if (fault === 'sync') throw new Error('EIO: i/o error');
          return file.datasync();
        },
        truncate: (length) => file.truncate(length),
        close: () => file.close(),
      };
    },
  };
}

describe('json-file store with a disk that fails', () => {
  it('holds exactly the acknowledged writes, in memory and after a reopen, with a compaction after every append', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ writes: fc.array(fc.array(change, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 5 }), faults: fc.array(fc.constantFrom('torn' as const, 'sync' as const, 'ok' as const), { maxLength: 3 }) }), {
          minLength: 1,
          maxLength: 6,
        }),
        async (rounds) => {
          const path = join(folder, `faults-${++n}.json`);
          const disk = flakyDisk();
          const options = { path, openSegment: disk.openSegment, compaction: { minBytes: 0, ratio: 0 }, log: () => undefined };
          let store = await createJsonFileStore(options);
          const model = new Map<string, Thing>();
          const all: Query = { value: 'g', order: 'asc', limit: undefined, after: undefined, evenOnly: false, prefix: undefined };
          try {
            for (const round of rounds) {
              disk.faults.push(...round.faults);
              // Concurrent writes: they commit in this order, and share appends.
              const outcomes = await Promise.allSettled(round.writes.map((changes) => write(store, changes)));
              round.writes.forEach((changes, i) => {
                if (outcomes[i].status === 'fulfilled') for (const c of changes) applyTo(model, c);
              });
              disk.faults.length = 0;
              for (const group of GROUPS) {
                expect(await store.read((tx) => observe(tx, { ...all, value: group }))).toEqual(expected(model, { ...all, value: group }));
              }
            }
            await store.close();
            store = await createJsonFileStore({ path, log: () => undefined });
            for (const group of GROUPS) {
              expect(await store.read((tx) => observe(tx, { ...all, value: group }))).toEqual(expected(model, { ...all, value: group }));
            }
          } finally {
            await store.close();
          }
        },
      ),
      { numRuns: runs(40) },
    );
  });
});
