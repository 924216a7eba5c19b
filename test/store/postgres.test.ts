import { createPostgresRateLimiter } from '../../src/store/postgres/rate-limiter.js';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresBlobStore } from '../../src/store/postgres/blobs.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { StoreUnavailableError, type Store } from '../../src/store/types.js';
import { dropSchemas, freshSchema, postgresAvailable, skipReason, TEST_DATABASE_URL } from '../postgres/database.js';
import { CONTRACT_SCHEMA, runStoreContract } from './contract.js';

const schemas: string[] = [];
const schemaOf = new WeakMap<Store, string>();
afterAll(() => dropSchemas(schemas));

const open = async (schema: string) => {
  const store = await openPostgresStore({ connectionString: TEST_DATABASE_URL, schema, tables: CONTRACT_SCHEMA, log: () => undefined });
  schemaOf.set(store, schema);
  return store;
};

type PostgresStore = Awaited<ReturnType<typeof open>>;

/** Two stores on one fresh schema, as two server processes on one database have; both closed after `use`. */
async function withTwoStores(name: string, use: (one: PostgresStore, two: PostgresStore, schema: string) => Promise<void>): Promise<void> {
  const schema = freshSchema(name);
  schemas.push(schema);
  const [one, two] = [await open(schema), await open(schema)];
  try {
    await use(one, two, schema);
  } finally {
    await one.close();
    await two.close();
  }
}

if (postgresAvailable) {
  runStoreContract({
    name: 'postgres',
    async create() {
      const schema = freshSchema('contract');
      schemas.push(schema);
      return open(schema);
    },
    async reopen(store) {
      await store.close();
      return open(schemaOf.get(store)!);
    },
  });
} else {
  describe.skip(`Store contract: postgres (skipped: ${skipReason})`, () => {
    it('runs the contract suite against PostgreSQL', () => undefined);
  });
}

describe.runIf(postgresAvailable)('PostgreSQL store: writers of two processes on one database', () => {
  it('queue on a scope, draw distinct numbers, and count their retries by reason; a late lock runs the write again, locked first', async () => {
    await withTwoStores('scopes', async (one, two, schema) => {
      const writes = await Promise.all(
        Array.from({ length: 16 }, (_, writer) =>
          (writer % 2 ? one : two).write(async (tx) => {
            if (writer % 4 < 2) await tx.get('things', 'absent');
            await tx.lock('scope:g', 'exclusive');
            const { items } = await tx.list('things', { index: CONTRACT_SCHEMA.things[0], value: 'g', order: 'desc', limit: 1 });
            const rank = ((items[0]?.rank as number | undefined) ?? 0) + 1;
            await tx.insert('things', { id: `w${writer}`, group: 'g', rank, number: await tx.nextNumber('n', 0) });
            return rank;
          }),
        ),
      );
      expect(writes.sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, at) => at + 1));
      const numbers = (await one.read((tx) => tx.list('things', { index: CONTRACT_SCHEMA.things[0], value: 'g' }))).items.map((thing) => thing.number);
      expect(new Set(numbers).size).toBe(16);
      // The eight that read before they locked ran again, each once at least.
      const late = (one.figures().writeRetries?.['late-lock'] ?? 0) + (two.figures().writeRetries?.['late-lock'] ?? 0);
      expect(late).toBeGreaterThanOrEqual(8);
      // A number outlives the store: the next one is drawn above it, even with a lower floor.
      await one.close();
      const again = await open(schema);
      expect(await again.write((tx) => tx.nextNumber('n', 0))).toBe(17);
      await again.close();
    });
  });
});

describe.runIf(postgresAvailable)('PostgreSQL store: a put after a concurrent delete', () => {
  it('does not bring the record back: the write runs again and finds it gone, with or without indexes', async () => {
    await withTwoStores('resurrect', async (one, two) => {
      for (const table of ['things', 'counters']) {
        await one.write((tx) => tx.insert(table, { id: 'a', group: 'g', rank: 1 }));
        let attempts = 0;
        let deleted!: () => void;
        let read!: () => void;
        const gone = new Promise<void>((resolve) => (deleted = resolve));
        const hasRead = new Promise<void>((resolve) => (read = resolve));
        const putting = one.write(async (tx) => {
          attempts++;
          const found = await tx.get(table, 'a');
          // The first attempt has read it, in its snapshot: the other process deletes it and commits.
          if (attempts === 1) {
            read();
            await gone;
          }
          if (found) await tx.put(table, { ...found, rank: 2 });
          return found !== undefined;
        });
        await hasRead;
        await two.write((tx) => tx.delete(table, 'a'));
        deleted();
        expect(await putting, table).toBe(false);
        expect(attempts, table).toBe(2);
        expect(await two.read((tx) => tx.get(table, 'a')), table).toBeUndefined();
      }
      const counted = await one.read((tx) => tx.list('things', { index: CONTRACT_SCHEMA.things[0], value: 'g', limit: 0 }));
      expect(counted.count).toBe(0);
    });
  });
});

