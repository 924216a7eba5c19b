import * as v from 'valibot';
import { hashSecret, issueTokenRecord } from '../auth.js';
import { gone, notFound } from '../errors.js';
import { writeOperation } from '../operation.js';
import { findMembership } from '../permissions.js';
import { TABLES, type ClaimRecord } from '../records.js';
import { Id } from '../schemas.js';
import { presentToken } from '../tokens/present-token.js';
import { TokenLabel } from '../tokens/token-schemas.js';
import { loadUser, presentUser } from '../users/present.js';
import { ClaimedTokenSchema } from './claim-schemas.js';
import { CLAIM_FORM, claimExpired } from './issue-claim.js';

/**
 * Redeems a token claim (ours: the public API has none): needs no token, since the code is the permission.
 * Gives the invited user a new API token, once: a claim used already or past its end is refused (410), and
 * so is one whose user is no longer an active member of the organization that invited it (an admin removed
 * or disabled it meanwhile). An unknown code is a 404. Nothing is written unless a token is given.
 */
export const redeemClaim = writeOperation({
  name: 'redeemClaim',
  summary: 'Redeem a token claim: get the API token of a user invited by e-mail',
  params: { code: Id },
  body: { label: v.optional(TokenLabel, 'API token') },
  response: ClaimedTokenSchema,
  async run(ctx, { code, label }) {
    const claim = CLAIM_FORM.test(code) ? ((await ctx.tx.get(TABLES.claims, await hashSecret(code))) as ClaimRecord | undefined) : undefined;
    if (!claim) throw notFound('No token claim with this code: ask an admin of your organization for a new invite');
    if (claim.redeemedAt !== undefined) throw gone(`This claim was used at ${claim.redeemedAt}: it gives a token once (an admin can invite you again while you have no token)`);
    if (claimExpired(claim, ctx.now)) throw gone(`This claim expired at ${claim.expiresAt}: ask an admin of your organization to invite you again`);
    if (!(await findMembership(ctx, claim.organizationId, claim.userId))) throw gone('This claim was withdrawn: you are no longer a member of the organization that invited you');
    const user = await loadUser(ctx, claim.userId);
    const { token, record } = await issueTokenRecord(ctx.tx, ctx.ids, user.id, label, ctx.now);
    await ctx.tx.put(TABLES.claims, { ...claim, redeemedAt: ctx.now });
    return { ...presentToken(record), token, user: presentUser(ctx, user), organizationId: claim.organizationId };
  },
});
