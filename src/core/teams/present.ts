import type * as v from 'valibot';
import type { Context } from '../context.js';
import { notFound } from '../errors.js';
import { teamRoleOf, teamRules } from '../permissions.js';
import { INDEXES, TABLES, type MemberRecord, type TeamRecord } from '../records.js';
import type { TeamRole } from '../roles.js';
import type { TeamSchema } from './schemas.js';

/** The team object of responses, with its counts and the caller's permissions computed now. */
export async function presentTeam(ctx: Context, team: TeamRecord, caller: MemberRecord): Promise<v.InferInput<typeof TeamSchema>> {
  const [members, spaces, role] = await Promise.all([
    ctx.tx.list(TABLES.teamMembers, { index: INDEXES.teamMembersByTeam, value: team.id, limit: 0 }),
    ctx.tx.list(TABLES.spaceGrants, { index: INDEXES.spaceGrantsByTeam, value: team.id, limit: 0 }),
    teamRoleOf(ctx, team.id, caller.userId),
  ]);
  return teamObject(team, caller, { members: members.count, spaces: spaces.count, role });
}

/** What presenting a team reads: its counts and the caller's role in it. */
export interface TeamFigures {
  readonly members: number;
  readonly spaces: number;
  readonly role: TeamRole | undefined;
}

/**
 * The team object of responses from figures already known: a team created in this transaction has no
 * members but the ones it added and no spaces, so its operation answers without reading them back.
 */
export function teamObject(team: TeamRecord, caller: MemberRecord, figures: TeamFigures): v.InferInput<typeof TeamSchema> {
  return {
    object: 'team',
    id: team.id,
    title: team.title,
    members: figures.members,
    spaces: figures.spaces,
    createdAt: team.createdAt,
    permissions: teamRules(caller, figures.role),
  };
}

/** Loads a team of an organization, or 404. */
export async function loadTeam(ctx: Context, organizationId: string, teamId: string): Promise<TeamRecord> {
  const team = (await ctx.tx.get(TABLES.teams, teamId)) as TeamRecord | undefined;
  if (!team || team.organizationId !== organizationId) throw notFound(`No team ${teamId} in organization ${organizationId}`);
  return team;
}
