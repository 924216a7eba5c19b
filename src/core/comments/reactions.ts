import type { Context } from '../context.js';
import { badRequest } from '../errors.js';
import type { ReactionRecord } from '../records.js';
import { loadUser, presentUser } from '../users/present.js';

/**
 * Emoji reactions on a comment or a reply: per user and emoji, at most once. Adding one the user already
 * made, or removing one the user did not make, changes nothing (both are idempotent); an emoji with no
 * user left disappears. Reactions are listed in the order their emoji was first used.
 */

/** The reactions after `userId` added and removed emojis at `now`; the same array when nothing changed. */
export function applyReactions(
  reactions: readonly ReactionRecord[],
  userId: string,
  now: string,
  added: readonly string[] = [],
  removed: readonly string[] = [],
): readonly ReactionRecord[] {
  const both = added.find((emoji) => removed.includes(emoji));
  if (both !== undefined) throw badRequest(`addedReactions: ${both} is also in removedReactions; an update adds or removes an emoji, not both`);
  let changed = false;
  const next = reactions.map((reaction) => {
    const mine = reaction.users.some((user) => user.userId === userId);
    if (removed.includes(reaction.emoji) && mine) {
      changed = true;
      return { ...reaction, users: reaction.users.filter((user) => user.userId !== userId) };
    }
    if (added.includes(reaction.emoji) && !mine) {
      changed = true;
      return { ...reaction, users: [...reaction.users, { userId, reactedAt: now }] };
    }
    return reaction;
  });
  for (const emoji of new Set(added)) {
    if (next.some((reaction) => reaction.emoji === emoji)) continue;
    changed = true;
    next.push({ emoji, users: [{ userId, reactedAt: now }] });
  }
  return changed ? next.filter((reaction) => reaction.users.length > 0) : reactions;
}

/** The reactions of a response: each emoji with its count and its users, in the order they reacted. */
export async function presentReactions(ctx: Context, reactions: readonly ReactionRecord[]) {
  return Promise.all(
    reactions.map(async (reaction) => ({
      emoji: reaction.emoji,
      count: reaction.users.length,
      users: await Promise.all(
        reaction.users.map(async ({ userId, reactedAt }) => ({ user: presentUser(ctx, await loadUser(ctx, userId)), reactedAt })),
      ),
    })),
  );
}
