import { afterAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/adapters/node-http/metrics.js';
import { SnapshotCache } from '../../src/store/postgres/snapshot-cache.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/store.js';
import { cheapest, countingPool } from './counting-pool.js';
import { dropSchemas, freshSchema, postgresAvailable, skipReason, TEST_DATABASE_URL } from './database.js';

const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));

const byGroup = { by: 'group', order: ['rank'] };
const TABLES = { things: [byGroup] };

/** Two stores on one schema, as two server processes on one database; the first counts its statements. */
async function twoProcesses(readCacheSize?: number): Promise<{ reader: PostgresStore; writer: PostgresStore; statements: () => number; close(): Promise<void> }> {
  const schema = freshSchema('cache');
  schemas.push(schema);
  const counted = countingPool();
  const reader = await openPostgresStore({ pool: counted.pool, schema, tables: TABLES, readCacheSize, log: () => undefined });
  const writer = await openPostgresStore({ connectionString: TEST_DATABASE_URL, schema, tables: TABLES, log: () => undefined });
  return {
    reader,
    writer,
    statements: counted.statements,
    async close() {
      await reader.close();
      await writer.close();
      await counted.pool.end();
    },
  };
}

const readAll = (store: PostgresStore) =>
  store.read(async (tx) => {
    const [one, page] = await Promise.all([tx.get('things', 'a'), tx.list('things', { index: byGroup, value: 'g', limit: 10 })]);
    return { rank: one?.rank, ids: page.items.map((item) => item.id), count: page.count };
  });

describe.skipIf(!postgresAvailable)(`PostgreSQL snapshot cache${postgresAvailable ? '' : ` (skipped: ${skipReason})`}`, () => {
  it('answers a read again under the same snapshot with one statement, and sees at once every write another process acknowledged', async () => {
    const { reader, writer, statements, close } = await twoProcesses();
    try {
      await writer.write((tx) => tx.put('things', { id: 'a', group: 'g', rank: 0 }));
      for (let i = 1; i <= 30; i++) {
        // Nothing committed since (by this test): the snapshot is the cache's, the answer the same, one statement.
        expect(await readAll(reader)).toMatchObject({ rank: i - 1 });
        expect(await cheapest(statements, () => readAll(reader))).toBe(1);
        // Acknowledged by another process: the very next read sees it, the page and the count too.
        await writer.write(async (tx) => {
          await tx.put('things', { id: 'a', group: 'g', rank: i });
          await tx.put('things', { id: `b${i}`, group: 'g', rank: -i });
        });
        const seen = await readAll(reader);
        expect(seen.rank).toBe(i);
        expect(seen.count).toBe(i + 1);
        expect(seen.ids[0]).toBe(`b${i}`);
      }
    } finally {
      await close();
    }
  });

  it('reads what the cache does not hold from the database, in a transaction of the same state', async () => {
    const { reader, writer, statements, close } = await twoProcesses();
    try {
      await writer.write(async (tx) => {
        await tx.put('things', { id: 'a', group: 'g', rank: 1 });
        await tx.put('things', { id: 'b', group: 'g', rank: 2 });
      });
      expect(await reader.read((tx) => tx.get('things', 'a'))).toMatchObject({ rank: 1 });
      // `a` is kept, `b` is not: the read runs again in a transaction and answers both from one state.
      const both = await reader.read(async (tx) => [await tx.get('things', 'a'), await tx.get('things', 'b'), await tx.get('things', 'none')]);
      expect(both.map((record) => record?.rank)).toEqual([1, 2, undefined]);
      // An absent record is an answer the cache keeps too.
      expect(await reader.read((tx) => tx.get('things', 'none'))).toBeUndefined();
      // Many at once: from the cache alone while it holds every one (the snapshot's one statement), else read again in a transaction.
      const many = (ids: string[]) => reader.read(async (tx) => (await tx.getMany('things', ids)).map((record) => record?.rank));
      expect(await many(['b', 'none', 'a'])).toEqual([2, undefined, 1]);
      expect(await cheapest(statements, () => many(['b', 'none', 'a']))).toBe(1);
      expect(await many(['a', 'never-read'])).toEqual([1, undefined]);
      await writer.write((tx) => tx.put('things', { id: 'c', group: 'g', rank: 3 }));
      expect(await many(['a', 'c'])).toEqual([1, 3]);
    } finally {
      await close();
    }
  });

  it('answers a filtered list from its whole group, kept once, with the filter, cursor and limit applied again', async () => {
    const { reader, writer, statements, close } = await twoProcesses();
    try {
      await writer.write(async (tx) => {
        for (let i = 0; i < 10; i++) await tx.put('things', { id: `t${i}`, group: 'g', rank: i, even: i % 2 === 0 });
      });
      const even = (after?: number) =>
        reader.read((tx) => tx.list('things', { index: byGroup, value: 'g', where: (record) => record.even === true, after: after === undefined ? undefined : [after, `t${after}`], limit: 2 }));
      const odd = () => reader.read((tx) => tx.list('things', { index: byGroup, value: 'g', where: (record) => record.even === false, limit: 10 }));
      expect(await even()).toMatchObject({ count: 5, items: [{ id: 't0' }, { id: 't2' }] });
      expect(await even(2)).toMatchObject({ count: 5, items: [{ id: 't4' }, { id: 't6' }] });
      expect((await odd()).items.map((item) => item.id)).toEqual(['t1', 't3', 't5', 't7', 't9']);
      // Each answered from the group kept once: one statement each.
      expect(await cheapest(statements, async () => [await even(2), await odd()])).toBe(2);
    } finally {
      await close();
    }
  });

  it('counts its reads by how they were answered, as the metrics report', async () => {
    const { reader, writer, close } = await twoProcesses();
    try {
      const metrics = createMetrics();
      const store = metrics.instrument(reader);
      await writer.write((tx) => tx.put('things', { id: 'a', group: 'g', rank: 1 }));
      for (let i = 0; i < 5; i++) await readAll(store);
      const { readsFromCache = 0, readsInTransaction = 0 } = reader.figures();
      expect(readsFromCache + readsInTransaction).toBe(5);
      expect(readsFromCache).toBeGreaterThan(0);
      expect(readsInTransaction).toBeGreaterThan(0);
      const text = await metrics.registry.metrics();
      expect(text).toContain(`docs_platform_store_reads_total{answered="cache"} ${readsFromCache}`);
      expect(text).toContain(`docs_platform_store_reads_total{answered="transaction"} ${readsInTransaction}`);
    } finally {
      await close();
    }
  });

  it('asks the database every time with readCacheSize 0', async () => {
    const { reader, writer, statements, close } = await twoProcesses(0);
    try {
      await writer.write((tx) => tx.put('things', { id: 'a', group: 'g', rank: 1 }));
      await readAll(reader);
      const before = statements();
      await readAll(reader);
      // BEGIN, the batch, COMMIT.
      expect(statements() - before).toBe(3);
    } finally {
      await close();
    }
  });

  it('hands each reader its own array of a list, so that one cannot change what the next is answered', async () => {
    const { reader, writer, close } = await twoProcesses();
    try {
      await writer.write((tx) => tx.put('things', { id: 'a', group: 'g', rank: 1 }));
      const list = () => reader.read((tx) => tx.list('things', { index: byGroup, value: 'g' }));
      (await list()).items.length = 0;
      (await list()).items.push({ id: 'x' });
      expect((await list()).items.map((item) => item.id)).toEqual(['a']);
    } finally {
      await close();
    }
  });
});

