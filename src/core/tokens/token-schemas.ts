import * as v from 'valibot';
import { listSchema } from '../pagination.js';
import { Timestamp } from '../schemas.js';

/** A token as its owner sees it: never the secret, nor its hash. */
export const TokenSchema = v.object({
  object: v.literal('token'),
  /** The first 16 hex digits of the token's SHA-256 hash: what `revoke` names it by. */
  id: v.string(),
  label: v.string(),
  createdAt: Timestamp,
  /** When the token was last used, to the minute; absent when never. */
  lastUsedAt: v.optional(Timestamp),
});

/** A user's tokens. */
export const TokenList = listSchema(TokenSchema);

/** A token just created: the one answer that holds its secret. */
export const CreatedTokenSchema = v.object({ ...TokenSchema.entries, token: v.string() });

/** A token's label: 1 to 64 characters. */
export const TokenLabel = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(64, 'must be at most 64 characters'));
