import { afterEach, describe, expect, it } from 'vitest';
import { StoreConflictError, type IndexDefinition, type ListQuery, type Store, type StoreSchema, type StoredRecord } from '../../src/store/types.js';

/** How a store under test is made; `reopen` (optional) closes it and opens the same data again. */
export interface StoreFactory {
  name: string;
  create(): Promise<Store>;
  reopen?(store: Store): Promise<Store>;
}

const byGroup: IndexDefinition = { by: 'group', order: ['rank'] };
const bySeen: IndexDefinition = { by: 'group', order: ['seenAt'] };
const byName: IndexDefinition = { by: 'group', order: [] };
/** An index of the whole table: one group, listed with value null. */
const everyThing: IndexDefinition = { order: ['rank'] };

/** The tables and indexes the contract uses: a store that needs them declared opens with this. */
export const CONTRACT_SCHEMA: StoreSchema = { things: [byGroup, bySeen, byName, everyThing], counters: [] };

const record = (id: string, group: string, rank: number | string, extra: Record<string, unknown> = {}): StoredRecord => ({ id, group, rank, ...extra });

/**
 * The contract every Store implementation keeps: one suite, run against each store by a few-line test
 * file. A fresh store per test, from the factory.
 */
export function runStoreContract(factory: StoreFactory): void {
  describe(`Store contract: ${factory.name}`, () => {
    let store: Store;
    const open = async () => (store = await factory.create());
    afterEach(async () => {
      await store?.close().catch(() => undefined);
    });

    it('returns undefined for an absent record and the record once inserted', async () => {
      await open();
      expect(await store.read((tx) => tx.get('things', 'a'))).toBeUndefined();
      await store.write((tx) => tx.insert('things', record('a', 'g', 1)));
      expect(await store.read((tx) => tx.get('things', 'a'))).toEqual(record('a', 'g', 1));
    });

    it('refuses to insert an id twice, and rolls the whole transaction back', async () => {
      await open();
      await store.write((tx) => tx.insert('things', record('a', 'g', 1)));
      await expect(
        store.write(async (tx) => {
          await tx.insert('things', record('b', 'g', 2));
          await tx.insert('things', record('a', 'g', 3));
        }),
      ).rejects.toBeInstanceOf(StoreConflictError);
      expect(await store.read((tx) => tx.get('things', 'b'))).toBeUndefined();
      expect(await store.read((tx) => tx.get('things', 'a'))).toEqual(record('a', 'g', 1));
    });

    it('applies nothing of a transaction whose function throws', async () => {
      await open();
      await store.write((tx) => tx.put('things', record('a', 'g', 1)));
      await expect(
        store.write(async (tx) => {
          await tx.put('things', record('a', 'g', 99));
          await tx.delete('things', 'a');
          await tx.put('things', record('c', 'g', 3));
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await store.read((tx) => tx.get('things', 'a'))).toEqual(record('a', 'g', 1));
      expect(await store.read((tx) => tx.list('things', { index: byGroup, value: 'g' }))).toMatchObject({ count: 1 });
    });

    it('puts (insert or replace) and deletes, reporting whether a record was there', async () => {
      await open();
      await store.write((tx) => tx.put('things', record('a', 'g', 1)));
      await store.write((tx) => tx.put('things', record('a', 'g', 2)));
      expect(await store.read((tx) => tx.get('things', 'a'))).toEqual(record('a', 'g', 2));
      expect(await store.write((tx) => tx.delete('things', 'a'))).toBe(true);
      expect(await store.write((tx) => tx.delete('things', 'a'))).toBe(false);
      expect(await store.read((tx) => tx.get('things', 'a'))).toBeUndefined();
    });

    it('gets many records at once: in the order asked, undefined where there is none, as a get of each', async () => {
      await open();
      await store.write(async (tx) => {
        for (const id of ['a', 'b', 'c']) await tx.put('things', record(id, 'g', 1));
      });
      const asked = ['c', 'x', 'a', 'c'];
      const [many, each, none] = await store.read(async (tx) => [await tx.getMany('things', asked), await Promise.all(asked.map((id) => tx.get('things', id))), await tx.getMany('things', [])]);
      expect(many).toEqual([record('c', 'g', 1), undefined, record('a', 'g', 1), record('c', 'g', 1)]);
      expect(many).toEqual(each);
      expect(none).toEqual([]);
      // A write transaction's own writes, a deletion included.
      const seen = await store.write(async (tx) => {
        await tx.delete('things', 'a');
        await tx.put('things', record('x', 'g', 2));
        return tx.getMany('things', asked);
      });
      expect(seen).toEqual([record('c', 'g', 1), record('x', 'g', 2), undefined, record('c', 'g', 1)]);
    });

    it('lets a write transaction read its own writes, in get and in list', async () => {
      await open();
      await store.write((tx) => tx.put('things', record('a', 'g', 5)));
      const seen = await store.write(async (tx) => {
        await tx.put('things', record('b', 'g', 1));
        await tx.delete('things', 'a');
        await tx.put('things', record('c', 'g', 3));
        const list = await tx.list('things', { index: byGroup, value: 'g' });
        return { b: await tx.get('things', 'b'), a: await tx.get('things', 'a'), ids: list.items.map((r) => r.id), count: list.count };
      });
      expect(seen).toEqual({ b: record('b', 'g', 1), a: undefined, ids: ['b', 'c'], count: 2 });
    });

    it('loses no update of concurrent read-modify-writes of one record', async () => {
      await open();
      await store.write((tx) => tx.put('counters', { id: 'n', value: 0 }));
      await Promise.all(
        Array.from({ length: 50 }, () =>
          store.write(async (tx) => {
            const current = (await tx.get('counters', 'n')) as { value: number } & StoredRecord;
            await Promise.resolve();
            await tx.put('counters', { id: 'n', value: current.value + 1 });
          }),
        ),
      );
      expect(await store.read((tx) => tx.get('counters', 'n'))).toEqual({ id: 'n', value: 50 });
    });

    describe('16 concurrent writers in one place', () => {
      const WRITERS = 16;
      const all = <T>(write: (writer: number) => Promise<T>) => Promise.all(Array.from({ length: WRITERS }, (_, writer) => write(writer)));
      const ranksOf = async (group: string) =>
        (await store.read((tx) => tx.list('things', { index: byGroup, value: group }))).items.map((thing) => thing.rank as number);

      it('draw distinct numbers above the floor, each kept by its record, and a rolled-back draw is never given again', async () => {
        await open();
        await expect(store.write(async (tx) => Promise.reject(new Error(`drew ${await tx.nextNumber('c', 5)}`)))).rejects.toThrow('drew 6');
        const numbers = await all((writer) =>
          store.write(async (tx) => {
            const number = await tx.nextNumber('c', 5);
            await tx.insert('things', record(`w${writer}`, 'g', number));
            return number;
          }),
        );
        expect(new Set(numbers).size).toBe(WRITERS);
        expect(Math.min(...numbers)).toBeGreaterThan(6);
        expect((await ranksOf('g')).sort((a, b) => a - b)).toEqual([...numbers].sort((a, b) => a - b));
        // Another counter starts from its own floor.
        expect(await store.write((tx) => tx.nextNumber('other', 0))).toBe(1);
      });

      it('queue on an exclusive scope: each sees the one before it, taking the lock first or after a read', async () => {
        await open();
        const appendAfterLast = (writer: number) =>
          store.write(async (tx) => {
            // Half of them read before they lock: a store may run them again, locked first.
            if (writer % 2 === 1) await tx.get('things', 'absent');
            await tx.lock('scope:g', 'exclusive');
            const { items } = await tx.list('things', { index: byGroup, value: 'g', order: 'desc', limit: 1 });
            await tx.insert('things', record(`w${writer}`, 'g', ((items[0]?.rank as number | undefined) ?? 0) + 1));
          });
        await all(appendAfterLast);
        expect(await ranksOf('g')).toEqual(Array.from({ length: WRITERS }, (_, at) => at + 1));
      });

      it('queue on a scope declared when the write starts, without locking it themselves: each sees the one before it', async () => {
        await open();
        const appendAfterLast = (writer: number) =>
          store.write(
            async (tx) => {
              // Half of them read something else first: the declared scope is held from the start all the same.
              if (writer % 2 === 1) await tx.get('things', 'absent');
              const { items } = await tx.list('things', { index: byGroup, value: 'g', order: 'desc', limit: 1 });
              await tx.insert('things', record(`w${writer}`, 'g', ((items[0]?.rank as number | undefined) ?? 0) + 1));
            },
            { locks: [{ scope: 'scope:g', mode: 'exclusive' }] },
          );
        await all(appendAfterLast);
        expect(await ranksOf('g')).toEqual(Array.from({ length: WRITERS }, (_, at) => at + 1));
      });

      it('run together on a shared scope, losing no write, and an exclusive holder after them sees them all', async () => {
        await open();
        await all((writer) =>
          store.write(async (tx) => {
            await tx.lock('scope:g', 'shared');
            await tx.insert('things', record(`w${writer}`, 'g', writer));
          }),
        );
        const seen = await store.write(async (tx) => {
          await tx.lock('scope:g', 'exclusive');
          return (await tx.list('things', { index: byGroup, value: 'g', limit: 0 })).count;
        });
        expect(seen).toBe(WRITERS);
      });

      it('add to one group and change one record without losing a write or a count', async () => {
        await open();
        await store.write((tx) => tx.put('counters', { id: 'n', value: 0 }));
        await all((writer) =>
          store.write(async (tx) => {
            await tx.insert('things', record(`w${writer}`, 'g', writer));
            const current = (await tx.get('counters', 'n')) as { value: number } & StoredRecord;
            await tx.put('counters', { id: 'n', value: current.value + 1 });
          }),
        );
        const { count, items } = await store.read((tx) => tx.list('things', { index: byGroup, value: 'g' }));
        expect({ count, length: items.length }).toEqual({ count: WRITERS, length: WRITERS });
        expect(await store.read((tx) => tx.get('counters', 'n'))).toEqual({ id: 'n', value: WRITERS });
      });

      it('insert the same new id after finding it absent: one inserts it, the others see it', async () => {
        await open();
        const created = await all(() =>
          store.write(async (tx) => {
            if (await tx.get('things', 'one')) return false;
            await tx.insert('things', record('one', 'g', 1));
            return true;
          }),
        );
        expect(created.filter(Boolean)).toHaveLength(1);
      });
    });

    it('never shows a read the uncommitted changes of a write in progress', async () => {
      await open();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const writing = store.write(async (tx) => {
        await tx.put('things', record('a', 'g', 1));
        await gate;
      });
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await store.read((tx) => tx.get('things', 'a'))).toBeUndefined();
      release();
      await writing;
      expect(await store.read((tx) => tx.get('things', 'a'))).toEqual(record('a', 'g', 1));
    });

    it('shows a read transaction one state from start to end, while writes commit in between', async () => {
      await open();
      await store.write(async (tx) => {
        for (const [id, rank] of [['a', 1], ['b', 2], ['c', 3]] as const) await tx.put('things', record(id, 'g', rank));
      });
      const view = async (tx: Parameters<Parameters<Store['read']>[0]>[0]) => ({
        a: await tx.get('things', 'a'),
        d: await tx.get('things', 'd'),
        many: await tx.getMany('things', ['d', 'a', 'c']),
        all: (await tx.list('things', { index: byGroup, value: 'g' })).items.map((r) => r.id),
        page: await tx.list('things', { index: byGroup, value: 'g', order: 'desc', limit: 2, after: [3, 'c'] }),
        even: (await tx.list('things', { index: byGroup, value: 'g', where: (r) => (r.rank as number) % 2 === 0 })).count,
      });
      const [first, second, after] = await store.read(async (tx) => {
        const before = await view(tx);
        // Commits while the read is open: a change, a move within the group, an insert and a delete.
        await store.write(async (w) => {
          await w.put('things', record('a', 'g', 4));
          await w.put('things', record('d', 'g', 0));
          await w.delete('things', 'c');
          await w.put('things', record('b', 'h', 2));
        });
        const again = await view(tx);
        return [before, again, await store.read(view)];
      });
      expect(second).toEqual(first);
      expect(first).toEqual({ a: record('a', 'g', 1), d: undefined, many: [undefined, record('a', 'g', 1), record('c', 'g', 3)], all: ['a', 'b', 'c'], page: { items: [record('b', 'g', 2), record('a', 'g', 1)], count: 3 }, even: 1 });
      expect(after).toEqual({ a: record('a', 'g', 4), d: record('d', 'g', 0), many: [record('d', 'g', 0), record('a', 'g', 4), undefined], all: ['d', 'a'], page: { items: [record('d', 'g', 0)], count: 2 }, even: 2 });
    });

    it('hands out frozen records that cannot be changed behind its back', async () => {
      await open();
      const nested = { id: 'a', group: 'g', rank: 1, tags: ['x'] };
      await store.write((tx) => tx.put('things', nested));
      const got = (await store.read((tx) => tx.get('things', 'a'))) as typeof nested;
      expect(() => {
        got.tags.push('y');
      }).toThrow();
      expect(await store.read((tx) => tx.get('things', 'a'))).toEqual({ id: 'a', group: 'g', rank: 1, tags: ['x'] });
    });

    it('lists one group in sort-key order, ties broken by id, in both directions, with its count', async () => {
      await open();
      await store.write(async (tx) => {
        for (const [id, group, rank] of [['d', 'g', 2], ['b', 'g', 1], ['a', 'g', 2], ['c', 'h', 0], ['e', 'g', 3]] as const) {
          await tx.put('things', record(id, group, rank));
        }
      });
      const asc = await store.read((tx) => tx.list('things', { index: byGroup, value: 'g' }));
      expect(asc.items.map((r) => r.id)).toEqual(['b', 'a', 'd', 'e']);
      expect(asc.count).toBe(4);
      const desc = await store.read((tx) => tx.list('things', { index: byGroup, value: 'g', order: 'desc' }));
      expect(desc.items.map((r) => r.id)).toEqual(['e', 'd', 'a', 'b']);
      const none = await store.read((tx) => tx.list('things', { index: byGroup, value: 'nothing' }));
      expect(none).toEqual({ items: [], count: 0 });
    });

    it('orders mixed scalars as the interface says: null, false, true, numbers, strings by code unit, ties by id', async () => {
      await open();
      // The emoji is a surrogate pair (0xD83D ...), which sorts before U+E000 by code unit though not by code point.
      const ranks: [string, unknown][] = [
        ['s1', 'b'], ['s2', '\uE000'], ['s3', '\u{1F600}'], ['s4', ''], ['s5', 'B'], ['s6', 'a\u0000b'], ['s7', 'a'],
        ['n1', 10], ['n2', -1.5], ['n3', 2], ['n4', -0], ['n5', 0], ['n6', 1e-300], ['n7', -1e300],
        ['b1', true], ['b2', false], ['z2', null], ['z1', null],
      ];
      await store.write(async (tx) => {
        for (const [id, rank] of ranks) await tx.put('things', { id, group: 'mixed', rank });
      });
      const expected = ['z1', 'z2', 'b2', 'b1', 'n7', 'n2', 'n4', 'n5', 'n6', 'n3', 'n1', 's4', 's5', 's7', 's6', 's1', 's3', 's2'];
      const asc = await store.read((tx) => tx.list('things', { index: byGroup, value: 'mixed' }));
      expect(asc.items.map((r) => r.id)).toEqual(expected);
      const desc = await store.read((tx) => tx.list('things', { index: byGroup, value: 'mixed', order: 'desc', after: [0, 'n5'], limit: 3 }));
      expect(desc.items.map((r) => r.id)).toEqual(['n4', 'n2', 'n7']);
      const fromTrue = await store.read((tx) => tx.list('things', { index: byGroup, value: 'mixed', after: [true, 'b1'], limit: 2 }));
      expect(fromTrue.items.map((r) => r.id)).toEqual(['n7', 'n2']);
      // A key cut short sorts before every key it begins: after [0] come the keys of rank 0, then greater ones.
      const afterPrefix = await store.read((tx) => tx.list('things', { index: byGroup, value: 'mixed', after: [0], limit: 3 }));
      expect(afterPrefix.items.map((r) => r.id)).toEqual(['n4', 'n5', 'n6']);
      // Groups of other types, and an index ordered by nothing but the id.
      await store.write(async (tx) => {
        await tx.put('things', { id: 'g1', group: 7, rank: 1 });
        await tx.put('things', { id: 'g2', group: '7', rank: 1 });
        await tx.put('things', { id: 'g3', group: null, rank: 1 });
      });
      expect((await store.read((tx) => tx.list('things', { index: byGroup, value: 7 }))).items.map((r) => r.id)).toEqual(['g1']);
      expect((await store.read((tx) => tx.list('things', { index: byGroup, value: null }))).items.map((r) => r.id)).toEqual(['g3']);
      const byId = await store.read((tx) => tx.list('things', { index: byName, value: 'mixed', after: ['s5'] }));
      expect(byId.items.map((r) => r.id)).toEqual(['s6', 's7', 'z1', 'z2']);
      expect(byId.count).toBe(18);
    });

    it('pages with a keyset cursor and a limit; count ignores both; limit 0 only counts', async () => {
      await open();
      await store.write(async (tx) => {
        for (let i = 0; i < 10; i++) await tx.put('things', record(`r${i}`, 'g', i % 3));
      });
      const first = await store.read((tx) => tx.list('things', { index: byGroup, value: 'g', limit: 4 }));
      expect(first.count).toBe(10);
      expect(first.items).toHaveLength(4);
      const last = first.items[3];
      const rest = await store.read((tx) => tx.list('things', { index: byGroup, value: 'g', after: [last.rank as number, last.id] }));
      expect([...first.items, ...rest.items].map((r) => r.id).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `r${i}`).sort());
      expect(rest.count).toBe(10);
      const descAfter = await store.read((tx) => tx.list('things', { index: byGroup, value: 'g', order: 'desc', after: [1, 'r4'] }));
      expect(descAfter.items.map((r) => r.id)).toEqual(['r1', 'r9', 'r6', 'r3', 'r0']);
      expect(await store.read((tx) => tx.list('things', { index: byGroup, value: 'g', limit: 0 }))).toEqual({ items: [], count: 10 });
    });

    it('lists the range of a prefix: its records only, counted, paged both ways, filtered, and in a write transaction', async () => {
      await open();
      await store.write(async (tx) => {
        for (let i = 0; i < 12; i++) await tx.put('things', record(`r${String(i).padStart(2, '0')}`, 'g', i % 3, { even: i % 2 === 0 }));
        await tx.put('things', record('s', 'g', '1'));
      });
      const ones = (query: Partial<ListQuery> = {}) => store.read((tx) => tx.list('things', { index: byGroup, value: 'g', prefix: [1], ...query }));
      expect(await ones()).toMatchObject({ count: 4, items: ['r01', 'r04', 'r07', 'r10'].map((id) => ({ id })) });
      expect((await ones({ order: 'desc', after: [1, 'r07'], limit: 5 })).items.map((r) => r.id)).toEqual(['r04', 'r01']);
      expect((await ones({ after: [1, 'r01'], limit: 2 })).items.map((r) => r.id)).toEqual(['r04', 'r07']);
      expect(await ones({ limit: 0 })).toEqual({ items: [], count: 4 });
      expect(await ones({ where: (r) => r.even === true })).toMatchObject({ count: 2, items: [{ id: 'r04' }, { id: 'r10' }] });
      expect((await ones({ prefix: [1, 'r07'] })).items.map((r) => r.id)).toEqual(['r07']);
      expect((await ones({ prefix: ['1'] })).items.map((r) => r.id)).toEqual(['s']);
      expect(await ones({ prefix: [9] })).toEqual({ items: [], count: 0 });
      const inWrite = await store.write(async (tx) => {
        await tx.put('things', record('r04', 'g', 2));
        await tx.put('things', record('r99', 'g', 1));
        await tx.delete('things', 'r10');
        return tx.list('things', { index: byGroup, value: 'g', prefix: [1] });
      });
      expect(inWrite).toMatchObject({ count: 3, items: [{ id: 'r01' }, { id: 'r07' }, { id: 'r99' }] });
    });

    it('filters with where: count is the number of matches, and the cursor still applies', async () => {
      await open();
      await store.write(async (tx) => {
        for (let i = 0; i < 10; i++) await tx.put('things', record(`r${i}`, 'g', i, { even: i % 2 === 0 }));
      });
      const where = (r: StoredRecord) => r.even === true;
      const page = await store.read((tx) => tx.list('things', { index: byGroup, value: 'g', where, limit: 2, after: [2, 'r2'] }));
      expect(page.items.map((r) => r.id)).toEqual(['r4', 'r6']);
      expect(page.count).toBe(5);
    });

    it('leaves records without the order fields out of an index, and keeps indexes up to date', async () => {
      await open();
      await store.write(async (tx) => {
        await tx.put('things', record('a', 'g', 1));
        await tx.put('things', record('b', 'g', 2, { seenAt: '2026-01-02' }));
      });
      const seen = () => store.read((tx) => tx.list('things', { index: bySeen, value: 'g' }));
      expect((await seen()).items.map((r) => r.id)).toEqual(['b']);
      await store.write((tx) => tx.put('things', record('a', 'g', 1, { seenAt: '2026-01-01' })));
      expect((await seen()).items.map((r) => r.id)).toEqual(['a', 'b']);
      await store.write((tx) => tx.put('things', record('a', 'h', 1, { seenAt: '2026-01-01' })));
      expect((await seen()).items.map((r) => r.id)).toEqual(['b']);
      await store.write((tx) => tx.delete('things', 'b'));
      expect(await seen()).toEqual({ items: [], count: 0 });
    });

    it('lists a whole table in one group with an index that has no `by`, kept up to date, paged and counted', async () => {
      await open();
      await store.write(async (tx) => {
        await tx.put('things', record('a', 'g', 2));
        await tx.put('things', record('b', 'h', 1));
        await tx.put('things', record('c', 'i', 3));
        await tx.put('things', { id: 'd', group: 'g' });
      });
      const all = (query: Partial<ListQuery> = {}) => store.read((tx) => tx.list('things', { index: everyThing, value: null, ...query }));
      expect(await all()).toMatchObject({ items: [{ id: 'b' }, { id: 'a' }, { id: 'c' }], count: 3 });
      expect((await all({ limit: 1, after: [1, 'b'] })).items.map((r) => r.id)).toEqual(['a']);
      await store.write(async (tx) => {
        await tx.delete('things', 'a');
        await tx.put('things', record('d', 'g', 0));
      });
      expect(await all()).toMatchObject({ items: [{ id: 'd' }, { id: 'b' }, { id: 'c' }], count: 3 });
      expect((await store.read((tx) => tx.list('things', { index: everyThing, value: 'g' }))).count).toBe(0);
    });

    it('rejects every call once closed', async () => {
      await open();
      await store.close();
      await expect(store.read((tx) => tx.get('things', 'a'))).rejects.toThrow(/closed/);
      await expect(store.write((tx) => tx.put('things', record('a', 'g', 1)))).rejects.toThrow(/closed/);
      await expect(store.ready()).rejects.toThrow(/closed/);
    });

    it('is ready while open and taking writes, and ready() changes nothing', async () => {
      await open();
      await expect(store.ready()).resolves.toBeUndefined();
      await store.write((tx) => tx.put('things', record('a', 'g', 1)));
      await expect(store.ready()).resolves.toBeUndefined();
      expect(await store.read((tx) => tx.list('things', { index: byGroup, value: 'g' }))).toMatchObject({ count: 1 });
    });

    if (factory.reopen) {
      const reopen = factory.reopen;
      it('keeps every acknowledged write across a reopen', async () => {
        await open();
        await Promise.all(Array.from({ length: 30 }, (_, i) => store.write((tx) => tx.put('things', record(`r${i}`, 'g', i)))));
        await store.write((tx) => tx.delete('things', 'r3'));
        store = await reopen(store);
        const all = await store.read((tx) => tx.list('things', { index: byGroup, value: 'g' }));
        expect(all.count).toBe(29);
        expect(await store.read((tx) => tx.get('things', 'r3'))).toBeUndefined();
      });
    }
  });
}