describe.runIf(postgresAvailable)('PostgreSQL store: scopes declared when a write starts', () => {
  it('are taken before its snapshot, with its first statement: no attempt runs again, though it locks them after a read', async () => {
    await withTwoStores('declared', async (one, two) => {
      const locks = [
        { scope: 'scope:g', mode: 'exclusive' as const },
        { scope: 'scope:other', mode: 'shared' as const },
      ];
      const ranks = await Promise.all(
        Array.from({ length: 16 }, (_, writer) =>
          (writer % 2 ? one : two).write(async (tx) => {
            await tx.get('things', 'absent');
            await tx.lock('scope:g', 'exclusive');
            await tx.lock('scope:other', 'shared');
            const { items } = await tx.list('things', { index: CONTRACT_SCHEMA.things[0], value: 'g', order: 'desc', limit: 1 });
            const rank = ((items[0]?.rank as number | undefined) ?? 0) + 1;
            await tx.insert('things', { id: `w${writer}`, group: 'g', rank });
            return rank;
          }, { locks }),
        ),
      );
      expect(ranks.sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, at) => at + 1));
      // Declared, the scopes were never asked for late (without the declaration every writer ran again: see above).
      expect((one.figures().writeRetries?.['late-lock'] ?? 0) + (two.figures().writeRetries?.['late-lock'] ?? 0)).toBe(0);
      // A scope locked before the first read besides the declared ones is taken before the snapshot too.
      await one.write(async (tx) => {
        await tx.lock('scope:more', 'exclusive');
        await tx.get('things', 'w1');
      }, { locks });
      expect(one.figures().writeRetries?.['late-lock'] ?? 0).toBe(0);
    });
  });
});

describe.runIf(postgresAvailable)('PostgreSQL store: a write that locks a new scope late on every attempt', () => {
  it('ends with StoreUnavailableError (a 503) after its attempts, instead of running again for ever', async () => {
    const schema = freshSchema('late');
    schemas.push(schema);
    const store = await openPostgresStore({ connectionString: TEST_DATABASE_URL, schema, tables: CONTRACT_SCHEMA, log: () => undefined, maxAttempts: 5 });
    try {
      let attempts = 0;
      const write = store.write(async (tx) => {
        await tx.get('things', 'absent');
        await tx.lock(`scope:${++attempts}`, 'exclusive');
      });
      await expect(write).rejects.toThrow(StoreUnavailableError);
      expect(attempts).toBe(5);
      expect(store.figures().writeRetries?.['late-lock']).toBe(4);
    } finally {
      await store.close();
    }
  });
});

