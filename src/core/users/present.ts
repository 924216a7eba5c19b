import type * as v from 'valibot';
import type { Context } from '../context.js';
import { TABLES, type UserRecord } from '../records.js';
import type { UserSchema } from '../schemas.js';

/** The user object of responses. */
export function presentUser(ctx: Context, user: UserRecord): v.InferInput<typeof UserSchema> {
  return {
    object: 'user',
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    ...(user.photoURL !== undefined && { photoURL: user.photoURL }),
    urls: { location: ctx.urls.api(`/users/${user.id}`) },
  };
}

/** Loads a user that a record refers to; the reference is kept valid by the operations that delete users. */
export async function loadUser(ctx: Context, userId: string): Promise<UserRecord> {
  const user = (await ctx.tx.get(TABLES.users, userId)) as UserRecord | undefined;
  if (!user) throw new Error(`Dangling reference to user ${userId}`);
  return user;
}
