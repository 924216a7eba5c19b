import { describe, expect, it } from 'vitest';
import { releaseLease, takeLease } from '../../src/core/leases.js';
import { createMemoryStore } from '../../src/store/memory.js';

describe('leases on background work', () => {
  const at = (minutes: number) => new Date(Date.parse('2026-03-01T10:00:00Z') + minutes * 60_000);

  it('go to one holder at a time until released or lapsed, and the holder may renew', async () => {
    const store = createMemoryStore();
    expect(await takeLease(store, 'sweep', 'a', at(0), 10 * 60_000)).toBe(true);
    expect(await takeLease(store, 'sweep', 'b', at(1), 10 * 60_000)).toBe(false);
    expect(await takeLease(store, 'sweep', 'a', at(5), 10 * 60_000)).toBe(true);
    // Renewed at minute 5: still held at minute 14, lapsed at 16.
    expect(await takeLease(store, 'sweep', 'b', at(14), 10 * 60_000)).toBe(false);
    expect(await takeLease(store, 'sweep', 'b', at(16), 10 * 60_000)).toBe(true);
    // A release by someone who no longer holds it changes nothing.
    await releaseLease(store, 'sweep', 'a');
    expect(await takeLease(store, 'sweep', 'a', at(17), 10 * 60_000)).toBe(false);
    await releaseLease(store, 'sweep', 'b');
    expect(await takeLease(store, 'sweep', 'a', at(17), 10 * 60_000)).toBe(true);
  });

  it('let only one of many concurrent takers have it', async () => {
    const store = createMemoryStore();
    const taken = await Promise.all(Array.from({ length: 10 }, (_, i) => takeLease(store, 'sweep', `h${i}`, at(0), 60_000)));
    expect(taken.filter(Boolean)).toHaveLength(1);
  });
});
