import * as v from 'valibot';
import { issueTokenRecord } from '../auth.js';
import { conflict, notFound } from '../errors.js';
import { readOperation, writeOperation } from '../operation.js';
import { listQuery, mapPage, pageOf } from '../pagination.js';
import { INDEXES, TABLES, type TokenRecord } from '../records.js';
import { Id } from '../schemas.js';
import { presentToken, publicTokenId } from './present-token.js';
import { CreatedTokenSchema, TokenLabel, TokenList } from './token-schemas.js';
import { userScope } from '../scopes.js';

/** The most tokens one user holds: enough for every machine and integration, and a bound on the list. */
export const MAX_TOKENS_PER_USER = 100;

/** Lists the caller's own API tokens, oldest first: label, creation and last use, never the secret. */
export const listUserTokens = readOperation({
  name: 'listUserTokens',
  summary: "List the authenticated user's API tokens",
  query: listQuery,
  response: TokenList,
  async run(ctx, input) {
    const page = await pageOf(ctx.tx, TABLES.tokens, { index: INDEXES.tokensByUser, value: ctx.actor.userId }, input);
    return mapPage(page, (record) => presentToken(record as TokenRecord));
  },
});

/** Creates an API token for the caller; the answer holds its secret, once. */
export const createUserToken = writeOperation({
  name: 'createUserToken',
  summary: 'Create an API token for the authenticated user',
  body: { label: v.optional(TokenLabel, 'API token') },
  response: CreatedTokenSchema,
  async run(ctx, input) {
    const userId = ctx.actor.userId;
    // Bounded: two creations at once must not both see room for one.
    await ctx.tx.lock(userScope(userId), 'exclusive');
    const { count } = await ctx.tx.list(TABLES.tokens, { index: INDEXES.tokensByUser, value: userId, limit: 0 });
    if (count >= MAX_TOKENS_PER_USER) throw conflict(`A user has at most ${MAX_TOKENS_PER_USER} API tokens; revoke one first`);
    const { token, record } = await issueTokenRecord(ctx.tx, ctx.ids, userId, input.label, ctx.now);
    return { ...presentToken(record), token };
  },
});

/**
 * Revokes one of the caller's API tokens (also the one it is using): it stops working at once, for every
 * process, since each request reads its token from the store.
 */
export const revokeUserToken = writeOperation({
  name: 'revokeUserToken',
  summary: "Revoke one of the authenticated user's API tokens",
  params: { tokenId: Id },
  response: null,
  async run(ctx, input) {
    const { items } = await ctx.tx.list(TABLES.tokens, {
      index: INDEXES.tokensByUser,
      value: ctx.actor.userId,
      where: (record) => publicTokenId(record as TokenRecord) === input.tokenId,
    });
    if (items.length === 0) throw notFound(`No API token ${input.tokenId} of this user`);
    for (const record of items) await ctx.tx.delete(TABLES.tokens, record.id);
  },
});
