import type * as v from 'valibot';
import type { Context } from '../context.js';
import { oncePerTransaction } from '../per-transaction.js';
import { INDEXES, TABLES, type MemberRecord } from '../records.js';
import { contentSnapshot, grantsOf, spacesOfMember } from '../spaces/levels.js';
import { loadUser, presentUser } from '../users/present.js';
import type { MemberSchema } from './schemas.js';

/** The member object of responses, with its counts computed now. */
export async function presentMember(ctx: Context, member: MemberRecord): Promise<v.InferInput<typeof MemberSchema>> {
  // Read together: a store that talks to a database makes them one round trip (for a whole page of members).
  const [user, teams, spaces] = await Promise.all([
    loadUser(ctx, member.userId),
    ctx.tx.list(TABLES.teamMembers, { index: INDEXES.teamMembersByMember, value: member.id, limit: 0 }),
    countMemberSpaces(ctx, member),
  ]);
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

/**
 * How many spaces a member can access, by the rules of permissions.ts (spaces/levels.ts): deleted
 * spaces never count; a guest counts only spaces granted to its teams. The organization's content is
 * read once per transaction (a page of members asks for it once per member).
 */
async function countMemberSpaces(ctx: Context, member: MemberRecord): Promise<number> {
  const organization = member.organizationId;
  const snapshot = await oncePerTransaction(ctx.tx, `content:${organization}`, () => contentSnapshot(ctx, organization));
  if (snapshot.spaces.length === 0) return 0;
  const grants = await grantsOf(ctx, member);
  if (grants.size > 0) return (await spacesOfMember(ctx, member, snapshot, grants)).length;
  // Without team grants the count depends only on the role: a page of members computes it once per role.
  return oncePerTransaction(ctx.tx, `content-count:${organization}:${member.role}`, async () => {
    return (await spacesOfMember(ctx, member, snapshot, grants)).length;
  });
}
