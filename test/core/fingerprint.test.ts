import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../src/core/sites/reader/fingerprint.js';

/** The reader's fingerprints: SHA-256 of the value's JSON, whether the digest is remembered or made again. */

const expected = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest().subarray(0, 12).toString('base64url');

describe('fingerprintOf', () => {
  it('gives the first 96 bits of the SHA-256 of the JSON, the same when asked again, another for another value', async () => {
    const values = [{ page: 'a' }, { page: 'b' }, 'x'.repeat(40_000), ['é', 1, null]];
    for (const value of values) {
      expect(await fingerprintOf(value)).toBe(expected(value));
      expect(await fingerprintOf(structuredClone(value))).toBe(expected(value));
    }
    expect(new Set(await Promise.all(values.map(fingerprintOf))).size).toBe(values.length);
  });

  it('still gives the right digest for a value digested long before, after many others', async () => {
    const first = { page: 'first' };
    const before = await fingerprintOf(first);
    for (let i = 0; i < 600; i++) await fingerprintOf({ page: i });
    expect(await fingerprintOf(first)).toBe(before);
    expect(before).toBe(expected(first));
  });
});
