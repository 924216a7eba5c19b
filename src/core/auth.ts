import type { ReadTransaction, WriteTransaction } from '../store/types.js';
import type { Actor } from './context.js';
import type { Ids } from './ids.js';
import { TABLES, type TokenRecord, type UserRecord } from './records.js';

/** The prefix of API tokens, so that a leaked one is easy to recognise (and to scan for). */
export const TOKEN_PREFIX = 'dp_';

/**
 * The form of every token the platform issues: the prefix and a URL-safe secret (Ids.secret: at least 256
 * bits) of 32 to 128 characters. Anything else is refused before it is hashed or looked up.
 */
const TOKEN_FORM = /^dp_[A-Za-z0-9_-]{32,128}$/;

/**
 * The tokens found in the store: their hash, so that each request does not hash again, and the user they
 * act for (which never changes), so that the token and its user are read together, in one round trip of a
 * networked store. Only tokens that existed are kept, so that a client sending made-up tokens (each up to
 * the header limit) fills nothing; a token deleted since is dropped the next time it is presented.
 */
const knownTokens = new Map<string, { readonly hash: string; readonly userId: string }>();
const MAX_KNOWN_TOKENS = 10_000;

/**
 * The SHA-256 of a secret (a token, a claim code), hex-encoded: the id under which it is stored. Only
 * hashes are stored, so a copy of the data file does not hand out working tokens.
 */
export async function hashSecret(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The SHA-256 of a token this process found valid before (its stored id), at once, from the cache; undefined
 * for any other, which must be authenticated first. Rate limits count a valid token's requests under it, so
 * that no store, in memory or PostgreSQL, holds a token itself.
 */
export function tokenHash(token: string): string | undefined {
  return knownTokens.get(token)?.hash;
}

/** Whether a string has the form of a token the platform issues: one of another form is never looked up. */
export const hasTokenForm = (token: string): boolean => TOKEN_FORM.test(token);

/**
 * The user a token acts for, when this process found the token before: known without a read, but to be
 * trusted only once the token is read again (it may have been deleted since).
 */
export function knownUserId(token: string): string | undefined {
  return knownTokens.get(token)?.userId;
}

/** Resolves a bearer token to the user it acts for, or null when the token is unknown or not of a token's form. */
export async function actorForToken(tx: ReadTransaction, token: string): Promise<Actor | null> {
  if (!hasTokenForm(token)) return null;
  const known = knownTokens.get(token);
  const hash = known?.hash ?? (await hashSecret(token));
  // A known token's user is asked for with the token, in the same turn (one batch).
  const [record, guessed] = await Promise.all([tx.get(TABLES.tokens, hash) as Promise<TokenRecord | undefined>, known && tx.get(TABLES.users, known.userId)]);
  if (!record) {
    if (known) knownTokens.delete(token);
    return null;
  }
  if (!known) {
    if (knownTokens.size >= MAX_KNOWN_TOKENS) knownTokens.clear();
    knownTokens.set(token, { hash, userId: record.userId });
  }
  const user = (record.userId === known?.userId ? guessed : await tx.get(TABLES.users, record.userId)) as UserRecord | undefined;
  return user ? { user, token: record } : null;
}

/** Creates a new API token for a user; the secret is returned once and only its hash is kept. */
export async function issueToken(tx: WriteTransaction, ids: Ids, userId: string, label: string, now: string): Promise<string> {
  return (await issueTokenRecord(tx, ids, userId, label, now)).token;
}

/** Creates a new API token for a user: the secret (shown once) and the record stored under its hash. */
export async function issueTokenRecord(tx: WriteTransaction, ids: Ids, userId: string, label: string, now: string): Promise<{ token: string; record: TokenRecord }> {
  const token = `${TOKEN_PREFIX}${ids.secret()}`;
  // A token of another form could never authenticate: an injected Ids must give secrets of the form.
  if (!hasTokenForm(token)) throw new Error('Ids.secret() must return 32 to 128 characters of A-Z, a-z, 0-9, _ and -');
  const record: TokenRecord = { id: await hashSecret(token), userId, label, createdAt: now };
  await tx.insert(TABLES.tokens, record);
  return { token, record };
}
