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
  return found(userId, (await ctx.tx.get(TABLES.users, userId)) as UserRecord | undefined);
}

/** Loads the users that records refer to, all reads started at once (a page's: one round trip to a database). */
export async function loadUsers(ctx: Context, userIds: readonly string[]): Promise<UserRecord[]> {
  const users = (await ctx.tx.getMany(TABLES.users, userIds)) as (UserRecord | undefined)[];
  return users.map((user, i) => found(userIds[i], user));
}

function found(userId: string, user: UserRecord | undefined): UserRecord {
  if (!user) throw new Error(`Dangling reference to user ${userId}`);
  return user;
}
