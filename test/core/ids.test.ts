import { describe, expect, it } from 'vitest';
import { randomIds } from '../../src/core/ids.js';

/** Ids and secrets from the secure random source, drawn from a pool of random bytes (random-bytes.ts). */
describe('random ids', () => {
  it('are 20 characters of [A-Za-z0-9], secrets 43, none ever drawn twice, every character about as likely', () => {
    const ids = Array.from({ length: 20_000 }, () => randomIds.id());
    const secrets = Array.from({ length: 2_000 }, () => randomIds.secret());
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{20}$/);
    for (const secret of secrets) expect(secret).toMatch(/^[A-Za-z0-9]{43}$/);
    expect(new Set([...ids, ...secrets]).size).toBe(ids.length + secrets.length);
    // 486,000 characters: ~7,840 of each of 62, a standard deviation of ~88; 20% off is over 17 of them.
    const counts = new Map<string, number>();
    for (const char of [...ids, ...secrets].join('')) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = (20 * ids.length + 43 * secrets.length) / 62;
    for (const count of counts.values()) expect(Math.abs(count - expected) / expected).toBeLessThan(0.2);
  });
});
