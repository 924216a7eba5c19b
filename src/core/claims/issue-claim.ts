import type { ReadTransaction } from '../../store/types.js';
import { hashSecret } from '../auth.js';
import type { WriteContext } from '../context.js';
import { INDEXES, TABLES, type ClaimRecord } from '../records.js';

/**
 * Token claims: how a user an admin invited by e-mail gets a first API token without an operator's shell.
 * The invite answers the admin a claim URL with a secret code; the admin hands it over; the user POSTs to it
 * without a token and gets a token, once. A claim ends after CLAIM_LIFETIME_MS, and a new one for the same
 * user voids the ones not used yet. Only users who wait for their first token get claims: a claim must never
 * give an admin of one organization a token of someone who already uses the platform.
 */

/** How long a claim works: 7 days. */
export const CLAIM_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** The prefix of claim codes, so that a leaked one is easy to recognise, and not taken for a token (`dp_`). */
export const CLAIM_PREFIX = 'dpc_';

/** The form of every claim code: the prefix and a URL-safe secret (Ids.secret). */
export const CLAIM_FORM = /^dpc_[A-Za-z0-9_-]{32,128}$/;

/** When a claim issued at `now` ends. */
export const claimExpiry = (now: string): string => new Date(Date.parse(now) + CLAIM_LIFETIME_MS).toISOString();

/** Whether a claim has ended at `now`. */
export const claimExpired = (claim: ClaimRecord, now: string): boolean => Date.parse(now) >= Date.parse(claim.expiresAt);

/**
 * Whether a user waits for its first token: it was invited by e-mail (it has claims), never redeemed one,
 * and holds no token (it was not given one by the CLI since).
 */
export async function awaitsFirstToken(tx: ReadTransaction, userId: string): Promise<boolean> {
  const [claims, tokens] = await Promise.all([
    tx.list(TABLES.claims, { index: INDEXES.claimsByUser, value: userId, limit: 1000 }),
    tx.list(TABLES.tokens, { index: INDEXES.tokensByUser, value: userId, limit: 0 }),
  ]);
  return claims.count > 0 && tokens.count === 0 && claims.items.every((claim) => (claim as ClaimRecord).redeemedAt === undefined);
}

/** Issues a claim of a token for a user, voiding the user's claims not used yet; resolves to its code (shown once) and its end. */
export async function issueClaim(ctx: WriteContext, userId: string, organizationId: string): Promise<{ code: string; expiresAt: string }> {
  const { items } = await ctx.tx.list(TABLES.claims, { index: INDEXES.claimsByUser, value: userId, limit: 1000 });
  for (const claim of items) if ((claim as ClaimRecord).redeemedAt === undefined) await ctx.tx.delete(TABLES.claims, claim.id);
  const code = `${CLAIM_PREFIX}${ctx.ids.secret()}`;
  if (!CLAIM_FORM.test(code)) throw new Error('Ids.secret() must return 32 to 128 characters of A-Z, a-z, 0-9, _ and -');
  const expiresAt = claimExpiry(ctx.now);
  const claim: ClaimRecord = { id: await hashSecret(code), userId, organizationId, createdBy: ctx.actor.userId, createdAt: ctx.now, expiresAt };
  await ctx.tx.insert(TABLES.claims, claim);
  return { code, expiresAt };
}
