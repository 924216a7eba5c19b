import { afterEach, describe, expect, it, vi } from 'vitest';
import { actorForToken, issueToken } from '../../src/core/auth.js';
import { randomIds, sequentialIds } from '../../src/core/ids.js';
import { TABLES } from '../../src/core/records.js';
import { createMemoryStore } from '../../src/store/memory.js';

/**
 * Bearer tokens: a token of the wrong form is refused before it is hashed, and only tokens that exist are
 * remembered (their hashes cached), so made-up tokens cost a hash each and keep nothing in memory.
 */

async function withToken() {
  const store = createMemoryStore();
  const now = '2026-03-01T10:00:00.000Z';
  const token = await store.write(async (tx) => {
    await tx.insert(TABLES.users, { id: 'u1', displayName: 'Ada', email: 'ada@example.com', createdAt: now });
    return issueToken(tx, randomIds, 'u1', 'test', now);
  });
  const authenticate = (presented: string) => store.read((tx) => actorForToken(tx, presented));
  return { store, token, authenticate };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('tokens', () => {
  it('refuses a token of the wrong length or form without hashing it', async () => {
    const { token, authenticate } = await withToken();
    const digest = vi.spyOn(crypto.subtle, 'digest');
    const malformed = ['', 'dp_', 'dp_short', `dp_${'a'.repeat(129)}`, `dp_${'a'.repeat(16 * 1024)}`, `xx_${token.slice(3)}`, `${token}!`, `${token.slice(0, -1)} `, token.toUpperCase().replace('DP_', 'Dp_')];
    for (const presented of malformed) expect(await authenticate(presented), presented.slice(0, 40)).toBeNull();
    expect(digest).not.toHaveBeenCalled();
  });

  it('hashes a made-up token of the right form every time it comes, and a real one once', async () => {
    const { token, authenticate } = await withToken();
    const digest = vi.spyOn(crypto.subtle, 'digest');
    const madeUp = `dp_${'x'.repeat(43)}`;
    for (let i = 0; i < 3; i++) expect(await authenticate(madeUp)).toBeNull();
    expect(digest).toHaveBeenCalledTimes(3);
    digest.mockClear();
    for (let i = 0; i < 3; i++) expect((await authenticate(token))?.user.id).toBe('u1');
    expect(digest).toHaveBeenCalledTimes(1);
  });

  it('stops working, cached or not, once its record is gone', async () => {
    const { store, token, authenticate } = await withToken();
    expect((await authenticate(token))?.user.id).toBe('u1');
    // Tokens are stored under their SHA-256, hex.
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
    const hash = Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
    await store.write((tx) => tx.delete(TABLES.tokens, hash));
    expect(await authenticate(token)).toBeNull();
  });

  it('refuses to issue a token from secrets of another form, and issues sequentialIds ones', async () => {
    const store = createMemoryStore();
    const odd = { id: () => 'x', secret: () => 'not a secret!' };
    await expect(store.write((tx) => issueToken(tx, odd, 'u1', 'test', '2026-03-01T10:00:00.000Z'))).rejects.toThrow(/^Ids\.secret\(\) must return/);
    expect(await store.write((tx) => issueToken(tx, sequentialIds(), 'u1', 'test', '2026-03-01T10:00:00.000Z'))).toMatch(/^dp_secret000001/);
  });
});
