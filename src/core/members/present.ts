import type * as v from 'valibot';
import type { StoredRecord } from '../../store/types.js';
import type { Context } from '../context.js';
import { oncePerTransaction } from '../per-transaction.js';
import { INDEXES, TABLES, type MemberRecord } from '../records.js';
import { loadUser, presentUser } from '../users/present.js';
import type { MemberSchema } from './schemas.js';

/** The member object of responses, with its counts computed now. */
export async function presentMember(ctx: Context, member: MemberRecord): Promise<v.InferInput<typeof MemberSchema>> {
  const user = await loadUser(ctx, member.userId);
  const teams = await ctx.tx.list(TABLES.teamMembers, { index: INDEXES.teamMembersByMember, value: member.id, limit: 0 });
  return {
    object: 'member',
    id: member.userId,
    role: member.role,
    user: presentUser(ctx, user),
    disabled: member.disabled,
    joinedAt: member.joinedAt,
    ...(member.lastSeenAt !== undefined && { lastSeenAt: member.lastSeenAt }),
    sso: member.sso,
    spaces: await countMemberSpaces(ctx, member),
    teams: teams.count,
  };
}

const notDeleted = (space: StoredRecord) => space.deletedAt === undefined;

/**
 * How many spaces a member can access: a member with a role reaches every space of the organization
 * that is not deleted; a guest only spaces shared with it directly, which the spaces area adds.
 */
function countMemberSpaces(ctx: Context, member: MemberRecord): Promise<number> {
  if (member.role === null) return Promise.resolve(0);
  return oncePerTransaction(ctx.tx, `live-spaces:${member.organizationId}`, async () => {
    const query = { index: INDEXES.spacesByOrganization, value: member.organizationId, limit: 0, where: notDeleted };
    return (await ctx.tx.list(TABLES.spaces, query)).count;
  });
}