describe.runIf(postgresAvailable)('PostgreSQL store: rate limits shared by every process', () => {
  it("counts the units of two stores (two processes) on one database together: its own at once, the other's once sent, and each window afresh", async () => {
    await withTwoStores('rates', async (one, two) => {
      const window = 1_800_000_000_000;
      const costs = Array.from({ length: 40 }, (_, i) => 1 + (i % 3));
      const total = costs.reduce((a, b) => a + b, 0);
      const spent = await Promise.all(costs.map((cost, i) => (i % 2 ? one : two).rateLimiter.take('token:abc', cost, window)));
      // Each process counted each of its own additions: the last count it answered holds all it spent.
      for (const parity of [0, 1]) {
        const own = costs.filter((_, i) => i % 2 === parity).reduce((a, b) => a + b, 0);
        expect(Math.max(...spent.filter((_, i) => i % 2 === parity))).toBeGreaterThanOrEqual(own);
      }
      expect(Math.max(...spent)).toBeLessThanOrEqual(total);
      // Once both sent what they counted, each learns the other's with its next statement.
      await one.rateLimiter.settle();
      await two.rateLimiter.settle();
      await one.rateLimiter.take('token:abc', 1, window);
      await one.rateLimiter.settle();
      expect(await one.rateLimiter.take('token:abc', 1, window)).toBe(total + 2);
      await one.rateLimiter.settle();
      expect(await two.rateLimiter.take('token:abc', 1, window)).toBeLessThan(total + 3);
      await two.rateLimiter.settle();
      expect(await two.rateLimiter.take('token:abc', 1, window)).toBe(total + 4);
      expect(await two.rateLimiter.take('token:other', 5, window)).toBe(5);
      expect(await one.rateLimiter.take('token:abc', 1, window + 60_000)).toBe(1);
      // A late call from the window before (in a process that has not met the new one yet, it still counts
      // in the old) does not set the shared count back.
      await two.rateLimiter.take('token:abc', 1, window);
      await two.rateLimiter.settle();
      expect(await one.rateLimiter.take('token:abc', 1, window + 60_000)).toBe(2);
      await one.rateLimiter.settle();
      expect(await two.rateLimiter.take('token:abc', 1, window + 60_000)).toBe(3);
    });
  });

  it("sends a key's units after its first request of a window in one statement a while later, not one a request", async () => {
    const schema = freshSchema('rates');
    schemas.push(schema);
    const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
    const store = await openPostgresStore({ pool, schema, tables: CONTRACT_SCHEMA, log: () => undefined });
    try {
      let statements = 0;
      const counted = createPostgresRateLimiter(
        { query: (...args: Parameters<pg.Pool['query']>) => (statements++, pool.query(...args)) } as unknown as pg.Pool,
        `"${schema}"."rate_limits"`,
      );
      const window = 1_800_000_000_000;
      expect(await counted.take('address:a', 1, window)).toBe(1);
      const first = statements;
      for (let i = 2; i <= 50; i++) expect(await counted.take('address:a', 1, window)).toBe(i);
      expect(await counted.take('address:b', 3, window)).toBe(3);
      expect(statements).toBe(first + 1);
      await counted.settle();
      expect(statements).toBe(first + 2);
      expect(await store.rateLimiter.take('address:a', 1, window)).toBe(51);
    } finally {
      await store.close();
      await pool.end();
    }
  });
});

describe.runIf(postgresAvailable)('PostgreSQL store: its schema', () => {
  const byRank = { by: 'group', order: ['rank'] };
  const byColor = { by: 'color', order: [] };

  it('adds an index declared later: its columns computed for the records there, its groups counted', async () => {
    const schema = freshSchema('migrate');
    schemas.push(schema);
    const options = { connectionString: TEST_DATABASE_URL, schema, log: () => undefined };
    const first = await openPostgresStore({ ...options, tables: { things: [byRank] } });
    await first.write(async (tx) => {
      for (let i = 0; i < 2500; i++) await tx.put('things', { id: `t${i}`, group: 'g', rank: i, color: i % 3 === 0 ? 'red' : 'blue' });
    });
    await first.close();
    const lines: string[] = [];
    const second = await openPostgresStore({ ...options, tables: { things: [byRank, byColor] }, log: (line) => lines.push(line) });
    expect(lines.join('\n')).toMatch(/index color\| of things created over 2500 records/);
    const red = await second.read((tx) => tx.list('things', { index: byColor, value: 'red', limit: 2 }));
    expect(red).toMatchObject({ count: 834, items: [{ id: 't0' }, { id: 't1002' }] });
    await second.write((tx) => tx.put('things', { id: 't1', group: 'g', rank: 1, color: 'red' }));
    expect((await second.read((tx) => tx.list('things', { index: byColor, value: 'red', limit: 0 }))).count).toBe(835);
    await second.close();
    // Opening again changes nothing.
    const third = await openPostgresStore({ ...options, tables: { things: [byRank, byColor] }, log: (line) => lines.push(line) });
    expect(lines).toHaveLength(1);
    await third.close();
  });
});

it('file bytes on a database that cannot be reached: StoreUnavailableError (a 503), as for records; rate limits count in memory', async () => {
  const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/test' });
  const blobs = createPostgresBlobStore(pool, 'blobs');
  try {
    await expect(blobs.put(new Uint8Array([1, 2, 3]))).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(blobs.get('a'.repeat(64))).rejects.toBeInstanceOf(StoreUnavailableError);
    // Rate-limit counts are kept in this process meanwhile, to be added once the database is back: the
    // request goes on, and meets the same 503.
    const limiter = createPostgresRateLimiter(pool, 'rate_limits');
    expect(await limiter.take('token:x', 1, 0)).toBe(1);
    expect(await limiter.take('token:x', 2, 0)).toBe(3);
  } finally {
    await pool.end();
  }
});
