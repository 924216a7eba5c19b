import * as v from 'valibot';
import { Timestamp, Url, UserSchema } from '../schemas.js';
import { CreatedTokenSchema } from '../tokens/token-schemas.js';

/** A claim as the admin who invited the user receives it, to hand over: the URL that gives the user a token. */
export const ClaimSchema = v.object({
  /** The id of the user it gives a token of. */
  user: v.string(),
  email: v.string(),
  /** POST to it, without a token, to get the API token; it works once, until expiresAt. */
  url: Url,
  expiresAt: Timestamp,
});

/** The answer to a redeemed claim: the user's new API token (its secret, this once), the user, and the organization that invited it. */
export const ClaimedTokenSchema = v.object({
  ...CreatedTokenSchema.entries,
  user: UserSchema,
  organizationId: v.string(),
});
