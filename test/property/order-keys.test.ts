import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOrderKey, keyBetween, saltedAfter } from '../../src/core/ordering/keys.js';
import { runs } from './runs.js';

/**
 * The fractional key generator: a key made between two keys sorts strictly between them (code-unit
 * order, as the store sorts), is well formed, and keys stay short for the common cases.
 */

/** Builds a list of keys by random insertions (at the start, at the end, between neighbours). */
const insertions = fc.array(fc.nat(), { minLength: 1, maxLength: 200 });

function build(steps: number[]): string[] {
  const keys: string[] = [];
  for (const step of steps) {
    const slot = step % (keys.length + 1);
    keys.splice(slot, 0, keyBetween(keys[slot - 1] ?? null, keys[slot] ?? null));
  }
  return keys;
}

describe('ordering keys', () => {
  it('makes a key strictly between its bounds, so any insertion sequence keeps keys sorted and distinct', () => {
    fc.assert(
      fc.property(insertions, (steps) => {
        const keys = build(steps);
        for (const key of keys) expect(isOrderKey(key), key).toBe(true);
        for (let i = 1; i < keys.length; i++) expect(keys[i - 1] < keys[i], `${keys[i - 1]} < ${keys[i]}`).toBe(true);
      }),
      { numRuns: runs(300) },
    );
  });

  it('salts a key at the end: well formed, after its bound and before the next append, distinct from a concurrent one', () => {
    fc.assert(
      fc.property(insertions, (steps) => {
        const keys = build(steps);
        const last = keys.at(-1)!;
        const [one, other] = [saltedAfter(last), saltedAfter(last)];
        for (const key of [one, other]) {
          expect(isOrderKey(key), key).toBe(true);
          expect(key > last && key < keyBetween(keyBetween(last, null), null), key).toBe(true);
          // The next append moves past it, and stays short.
          const next = keyBetween(key, null);
          expect(next > key && next.length <= keyBetween(last, null).length + 1, next).toBe(true);
        }
        expect(saltedAfter(null) > 'a0' && saltedAfter(null) < 'a1').toBe(true);
      }),
      { numRuns: runs(100) },
    );
    // Writers that saw the same last key: distinct but for about one pair in 234,000.
    const salted = new Set(Array.from({ length: 1000 }, () => saltedAfter('a5')));
    expect(salted.size).toBeGreaterThan(990);
  });

  it('keeps appended and prepended keys short', () => {
    let last: string | null = null;
    for (let i = 0; i < 10_000; i++) last = keyBetween(last, null);
    expect(last!.length).toBeLessThanOrEqual(4);
    let first: string | null = null;
    for (let i = 0; i < 10_000; i++) first = keyBetween(null, first);
    expect(first!.length).toBeLessThanOrEqual(4);
    expect(first! < 'a0').toBe(true);
  });

  it('grows by about one character per six insertions at the same spot', () => {
    const low = 'a0';
    let high = 'a1';
    for (let i = 0; i < 60; i++) high = keyBetween(low, high);
    expect(high.length).toBeLessThanOrEqual(15);
    expect(low < high).toBe(true);
  });

  it('refuses bounds that are not keys or not in order', () => {
    expect(() => keyBetween('a1', 'a0')).toThrow(/out of order/);
    expect(() => keyBetween('a1', 'a1')).toThrow(/out of order/);
    for (const bad of ['', 'a', 'a10', '!0', 'b1', `A${'0'.repeat(26)}`]) {
      expect(isOrderKey(bad), bad).toBe(false);
      expect(() => keyBetween(bad, null), bad).toThrow();
    }
    expect(keyBetween(null, null)).toBe('a0');
  });
});
