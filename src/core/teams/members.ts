import * as v from 'valibot';
import { notFound } from '../errors.js';
import { listQuery, mapPage, pageOf, pageOfArray } from '../pagination.js';
import { readOperation, writeOperation } from '../operation.js';
import { assertAllowed, assertTeamAdmin, assertTeamView, findMembership, organizationAccess, teamRoleOf } from '../permissions.js';
import { INDEXES, TABLES, memberId, teamMemberId, type MemberRecord, type TeamMemberRecord, type TeamRecord } from '../records.js';
import type { TeamRole } from '../roles.js';
import { Id, TeamRoleSchema } from '../schemas.js';
import { presentMember } from '../members/present.js';
import { loadMember } from '../members/get.js';
import { applyTeamMembership, resolveMembers } from './membership.js';
import { loadTeam, presentTeam } from './present.js';
import { MemberTeamList, TeamMemberList } from './schemas.js';

/** A list of user ids or e-mail addresses in a bulk update. */
const MemberRefs = v.pipe(v.array(v.pipe(v.string(), v.minLength(1, 'entries must not be empty'))), v.maxLength(1000, 'must have at most 1000 entries'));

/** Lists a team's members, in the order they joined it. */
export const listTeamMembers = readOperation({
  name: 'listTeamMembers',
  summary: 'List the members of a team',
  params: { organizationId: Id, teamId: Id },
  query: listQuery,
  response: TeamMemberList,
  async run(ctx, input) {
    const { organizationId, teamId } = input;
    const { member: caller } = await organizationAccess(ctx, organizationId);
    const team = await loadTeam(ctx, organizationId, teamId);
    assertTeamView(caller, await teamRoleOf(ctx, teamId));
    const page = await pageOf(ctx.tx, TABLES.teamMembers, { index: INDEXES.teamMembersByTeam, value: team.id }, input);
    return mapPage(page, async (record) => {
      const place = record as TeamMemberRecord;
      const member = (await ctx.tx.get(TABLES.members, place.memberId)) as MemberRecord;
      return { organization: await presentMember(ctx, member), team: { role: place.role }, permissions: { view: true } };
    });
  },
});

/**
 * Adds, removes and re-roles a team's members in one atomic step. Entries are user ids or e-mail
 * addresses of organization members. `memberships` sets roles (and adds the users it names); a user
 * in both `add` and `remove` (or `memberships` and `remove`) ends up removed.
 */
export const updateTeamMembers = writeOperation({
  name: 'updateTeamMembers',
  summary: 'Add, remove and change the roles of the members of a team',
  params: { organizationId: Id, teamId: Id },
  body: {
    add: v.optional(MemberRefs),
    remove: v.optional(MemberRefs),
    memberships: v.optional(v.record(v.pipe(v.string(), v.minLength(1)), v.object({ role: TeamRoleSchema }))),
  },
  response: null,
  async run(ctx, { organizationId, teamId, add = [], remove = [], memberships = {} }) {
    const { member: caller } = await organizationAccess(ctx, organizationId);
    const team = await loadTeam(ctx, organizationId, teamId);
    assertTeamAdmin(caller, await teamRoleOf(ctx, teamId), "change the team's members");
    const removes = new Set(await resolveMembers(ctx, organizationId, remove, 'remove'));
    const upserts = new Map<string, TeamRole | undefined>();
    for (const userId of await resolveMembers(ctx, organizationId, add, 'add')) upserts.set(userId, undefined);
    for (const [entry, { role }] of Object.entries(memberships)) {
      const [userId] = await resolveMembers(ctx, organizationId, [entry], 'memberships');
      upserts.set(userId, role);
    }
    await applyTeamMembership(ctx, team, upserts, removes);
  },
});

/** Adds one member to a team, or changes its role there (default `member` for a newcomer). */
export const addTeamMember = writeOperation({
  name: 'addTeamMember',
  summary: 'Add a member to a team or change its role in it',
  params: { organizationId: Id, teamId: Id, userId: Id },
  body: { role: v.optional(TeamRoleSchema) },
  response: null,
  async run(ctx, { organizationId, teamId, userId, role }) {
    const { member: caller } = await organizationAccess(ctx, organizationId);
    const team = await loadTeam(ctx, organizationId, teamId);
    assertTeamAdmin(caller, await teamRoleOf(ctx, teamId), "change the team's members");
    // The path names one member: someone who is not one is a missing resource (404), as with DELETE.
    const member = await loadMember(ctx, organizationId, userId);
    await applyTeamMembership(ctx, team, new Map([[member.userId, role]]), new Set());
  },
});

/** Removes a member from a team; team admins remove anyone, and every member may leave a team. */
export const removeTeamMember = writeOperation({
  name: 'removeTeamMember',
  summary: 'Remove a member from a team',
  params: { organizationId: Id, teamId: Id, userId: Id },
  response: null,
  async run(ctx, { organizationId, teamId, userId }) {
    const { member: caller } = await organizationAccess(ctx, organizationId);
    const team = await loadTeam(ctx, organizationId, teamId);
    if (userId !== caller.userId) assertTeamAdmin(caller, await teamRoleOf(ctx, teamId), "change the team's members");
    const removed = await ctx.tx.delete(TABLES.teamMembers, teamMemberId(team.id, userId));
    if (!removed) throw notFound(`User ${userId} is not a member of team ${teamId}`);
  },
});

/** Lists the teams a member belongs to, with its role in each; `title` filters case-insensitively. */
export const listMemberTeams = readOperation({
  name: 'listMemberTeams',
  summary: 'List the teams of a member of an organization',
  params: { organizationId: Id, userId: Id },
  query: { ...listQuery, title: v.optional(v.pipe(v.string(), v.maxLength(64, 'must be at most 64 characters'))) },
  response: MemberTeamList,
  async run(ctx, input) {
    const { organizationId, userId, title } = input;
    const { member: caller } = await organizationAccess(ctx, organizationId);
    if (userId !== caller.userId) assertAllowed(caller, 'listTeams', "list other members' teams");
    const member = await loadMember(ctx, organizationId, userId);
    const query = { index: INDEXES.teamMembersByMember, value: member.id };
    const entry = async (place: TeamMemberRecord, team?: TeamRecord) => ({
      team: await presentTeam(ctx, team ?? ((await ctx.tx.get(TABLES.teams, place.teamId)) as TeamRecord), caller),
      member: { role: place.role },
    });
    if (!title) {
      const page = await pageOf(ctx.tx, TABLES.teamMembers, query, input);
      return mapPage(page, (record) => entry(record as TeamMemberRecord));
    }
    // The title lives on the team: join, filter, then page with the same cursor as the index.
    const needle = title.toLowerCase();
    const joined: { place: TeamMemberRecord; team: TeamRecord }[] = [];
    for (const record of (await ctx.tx.list(TABLES.teamMembers, query)).items) {
      const place = record as TeamMemberRecord;
      const team = (await ctx.tx.get(TABLES.teams, place.teamId)) as TeamRecord;
      if (team.title.toLowerCase().includes(needle)) joined.push({ place, team });
    }
    const page = pageOfArray(joined, ({ place }) => [place.addedAt, place.id], input);
    return mapPage(page, ({ place, team }) => entry(place, team));
  },
});
