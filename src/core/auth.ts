import type { ReadTransaction, WriteTransaction } from '../store/types.js';
import type { Actor } from './context.js';
import type { Ids } from './ids.js';
import { TABLES, type TokenRecord, type UserRecord } from './records.js';

/** The prefix of API tokens, so that a leaked one is easy to recognise (and to scan for). */
export const TOKEN_PREFIX = 'dp_';

const hashes = new Map<string, string>();
const MAX_CACHED_HASHES = 10_000;

/**
 * The SHA-256 of a token, hex-encoded: the id under which a token is stored. Only hashes are stored,
 * so a copy of the data file does not hand out working tokens. Results are memoized (a pure function).
 */
export async function hashToken(token: string): Promise<string> {
  const cached = hashes.get(token);
  if (cached) return cached;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
  if (hashes.size >= MAX_CACHED_HASHES) hashes.clear();
  hashes.set(token, hex);
  return hex;
}

/** Resolves a bearer token to the user it acts for, or null when the token is unknown. */
export async function actorForToken(tx: ReadTransaction, token: string): Promise<Actor | null> {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const record = (await tx.get(TABLES.tokens, await hashToken(token))) as TokenRecord | undefined;
  const user = record && ((await tx.get(TABLES.users, record.userId)) as UserRecord | undefined);
  return user ? { user } : null;
}

/** Creates a new API token for a user; the secret is returned once and only its hash is kept. */
export async function issueToken(tx: WriteTransaction, ids: Ids, userId: string, label: string, now: string): Promise<string> {
  const token = `${TOKEN_PREFIX}${ids.secret()}`;
  const record: TokenRecord = { id: await hashToken(token), userId, label, createdAt: now };
  await tx.insert(TABLES.tokens, record);
  return token;
}
