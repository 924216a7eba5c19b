import type { Context, WriteContext } from '../context.js';
import { badRequest } from '../errors.js';
import { findMembership } from '../permissions.js';
import { INDEXES, TABLES, memberId, teamMemberId, type TeamMemberRecord, type TeamRecord, type UserRecord } from '../records.js';
import type { TeamRole } from '../roles.js';

/**
 * Resolves entries naming organization members (user ids or e-mail addresses) to user ids, in order,
 * without repeats. An entry that names no member of the organization is a 400 naming it.
 */
export async function resolveMembers(ctx: Context, organizationId: string, entries: readonly string[], field: string) {
  const userIds: string[] = [];
  for (const entry of entries) {
    const userId = await resolveMember(ctx, organizationId, entry);
    if (userId === undefined) throw badRequest(`${field}: ${JSON.stringify(entry)} is not a member of the organization`);
    if (!userIds.includes(userId)) userIds.push(userId);
  }
  return userIds;
}

async function resolveMember(ctx: Context, organizationId: string, entry: string): Promise<string | undefined> {
  let userId: string | undefined = entry;
  if (entry.includes('@')) {
    const { items } = await ctx.tx.list(TABLES.users, { index: INDEXES.usersByEmail, value: entry.toLowerCase(), limit: 1 });
    userId = (items[0] as UserRecord | undefined)?.id;
  }
  return userId !== undefined && (await findMembership(ctx, organizationId, userId)) ? userId : undefined;
}

/**
 * Applies a change to a team's members: every user of `upserts` joins the team or takes the given role
 * (undefined keeps its role, or makes a newcomer a `member`); every user of `removes` leaves it.
 * A user in both ends up removed.
 */
export async function applyTeamMembership(
  ctx: WriteContext,
  team: TeamRecord,
  upserts: ReadonlyMap<string, TeamRole | undefined>,
  removes: ReadonlySet<string>,
): Promise<void> {
  for (const [userId, role] of upserts) {
    if (removes.has(userId)) continue;
    const id = teamMemberId(team.id, userId);
    const existing = (await ctx.tx.get(TABLES.teamMembers, id)) as TeamMemberRecord | undefined;
    if (existing && (role === undefined || role === existing.role)) continue;
    const record: TeamMemberRecord = existing
      ? { ...existing, role: role! }
      : {
          id,
          teamId: team.id,
          organizationId: team.organizationId,
          userId,
          memberId: memberId(team.organizationId, userId),
          role: role ?? 'member',
          addedAt: ctx.now,
        };
    await ctx.tx.put(TABLES.teamMembers, record);
  }
  for (const userId of removes) await ctx.tx.delete(TABLES.teamMembers, teamMemberId(team.id, userId));
}
