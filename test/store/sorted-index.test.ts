import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedIndex, compareKeys, sortKeyOf } from '../../src/store/sorted-index.js';
import type { IndexDefinition, SortKey, StoredRecord } from '../../src/store/types.js';

/**
 * The blocked SortedIndex checked against a model: one plain sorted array per group. Blocks of at most
 * 4 entries make a few dozen records split, merge and empty blocks many times over. After every step
 * each group must list the model's ids in both orders, from every cursor (each stored key, and keys
 * between and beyond them), with the model's size.
 */

const DEF: IndexDefinition = { by: 'group', order: ['rank'] };
const GROUPS = ['a', 'b'];
const IDS = Array.from({ length: 40 }, (_, n) => `id${String(n).padStart(2, '0')}`);

type Rank = number | string | null | undefined;
type Step = { id: string; group: string | undefined; rank: Rank } | { id: string; deleted: true };

const rank: fc.Arbitrary<Rank> = fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constantFrom('x', 'y'), fc.constant(null), fc.constant(undefined));
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ id: fc.constantFrom(...IDS), group: fc.constantFrom(...GROUPS, undefined), rank }) },
  { weight: 2, arbitrary: fc.record({ id: fc.constantFrom(...IDS), deleted: fc.constant(true as const) }) },
);

/** The record a step puts, as the engine stores it: absent fields are left out. */
function recordOf(step: Extract<Step, { group: unknown }>): StoredRecord {
  return { id: step.id, ...(step.group === undefined ? {} : { group: step.group }), ...(step.rank === undefined ? {} : { rank: step.rank }) };
}

/** The model's ids of a group in listing order, strictly after `after`. */
function expected(records: Map<string, StoredRecord>, group: string, order: 'asc' | 'desc', after?: SortKey): string[] {
  const direction = order === 'asc' ? 1 : -1;
  return [...records.values()]
    .filter((record) => record.group === group && sortKeyOf(DEF, record) !== undefined)
    .map((record) => ({ id: record.id, key: sortKeyOf(DEF, record)! }))
    .filter((entry) => !after || direction * compareKeys(entry.key, after) > 0)
    .sort((a, b) => direction * compareKeys(a.key, b.key))
    .map((entry) => entry.id);
}

describe('SortedIndex', () => {
  it('lists what a plain sorted array lists, through any mix of adds, moves and removes', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 150 }), (steps) => {
        const index = new SortedIndex(DEF, 4);
        const records = new Map<string, StoredRecord>();
        for (const each of steps) {
          // As the engine applies a change: the old version out of the index, the new one in.
          const before = records.get(each.id);
          if (before) index.remove(before);
          if ('deleted' in each) records.delete(each.id);
          else {
            const record = recordOf(each);
            index.add(record);
            records.set(each.id, record);
          }
        }
        const keys = [...records.values()].map((record) => sortKeyOf(DEF, record)).filter((key) => key !== undefined);
        const cursors: SortKey[] = [...keys, ...keys.map((key) => [...key.slice(0, -1), `${key[key.length - 1]}~`]), [null], [-1, ''], ['z', 'z']];
        for (const group of [...GROUPS, 'none']) {
          expect(index.size(group)).toBe(expected(records, group, 'asc').length);
          for (const order of ['asc', 'desc'] as const) {
            expect([...index.ids(group, order)]).toEqual(expected(records, group, order));
            for (const after of cursors) expect([...index.ids(group, order, after)]).toEqual(expected(records, group, order, after));
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps many records of one group in order with the default block size', () => {
    const index = new SortedIndex(DEF);
    const ranks = Array.from({ length: 5000 }, (_, n) => (n * 7919) % 5000);
    for (const [n, value] of ranks.entries()) index.add({ id: `id${n}`, group: 'a', rank: value });
    for (let n = 0; n < 5000; n += 2) index.remove({ id: `id${n}`, group: 'a', rank: ranks[n] });
    const listed = [...index.ids('a', 'asc')];
    expect(listed).toHaveLength(2500);
    expect(listed).toEqual(
      ranks
        .map((value, n) => ({ n, value }))
        .filter(({ n }) => n % 2 === 1)
        .sort((a, b) => a.value - b.value)
        .map(({ n }) => `id${n}`),
    );
    expect([...index.ids('a', 'desc', [ranks[1], 'id1'])]).toEqual(listed.slice(0, listed.indexOf('id1')).reverse());
  });
});
