import type { Context } from './context.js';
import { forbidden, notFound } from './errors.js';
import { INDEXES, TABLES, memberId, type MemberRecord, type OrganizationRecord, type TeamMemberRecord } from './records.js';
import { roleAtLeast, type MemberRole } from './roles.js';

/**
 * The one place that decides who may do what. Operations call `require*` before acting, and the
 * `permissions` objects of responses are computed from the same rules, so what a response claims and
 * what an operation allows cannot drift apart.
 *
 * Organization rules (README, "API notes: who may do what"):
 * - any member, guests included, may view the organization;
 * - a member with a role (not a guest) may list members and teams;
 * - `create` and above may create content and OpenAPI specifications;
 * - `admin` manages the organization: settings, members, roles, invite links, teams, billing.
 * A team is managed by the organization's admins and by the team's owners.
 * Someone who is not a member gets 404 for everything in the organization; a member without the
 * needed role gets 403.
 */

/** An organization and the caller's membership of it. */
export interface OrganizationAccess {
  readonly organization: OrganizationRecord;
  readonly member: MemberRecord;
}

/** What a member may do in an organization, one rule per `permissions` key of the organization. */
export const ORGANIZATION_RULES = {
  view: () => true,
  admin: (member: MemberRecord) => member.role === 'admin',
  createContent: (member: MemberRecord) => roleAtLeast(member.role, 'create'),
  createOpenAPISpec: (member: MemberRecord) => roleAtLeast(member.role, 'create'),
  viewBilling: (member: MemberRecord) => member.role === 'admin',
  listMembers: (member: MemberRecord) => member.role !== null,
  listTeams: (member: MemberRecord) => member.role !== null,
  listIntegrations: (member: MemberRecord) => member.role !== null,
} satisfies Record<string, (member: MemberRecord) => boolean>;

/** A rule of ORGANIZATION_RULES. */
export type OrganizationAction = keyof typeof ORGANIZATION_RULES;

const NEEDS: Record<OrganizationAction, string> = {
  view: 'membership of the organization',
  admin: 'the admin role',
  createContent: 'the create role or above',
  createOpenAPISpec: 'the create role or above',
  viewBilling: 'the admin role',
  listMembers: 'a role in the organization (guests cannot)',
  listTeams: 'a role in the organization (guests cannot)',
  listIntegrations: 'a role in the organization (guests cannot)',
};

/** The caller's active membership of an organization, if any. */
export async function findMembership(ctx: Context, organizationId: string, userId = ctx.actor.user.id) {
  const member = (await ctx.tx.get(TABLES.members, memberId(organizationId, userId))) as MemberRecord | undefined;
  return member && !member.disabled ? member : undefined;
}

/** Loads an organization for the caller: 404 when it does not exist or the caller is not a member. */
export async function organizationAccess(ctx: Context, organizationId: string): Promise<OrganizationAccess> {
  const organization = (await ctx.tx.get(TABLES.organizations, organizationId)) as OrganizationRecord | undefined;
  const member = organization && (await findMembership(ctx, organizationId));
  if (!organization || !member) throw notFound(`No organization ${organizationId} found`);
  return { organization, member };
}

/** Loads an organization and checks that the caller may do `action` in it (404, then 403). */
export async function requireOrganization(
  ctx: Context,
  organizationId: string,
  action: OrganizationAction,
  doing: string,
): Promise<OrganizationAccess> {
  const access = await organizationAccess(ctx, organizationId);
  assertAllowed(access.member, action, doing);
  return access;
}

/** Throws 403 unless the member may do `action`. */
export function assertAllowed(member: MemberRecord, action: OrganizationAction, doing: string): void {
  if (!ORGANIZATION_RULES[action](member)) throw forbidden(`You need ${NEEDS[action]} to ${doing}`);
}

/** Whether the member owns at least one team of its organization. */
export async function ownsTeam(ctx: Context, member: MemberRecord): Promise<boolean> {
  const { count } = await ctx.tx.list(TABLES.teamMembers, {
    index: INDEXES.teamMembersByMember,
    value: member.id,
    limit: 0,
    where: (record) => (record as TeamMemberRecord).role === 'owner',
  });
  return count > 0;
}

/** The `permissions` object of an organization for a member (null: not a member, allowed nothing). */
export async function organizationPermissions(ctx: Context, member: MemberRecord | null) {
  const rules = Object.fromEntries(
    Object.entries(ORGANIZATION_RULES).map(([action, rule]) => [action, member !== null && rule(member)]),
  ) as Record<OrganizationAction, boolean>;
  return { ...rules, ownTeam: member !== null && (await ownsTeam(ctx, member)) };
}

/** The caller's role in a team, if it is in it. */
export async function teamRoleOf(ctx: Context, teamId: string, userId = ctx.actor.user.id) {
  const record = (await ctx.tx.get(TABLES.teamMembers, `${teamId}/${userId}`)) as TeamMemberRecord | undefined;
  return record?.role;
}

/** What a member may do with a team: admins and the team's owners manage it; members with a role view it. */
export function teamRules(member: MemberRecord, teamRole: string | undefined) {
  return {
    admin: member.role === 'admin' || teamRole === 'owner',
    view: ORGANIZATION_RULES.listTeams(member) || teamRole !== undefined,
  };
}

/** Throws 403 unless the member may manage the team. */
export function assertTeamAdmin(member: MemberRecord, teamRole: string | undefined, doing: string): void {
  if (!teamRules(member, teamRole).admin) throw forbidden(`You need the admin role or ownership of the team to ${doing}`);
}

/** Throws 403 unless the member may view the team. */
export function assertTeamView(member: MemberRecord, teamRole: string | undefined): void {
  if (!teamRules(member, teamRole).view) throw forbidden(`You need a role in the organization to view its teams`);
}

/** Whether `role` may be granted by a member: nobody grants more than they hold. */
export function canGrant(member: MemberRecord, role: MemberRole | null): boolean {
  return role === null || roleAtLeast(member.role, role);
}
