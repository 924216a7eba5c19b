import { describe, expect, it } from 'vitest';
import { createDerivedCache } from '../../src/core/derived.js';

describe('derived cache', () => {
  it('computes a value once per revision and shares concurrent misses', async () => {
    const cache = createDerivedCache(4);
    let calls = 0;
    const compute = async () => {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { calls };
    };
    const [a, b] = await Promise.all([cache.get('links', 'r1', compute), cache.get('links', 'r1', compute)]);
    expect(a).toBe(b);
    expect(await cache.get('links', 'r1', compute)).toBe(a);
    expect(calls).toBe(1);
    expect(cache.peek('links', 'r1')).toBe(a);
    expect(cache.peek('search', 'r1')).toBeUndefined();
  });

  it('does not keep a failed computation', async () => {
    const cache = createDerivedCache(4);
    await expect(cache.get('links', 'r1', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.get('links', 'r1', async () => 7)).toBe(7);
  });

  it('evicts the least recently used value beyond its capacity, and forgets on delete', async () => {
    const cache = createDerivedCache(2);
    await cache.get('k', 'a', async () => 'A');
    await cache.get('k', 'b', async () => 'B');
    await cache.get('k', 'a', async () => 'unused'); // a is now the most recent
    await cache.get('k', 'c', async () => 'C');
    expect(cache.peek('k', 'a')).toBe('A');
    expect(cache.peek('k', 'b')).toBeUndefined();
    cache.delete('k', 'a');
    expect(cache.peek('k', 'a')).toBeUndefined();
    expect(cache.peek('k', 'c')).toBe('C');
  });

  it('weighs values: heavy ones push out as many light ones as it takes, and one heavier than all is not kept', async () => {
    const cache = createDerivedCache(10);
    for (const id of ['a', 'b', 'c', 'd']) await cache.get('k', id, async () => id, () => 2);
    await cache.get('k', 'big', async () => 'BIG', () => 5);
    // 8 + 5 > 10: the two least recently used go (a, b), leaving c, d and big (9).
    expect(['a', 'b', 'c', 'd', 'big'].map((id) => cache.peek('k', id) !== undefined)).toEqual([false, false, true, true, true]);
    await cache.get('k', 'huge', async () => 'HUGE', () => 11);
    expect(cache.peek('k', 'huge')).toBeUndefined();
    expect(['c', 'd', 'big'].some((id) => cache.peek('k', id) !== undefined)).toBe(false);
    // Deleting gives its weight back.
    await cache.get('k', 'e', async () => 'E', () => 6);
    cache.delete('k', 'e');
    await cache.get('k', 'f', async () => 'F', () => 5);
    await cache.get('k', 'g', async () => 'G', () => 5);
    expect(cache.peek('k', 'f')).toBe('F');
    expect(cache.peek('k', 'g')).toBe('G');
  });
});