describe('PostgreSQL snapshot cache: what it keeps', () => {
  const record = (id: string) => ({ id, group: 'g', rank: 1 });

  it('answers only under the snapshot it was filled under, and a newer snapshot starts it over', () => {
    const cache = new SnapshotCache(100);
    cache.view('10:12:10')!.keepGet('things', 'a', record('a'));
    expect(cache.view('10:12:10')!.get('things', 'a')).toEqual({ found: true, value: record('a') });
    // Transaction 10 ended: a newer snapshot, which drops what was kept.
    expect(cache.view('12:12:')!.get('things', 'a')).toEqual({ found: false });
    // A reader still on the older snapshot neither reads nor fills the newer one's entries.
    expect(cache.view('10:12:10')).toBeUndefined();
    expect(cache.snapshot).toBe('12:12:');
    cache.view('12:12:')!.keepGet('things', 'a', undefined);
    expect(cache.view('12:12:')!.get('things', 'a')).toEqual({ found: true, value: undefined });
  });

  it('forgets everything on clear() (an outage), even under the same snapshot, and a view from before neither answers nor keeps', () => {
    const cache = new SnapshotCache(100);
    const before = cache.view('10:12:')!;
    before.keepGet('things', 'a', record('a'));
    cache.clear();
    // The database that comes back may be another server whose snapshot prints the same.
    expect(cache.snapshot).toBeUndefined();
    const after = cache.view('10:12:')!;
    expect(after.get('things', 'a')).toEqual({ found: false });
    // A transaction that began before the outage, on the old server, still finishing.
    before.keepGet('things', 'b', record('b'));
    expect(before.get('things', 'a')).toEqual({ found: false });
    expect(after.get('things', 'b')).toEqual({ found: false });
    after.keepGet('things', 'b', record('b'));
    expect(after.get('things', 'b')).toEqual({ found: true, value: record('b') });
  });

  it('holds at most its capacity, a list weighing its items, dropping the oldest first', () => {
    const cache = new SnapshotCache(5);
    const view = cache.view('1:2:')!;
    const index = { by: 'group', order: ['rank'] };
    view.keepGet('things', 'a', record('a'));
    view.keepList('things', { index, value: 'g' }, [record('b'), record('c')], 2);
    view.keepGet('things', 'd', record('d'));
    expect(view.get('things', 'a').found).toBe(true);
    view.keepGet('things', 'e', record('e'));
    // 1 + 3 + 1 + 1 > 5: `a` went.
    expect(view.get('things', 'a').found).toBe(false);
    expect(view.list('things', { index, value: 'g' })?.count).toBe(2);
    // Heavier than the whole cache: not kept.
    view.keepList('things', { index, value: 'h' }, Array.from({ length: 9 }, (_, i) => record(`x${i}`)), 9);
    expect(view.list('things', { index, value: 'h' })).toBeUndefined();
    expect(new SnapshotCache(0).view('1:2:')).toBeUndefined();
  });
});
