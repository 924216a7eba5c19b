import * as v from 'valibot';
import { readOperation, writeOperation } from '../operation.js';
import { assertTeamAdmin, assertTeamView, organizationAccess, requireOrganization, teamRoleOf } from '../permissions.js';
import { INDEXES, TABLES, type TeamRecord } from '../records.js';
import { Id } from '../schemas.js';
import { assertNotDefaultTeam } from '../sso/default-team.js';
import { applyTeamMembership, resolveMembers } from './membership.js';
import { loadTeam, presentTeam, teamObject } from './present.js';
import { TeamSchema, TeamTitle } from './schemas.js';

/** Creates a team, optionally with members (user ids of organization members); admins only. */
export const createTeam = writeOperation({
  name: 'createTeam',
  summary: 'Create a team in an organization',
  params: { organizationId: Id },
  body: {
    title: TeamTitle,
    members: v.optional(v.pipe(v.array(Id), v.maxLength(1000, 'must have at most 1000 entries'))),
  },
  response: TeamSchema,
  async run(ctx, { organizationId, title, members = [] }) {
    const { member: caller } = await requireOrganization(ctx, organizationId, 'admin', 'create teams');
    const team: TeamRecord = { id: ctx.ids.id(), organizationId, title, createdAt: ctx.now };
    await ctx.tx.insert(TABLES.teams, team);
    const users = await resolveMembers(ctx, organizationId, members, 'members');
    await applyTeamMembership(ctx, team, new Map(users.map((userId) => [userId, 'member' as const])), new Set());
    // New: its members are the ones just added, its spaces none (nothing to read back).
    return teamObject(team, caller, { members: users.length, spaces: 0, role: users.includes(caller.userId) ? 'member' : undefined });
  },
});

/** Gets a team. */
export const getTeam = readOperation({
  name: 'getTeam',
  summary: 'Get a team of an organization',
  params: { organizationId: Id, teamId: Id },
  response: TeamSchema,
  async run(ctx, { organizationId, teamId }) {
    const { member: caller } = await organizationAccess(ctx, organizationId);
    const team = await loadTeam(ctx, organizationId, teamId);
    assertTeamView(caller, await teamRoleOf(ctx, teamId));
    return presentTeam(ctx, team, caller);
  },
});

/** Renames a team; its admins and owners only. */
export const updateTeam = writeOperation({
  name: 'updateTeam',
  summary: 'Update a team',
  params: { organizationId: Id, teamId: Id },
  body: { title: TeamTitle },
  response: TeamSchema,
  async run(ctx, { organizationId, teamId, title }) {
    const { member: caller } = await organizationAccess(ctx, organizationId);
    const team = await loadTeam(ctx, organizationId, teamId);
    assertTeamAdmin(caller, await teamRoleOf(ctx, teamId), 'rename the team');
    const updated: TeamRecord = { ...team, title };
    await ctx.tx.put(TABLES.teams, updated);
    return presentTeam(ctx, updated, caller);
  },
});

/** Deletes a team and its memberships (the members stay in the organization). */
export const deleteTeam = writeOperation({
  name: 'deleteTeam',
  summary: 'Delete a team',
  params: { organizationId: Id, teamId: Id },
  response: null,
  async run(ctx, { organizationId, teamId }) {
    const { member: caller } = await organizationAccess(ctx, organizationId);
    const team = await loadTeam(ctx, organizationId, teamId);
    assertTeamAdmin(caller, await teamRoleOf(ctx, teamId), 'delete the team');
    await assertNotDefaultTeam(ctx, team.id);
    const { items } = await ctx.tx.list(TABLES.teamMembers, { index: INDEXES.teamMembersByTeam, value: team.id });
    for (const record of items) await ctx.tx.delete(TABLES.teamMembers, record.id);
    const grants = await ctx.tx.list(TABLES.spaceGrants, { index: INDEXES.spaceGrantsByTeam, value: team.id });
    for (const record of grants.items) await ctx.tx.delete(TABLES.spaceGrants, record.id);
    await ctx.tx.delete(TABLES.teams, team.id);
  },
});
