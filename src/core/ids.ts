import { randomByte } from './random-bytes.js';

/** The source of new identifiers and secrets; injected so that tests can make them predictable. */
export interface Ids {
  /** A new opaque, URL-safe, unguessable identifier. */
  id(): string;
  /** A new secret token of at least 256 bits, URL-safe. */
  secret(): string;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Draws `length` characters of [A-Za-z0-9] from the platform's secure random source (~5.95 bits each). */
function randomString(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    // 248 = 4 * 62: rejecting bytes above it keeps every character equally likely.
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/** Ids from the secure random source: 20 characters (~119 bits) per id, 43 per secret (~256 bits). */
export const randomIds: Ids = {
  id: () => randomString(20),
  secret: () => randomString(43),
};

/** Ids counting up from 1 with a prefix; for tests that want readable, ordered ids. */
export function sequentialIds(prefix = 'id'): Ids {
  let n = 0;
  return {
    id: () => `${prefix}${String(++n).padStart(6, '0')}`,
    secret: () => `secret${String(++n).padStart(6, '0')}${randomString(30)}`,
  };
}
