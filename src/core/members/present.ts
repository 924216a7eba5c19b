import type * as v from 'valibot';
import type { Context } from '../context.js';
import { oncePerTransaction } from '../per-transaction.js';
import { INDEXES, TABLES, type MemberRecord } from '../records.js';
import { contentSnapshot, grantsOf, spacesOfMember } from '../spaces/levels.js';
import { loadUser, presentUser } from '../users/present.js';
import type { MemberSchema } from './schemas.js';

/** The member object of responses, with its counts computed now. */
export async function presentMember(ctx: Context, member: MemberRecord): Promise<v.InferInput<typeof MemberSchema>> {
  // The user and the team count started together: a store that talks to a database reads them in one round
  // trip (for a whole page of members). The spaces come after (their content is read once, see
  // prefetchMemberContent): started with them too, they made a page of 100 members 10-15% slower in memory
  // (interleaved, every member's reads run in turn, instead of each kind of read for the whole page at once).
  const reading = loadUser(ctx, member.userId);
  const counting = ctx.tx.list(TABLES.teamMembers, { index: INDEXES.teamMembersByMember, value: member.id, limit: 0 });
  counting.catch(() => undefined);
  const user = await reading;
  const teams = await counting;
  const spaces = await countMemberSpaces(ctx, member);
  return {
    object: 'member',
    id: member.userId,
    role: member.role,
    user: presentUser(ctx, user),
    disabled: member.disabled,
    joinedAt: member.joinedAt,
    ...(member.lastSeenAt !== undefined && { lastSeenAt: member.lastSeenAt }),
    sso: member.sso,
    spaces,
    teams: teams.count,
  };
}

/** The organization's content (collections and live spaces), read once per transaction. */
const contentOf = (ctx: Context, organization: string) => oncePerTransaction(ctx.tx, ['content', organization], () => contentSnapshot(ctx, organization));

/**
 * Starts reading what presenting the members of an organization reads once (its content), for an operation
 * to call with its other reads: a store that talks to a database then reads it with them, not in a round
 * trip of its own. A failure is left to whoever awaits it.
 */
export function prefetchMemberContent(ctx: Context, organizationId: string): void {
  contentOf(ctx, organizationId).catch(() => undefined);
}

/**
 * How many spaces a member can access, by the rules of permissions.ts (spaces/levels.ts): deleted
 * spaces never count; a guest counts only spaces granted to its teams. The organization's content is
 * read once per transaction (a page of members asks for it once per member).
 */
async function countMemberSpaces(ctx: Context, member: MemberRecord): Promise<number> {
  const organization = member.organizationId;
  const snapshot = await contentOf(ctx, organization);
  if (snapshot.spaces.length === 0) return 0;
  const grants = await grantsOf(ctx, member);
  if (grants.size > 0) return (await spacesOfMember(ctx, member, snapshot, grants)).length;
  // Without team grants the count depends only on the role: a page of members computes it once per role.
  return oncePerTransaction(ctx.tx, ['content-count', organization, member.role], async () => {
    return (await spacesOfMember(ctx, member, snapshot, grants)).length;
  });
}
