import * as v from 'valibot';
import { listQuery, mapPage, pageOf } from '../pagination.js';
import { readOperation } from '../operation.js';
import { findMembership, requireOrganization } from '../permissions.js';
import { INDEXES, TABLES, type TeamMemberRecord, type TeamRecord } from '../records.js';
import { Id } from '../schemas.js';
import { presentTeam } from './present.js';
import { TeamList } from './schemas.js';

/**
 * Lists the teams of an organization, oldest first. `owner` keeps the teams that member can manage
 * (all of them for an admin, the teams it owns otherwise); `title` keeps titles that contain it,
 * case-insensitively.
 */
export const listTeams = readOperation({
  name: 'listTeams',
  summary: 'List the teams of an organization',
  params: { organizationId: Id },
  query: {
    ...listQuery,
    owner: v.optional(Id),
    title: v.optional(v.pipe(v.string(), v.maxLength(64, 'must be at most 64 characters'))),
  },
  response: TeamList,
  async run(ctx, input) {
    const { organizationId, owner, title } = input;
    const { member: caller } = await requireOrganization(ctx, organizationId, 'listTeams', 'list its teams');
    const managed = owner === undefined ? undefined : await teamsManagedBy(ctx, organizationId, owner);
    const needle = title?.toLowerCase();
    const where =
      managed === undefined && !needle
        ? undefined
        : (record: unknown) => {
            const team = record as TeamRecord;
            if (managed !== undefined && managed !== 'all' && !managed.has(team.id)) return false;
            return !needle || team.title.toLowerCase().includes(needle);
          };
    const page = await pageOf(ctx.tx, TABLES.teams, { index: INDEXES.teamsByOrganization, value: organizationId, where }, input);
    return mapPage(page, (team) => presentTeam(ctx, team as TeamRecord, caller));
  },
});

/** The teams a member can manage: 'all' for an admin, the ones it owns otherwise (none for a stranger). */
async function teamsManagedBy(ctx: Parameters<typeof findMembership>[0], organizationId: string, userId: string) {
  const member = await findMembership(ctx, organizationId, userId);
  if (!member) return new Set<string>();
  if (member.role === 'admin') return 'all' as const;
  const { items } = await ctx.tx.list(TABLES.teamMembers, { index: INDEXES.teamMembersByMemberRole, value: member.id, prefix: ['owner'] });
  return new Set(items.map((record) => (record as TeamMemberRecord).teamId));
}
