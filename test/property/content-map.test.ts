import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NODE_ENTRIES, TreeMap, diffMaps, readMap, type MapRoot } from '../../src/core/content/btree.js';
import { TABLES } from '../../src/core/records.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { Store } from '../../src/store/types.js';
import { runs } from './runs.js';

/**
 * The persistent map under every revision (content/btree.ts) against a plain sorted Map: random runs of
 * sets and deletes, saved as "revisions" now and then, must read back the same entries, size, ranks,
 * positions and ranges from every saved root (old roots keep their content: nothing is changed in place),
 * and diffMaps between any two saved roots must be the model's difference. A change writes only the
 * nodes on its path: the nodes a save adds stay within the tree height per changed key. Small nodes (4, 8, 12
 * entries) make deep trees, so inner nodes split and merge too.
 */

const NUM_RUNS = runs(60);

type Op = { kind: 'set'; key: string; value: number } | { kind: 'delete'; key: string } | { kind: 'save' };

/** Keys from a range large enough to split nodes several times over (MAX_NODE_ENTRIES is 64). */
const key = fc.integer({ min: 0, max: 6 * MAX_NODE_ENTRIES }).map((n) => `k${String(n).padStart(4, '0')}`);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('set' as const), key, value: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), key }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'save' as const }) },
);

async function nodeCount(store: Store): Promise<number> {
  return store.read(async (tx) => {
    let count = 0;
    // Nodes have no index but by space: count through it.
    count = (await tx.list(TABLES.contentNodes, { index: { by: 'spaceId', order: [] }, value: 's', limit: 0 })).count;
    return count;
  });
}

async function entriesOf(store: Store, root: MapRoot, from?: string, to?: string): Promise<[string, unknown][]> {
  return store.read(async (tx) => {
    const out: [string, unknown][] = [];
    for await (const entry of readMap(tx, root).entries(from, to)) out.push(entry);
    return out;
  });
}

describe('the content map (persistent B+tree)', () => {
  it('reads back what a sorted Map holds, from every saved root, and diffs saved roots exactly', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 600, size: 'max' }), fc.tuple(key, key), fc.constantFrom(4, 8, 12, MAX_NODE_ENTRIES), async (ops, [lo, hi], maxEntries) => {
        const store = createMemoryStore();
        let ids = 0;
        const model = new Map<string, number>();
        const saved: { root: MapRoot; model: Map<string, number> }[] = [{ root: { node: null, size: 0 }, model: new Map() }];
        let root: MapRoot = { node: null, size: 0 };
        let pending: Op[] = [];
        const flush = async () => {
          const before = await nodeCount(store);
          root = await store.write(async (tx) => {
            const map = new TreeMap(tx, root, 's', () => `n${++ids}`, { maxEntries });
            for (const step of pending) {
              if (step.kind === 'set') await map.set(step.key, step.value);
              if (step.kind === 'delete') await map.delete(step.key);
            }
            return map.save(tx);
          });
          // Path copying: about two nodes per level (a split or a merge's neighbour) per changed key.
          const changed = new Set(pending.map((step) => (step.kind === 'save' ? '' : step.key))).size;
          const height = Math.ceil(Math.log(Math.max(2, model.size + changed)) / Math.log(maxEntries / 4)) + 1;
          expect((await nodeCount(store)) - before).toBeLessThanOrEqual(Math.max(1, changed) * 2 * height);
          pending = [];
          saved.push({ root, model: new Map(model) });
        };
        for (const step of ops) {
          if (step.kind === 'save') await flush();
          else {
            pending.push(step);
            if (step.kind === 'set') model.set(step.key, step.value);
            else model.delete(step.key);
          }
        }
        await flush();
        for (const { root: kept, model: expected } of saved) {
          const sorted = [...expected.entries()].sort(([x], [y]) => (x < y ? -1 : 1));
          expect(await entriesOf(store, kept)).toEqual(sorted);
          expect(kept.size).toBe(expected.size);
          const [from, to] = lo <= hi ? [lo, hi] : [hi, lo];
          expect(await entriesOf(store, kept, from, to)).toEqual(sorted.filter(([k]) => k >= from && k < to));
          await store.read(async (tx) => {
            const map = readMap(tx, kept);
            expect(await map.rank(from)).toBe(sorted.filter(([k]) => k < from).length);
            for (const index of [0, Math.floor(sorted.length / 2), sorted.length - 1, sorted.length]) {
              expect(await map.at(index)).toEqual(sorted[index]);
            }
            expect(await map.get(lo)).toBe(expected.get(lo));
          });
        }
        // Diff the last saved root against a few earlier ones.
        const last = saved[saved.length - 1];
        for (const earlier of [saved[0], saved[Math.floor(saved.length / 2)], saved[saved.length - 2] ?? saved[0]]) {
          const diff = await store.read((tx) => diffMaps(tx, earlier.root, last.root));
          const removed = [...earlier.model].filter(([k]) => !last.model.has(k)).sort();
          const added = [...last.model].filter(([k]) => !earlier.model.has(k)).sort();
          const changed = [...last.model]
            .filter(([k, value]) => earlier.model.has(k) && earlier.model.get(k) !== value)
            .map(([k, value]) => [k, earlier.model.get(k), value])
            .sort();
          expect(diff).toEqual({ removed, added, changed });
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
