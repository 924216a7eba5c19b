import { readOperation } from '../operation.js';
import { route } from '../operation.js';
import { UserSchema } from '../schemas.js';
import { presentUser } from './present.js';

/** Gets the user the token acts for (from the public API: lets a client check its token). */
export const getAuthenticatedUser = readOperation({
  name: 'getAuthenticatedUser',
  summary: 'Get the authenticated user',
  response: UserSchema,
  async run(ctx) {
    return presentUser(ctx, ctx.actor.user);
  },
});

/** The user endpoints. */
export const userRoutes = [route('GET', '/v1/user', getAuthenticatedUser, 200, { extension: true })];
