import type * as v from 'valibot';
import type { Context } from '../context.js';
import { notFound } from '../errors.js';
import { teamRoleOf, teamRules } from '../permissions.js';
import { INDEXES, TABLES, type MemberRecord, type TeamRecord } from '../records.js';
import type { TeamSchema } from './schemas.js';

/** The team object of responses, with its counts and the caller's permissions computed now. */
export async function presentTeam(ctx: Context, team: TeamRecord, caller: MemberRecord): Promise<v.InferInput<typeof TeamSchema>> {
  const [members, spaces, role] = await Promise.all([
    ctx.tx.list(TABLES.teamMembers, { index: INDEXES.teamMembersByTeam, value: team.id, limit: 0 }),
    ctx.tx.list(TABLES.spaceGrants, { index: INDEXES.spaceGrantsByTeam, value: team.id, limit: 0 }),
    teamRoleOf(ctx, team.id, caller.userId),
  ]);
  return {
    object: 'team',
    id: team.id,
    title: team.title,
    members: members.count,
    spaces: spaces.count,
    createdAt: team.createdAt,
    permissions: teamRules(caller, role),
  };
}

/** Loads a team of an organization, or 404. */
export async function loadTeam(ctx: Context, organizationId: string, teamId: string): Promise<TeamRecord> {
  const team = (await ctx.tx.get(TABLES.teams, teamId)) as TeamRecord | undefined;
  if (!team || team.organizationId !== organizationId) throw notFound(`No team ${teamId} in organization ${organizationId}`);
  return team;
}
