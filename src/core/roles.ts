/** Member roles, strongest first: each includes everything the roles after it can do. */
export const MEMBER_ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;

/** A member's role in an organization. `null` (a guest) sees only what it was given directly. */
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** Roles within a team. */
export const TEAM_ROLES = ['owner', 'member'] as const;

/** A member's role within a team: owners manage the team's members. */
export type TeamRole = (typeof TEAM_ROLES)[number];

/** The strength of a role: admin 6 down to read 1; a guest (null) is 0. */
export function roleRank(role: MemberRole | null | undefined): number {
  if (!role) return 0;
  return MEMBER_ROLES.length - MEMBER_ROLES.indexOf(role);
}

/** Whether `role` includes everything `required` may do. */
export function roleAtLeast(role: MemberRole | null | undefined, required: MemberRole): boolean {
  return roleRank(role) >= roleRank(required);
}
