import { readOperation } from '../operation.js';
import { route } from '../operation.js';
import { UserSchema } from '../schemas.js';
import { presentUser } from './present.js';
import { createUserToken, listUserTokens, revokeUserToken } from '../tokens/user-tokens.js';

/** Gets the user the token acts for (from the public API: lets a client check its token). */
export const getAuthenticatedUser = readOperation({
  name: 'getAuthenticatedUser',
  summary: 'Get the authenticated user',
  response: UserSchema,
  async run(ctx) {
    return presentUser(ctx, await ctx.actor.user());
  },
});

/** The user endpoints. */
export const userRoutes = [
  route('GET', '/v1/user', getAuthenticatedUser, 200, { extension: true }),
  // The caller's own API tokens (ours: the public API has no token endpoints).
  route('GET', '/v1/user/tokens', listUserTokens, 200, { extension: true }),
  route('POST', '/v1/user/tokens', createUserToken, 201, { extension: true }),
  route('DELETE', '/v1/user/tokens/{tokenId}', revokeUserToken, 204, { extension: true }),
];
