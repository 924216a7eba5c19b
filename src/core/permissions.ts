import type { Context } from './context.js';
import { forbidden, notFound } from './errors.js';
import { INDEXES, TABLES, memberId, type MemberRecord, type OrganizationRecord, type TeamMemberRecord } from './records.js';
import { roleAtLeast, roleRank, type MemberRole } from './roles.js';

/**
 * The one place that decides who may do what. Operations call `require*` before acting, and the
 * `permissions` objects of responses are computed from the same rules, so what a response claims and
 * what an operation allows cannot drift apart.
 *
 * Organization rules (docs/api-notes.md, "who may do what"):
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
export async function findMembership(ctx: Context, organizationId: string, userId = ctx.actor.userId) {
  const member = (await ctx.tx.get(TABLES.members, memberId(organizationId, userId))) as MemberRecord | undefined;
  return member && !member.disabled ? member : undefined;
}

/** Loads an organization for the caller: 404 when it does not exist or the caller is not a member. */
export async function organizationAccess(ctx: Context, organizationId: string): Promise<OrganizationAccess> {
  // Read together: a store that talks to a database makes them one round trip.
  const [organization, member] = await Promise.all([
    ctx.tx.get(TABLES.organizations, organizationId) as Promise<OrganizationRecord | undefined>,
    findMembership(ctx, organizationId),
  ]);
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
  const { count } = await ctx.tx.list(TABLES.teamMembers, { index: INDEXES.teamMembersByMemberRole, value: member.id, prefix: ['owner'], limit: 0 });
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
export async function teamRoleOf(ctx: Context, teamId: string, userId = ctx.actor.userId) {
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

/**
 * What a member may do with an organization's settings objects: SAML providers, translation settings
 * and custom fields (their `permissions.view` and `permissions.edit`). Members with a role view them, as
 * they list members and teams; only admins change them, as they change the organization.
 */
export const SETTINGS_RULES = {
  view: (member: MemberRecord) => member.role !== null,
  edit: (member: MemberRecord) => member.role === 'admin',
} satisfies Record<string, (member: MemberRecord) => boolean>;

/** Loads an organization and checks that the caller may view (`view`) or change (`edit`) its settings objects (404, then 403). */
export async function requireSettings(ctx: Context, organizationId: string, action: keyof typeof SETTINGS_RULES, doing: string) {
  const access = await organizationAccess(ctx, organizationId);
  if (!SETTINGS_RULES[action](access.member)) {
    throw forbidden(`You need ${action === 'edit' ? 'the admin role' : 'a role in the organization (guests cannot)'} to ${doing}`);
  }
  return access;
}

/** The `permissions` object ({view, edit}) of a settings object for a member. */
export function settingsPermissions(member: MemberRecord) {
  return { view: SETTINGS_RULES.view(member), edit: SETTINGS_RULES.edit(member) };
}

/**
 * What a member may do with the organization's OpenAPI specifications (their `permissions.view` and
 * `permissions.edit`): members with a role read them and their versions, as they read the organization's
 * other shared objects; `create` and above create, update and delete them (`createOpenAPISpec`).
 */
export const OPENAPI_SPEC_RULES = {
  view: (member: MemberRecord) => member.role !== null,
  edit: (member: MemberRecord) => ORGANIZATION_RULES.createOpenAPISpec(member),
} satisfies Record<string, (member: MemberRecord) => boolean>;

/** Loads an organization and checks that the caller may view or edit its OpenAPI specifications (404, then 403). */
export async function requireOpenAPISpecs(ctx: Context, organizationId: string, action: keyof typeof OPENAPI_SPEC_RULES, doing: string) {
  const access = await organizationAccess(ctx, organizationId);
  if (!OPENAPI_SPEC_RULES[action](access.member)) {
    throw forbidden(`You need ${action === 'edit' ? NEEDS.createOpenAPISpec : NEEDS.listMembers} to ${doing}`);
  }
  return access;
}

/** The `permissions` object ({view, edit}) of an OpenAPI specification for a member. */
export function openAPISpecPermissions(member: MemberRecord) {
  return { view: OPENAPI_SPEC_RULES.view(member), edit: OPENAPI_SPEC_RULES.edit(member) };
}

/**
 * What a member may do with the organization's sites (docs/api-notes.md, "Sites"). Sites have no
 * members of their own here, so organization roles decide, after the public API's site permissions:
 * members with a role read sites, their structure, adaptive schema and published content; `create`
 * and above create sites and shape their structure (sections, groups, site spaces: the public API's
 * site `create`); `admin`s change a site's settings, publish, unpublish and delete it and set its
 * adaptive schema (site `admin`, `editAdaptiveSchema`).
 */
export const SITE_RULES = {
  view: (member: MemberRecord) => member.role !== null,
  structure: (member: MemberRecord) => roleAtLeast(member.role, 'create'),
  admin: (member: MemberRecord) => member.role === 'admin',
} satisfies Record<string, (member: MemberRecord) => boolean>;

/** A rule of SITE_RULES. */
export type SiteAction = keyof typeof SITE_RULES;

const SITE_NEEDS: Record<SiteAction, string> = {
  view: NEEDS.listMembers,
  structure: 'the create role or above',
  admin: 'the admin role',
};

/** Throws 403 unless the member may do the site rule `action`. */
export function assertSiteAllowed(member: MemberRecord, action: SiteAction, doing: string): void {
  if (!SITE_RULES[action](member)) throw forbidden(`You need ${SITE_NEEDS[action]} to ${doing}`);
}

/** Loads an organization and checks that the caller may do the site rule `action` in it (404, then 403). */
export async function requireSites(ctx: Context, organizationId: string, action: SiteAction, doing: string): Promise<OrganizationAccess> {
  const access = await organizationAccess(ctx, organizationId);
  assertSiteAllowed(access.member, action, doing);
  return access;
}

/**
 * Spaces and collections (docs/api-notes.md, "spaces and collections, who may do what").
 * A member's level on an item is:
 * - `admin` for the organization's admins, everywhere;
 * - otherwise the item's default level (its own `defaultLevel`, else its collection's, up the chain;
 *   the top of the organization stands for `admin`, so content that sets nothing gives each member its
 *   own role) capped by the member's organization role: a guest (null) gets nothing by default;
 * - raised by a team grant on a space (given directly, so not capped): the higher level wins.
 * What each level allows is in SPACE_NEEDS and COLLECTION_NEEDS; `live` rules also need the space's
 * `editMode` to be `live`.
 */

/** The level content stands for at the top of an organization, where nothing above it sets one. */
export const TOP_LEVEL_DEFAULT: MemberRole = 'admin';

/** The higher of two levels (null: none). */
export function higherLevel(a: MemberRole | null, b: MemberRole | null): MemberRole | null {
  return roleRank(a) >= roleRank(b) ? a : b;
}

/** A member's level on an item from its organization role, the item's effective default level and any grant. */
export function contentLevel(role: MemberRole | null, defaultLevel: MemberRole | null, granted: MemberRole | null = null): MemberRole | null {
  if (role === 'admin') return 'admin';
  const byDefault = role === null || defaultLevel === null ? null : roleRank(role) <= roleRank(defaultLevel) ? role : defaultLevel;
  return higherLevel(byDefault, granted);
}

/** What a rule needs: a level, and for content changes a space whose `editMode` is `live`. */
interface Need {
  readonly role: MemberRole;
  readonly live?: boolean;
}

/** The level each `permissions` key of a space needs. */
export const SPACE_NEEDS = {
  view: { role: 'read' },
  access: { role: 'read' },
  admin: { role: 'create' },
  viewInviteLinks: { role: 'create' },
  edit: { role: 'edit', live: true },
  triggerGitSync: { role: 'edit', live: true },
  comment: { role: 'comment' },
  merge: { role: 'review', live: true },
  review: { role: 'review' },
} satisfies Record<string, Need>;

/** A rule of SPACE_NEEDS. */
export type SpaceAction = keyof typeof SPACE_NEEDS;

/** The level each `permissions` key of a collection needs. */
export const COLLECTION_NEEDS = {
  view: { role: 'read' },
  admin: { role: 'create' },
  viewInviteLinks: { role: 'create' },
  create: { role: 'create' },
} satisfies Record<string, Need>;

/** A rule of COLLECTION_NEEDS. */
export type CollectionAction = keyof typeof COLLECTION_NEEDS;

const LEVEL_NAMES: Record<MemberRole, string> = {
  admin: 'the admin level',
  create: 'the create level or above',
  review: 'the review level or above',
  edit: 'the edit level or above',
  comment: 'the comment level or above',
  read: 'access',
};

/** The `permissions` object of a space for a caller with `level` on it. */
export function spacePermissions(level: MemberRole | null, editMode: 'live' | 'locked') {
  const allowed = (need: Need) => roleAtLeast(level, need.role) && (!need.live || editMode === 'live');
  return Object.fromEntries(Object.entries(SPACE_NEEDS).map(([action, need]) => [action, allowed(need)])) as Record<SpaceAction, boolean>;
}

/** The `permissions` object of a collection for a caller with `level` on it. */
export function collectionPermissions(level: MemberRole | null) {
  return Object.fromEntries(
    Object.entries(COLLECTION_NEEDS).map(([action, need]) => [action, roleAtLeast(level, need.role)]),
  ) as Record<CollectionAction, boolean>;
}

/** Throws 403 unless `level` is enough for the space rule `action` (the `live` part is checked by the caller). */
export function assertSpaceLevel(level: MemberRole | null, action: SpaceAction, what: string, doing: string): void {
  const need: Need = SPACE_NEEDS[action];
  if (!roleAtLeast(level, need.role)) throw forbidden(`You need ${LEVEL_NAMES[need.role]} on ${what} to ${doing}`);
}

/** Throws 403 unless `level` is enough for the collection rule `action`. */
export function assertCollectionLevel(level: MemberRole | null, action: CollectionAction, what: string, doing: string): void {
  const need: Need = COLLECTION_NEEDS[action];
  if (!roleAtLeast(level, need.role)) throw forbidden(`You need ${LEVEL_NAMES[need.role]} on ${what} to ${doing}`);
}

/**
 * Comments and replies (docs/api-notes.md, "comments"), after the public API: whoever may view a space
 * reads its discussions; the `comment` level and above post, reply and react (`reply`: "react or send a
 * reply"); the author, while still at the `comment` level, or a space admin (the space's `admin` rule)
 * edits, resolves, reopens and deletes (`edit`, `delete`).
 */
export function commentPermissions(level: MemberRole | null, isAuthor: boolean) {
  const mayComment = roleAtLeast(level, SPACE_NEEDS.comment.role);
  const manages = (isAuthor && mayComment) || roleAtLeast(level, SPACE_NEEDS.admin.role);
  return { view: roleAtLeast(level, SPACE_NEEDS.view.role), edit: manages, reply: mayComment, delete: manages };
}

/** A rule of commentPermissions. */
export type CommentAction = keyof ReturnType<typeof commentPermissions>;

/** Throws 403 unless a caller with `level` (the author of the comment or reply, or not) may do `action` to it. */
export function assertCommentAllowed(level: MemberRole | null, isAuthor: boolean, action: CommentAction, what: string, doing: string): void {
  if (commentPermissions(level, isAuthor)[action]) return;
  if (action === 'edit' || action === 'delete') {
    throw forbidden(`Only its author (at ${LEVEL_NAMES.comment}) or an admin of the space (${LEVEL_NAMES[SPACE_NEEDS.admin.role]}) may ${doing}`);
  }
  throw forbidden(`You need ${LEVEL_NAMES[action === 'view' ? 'read' : 'comment']} on ${what} to ${doing}`);
}
