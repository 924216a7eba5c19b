import type { IndexDefinition, StoredRecord } from '../store/types.js';
import type { MemberRole, TeamRole } from './roles.js';

/**
 * The records docs-platform stores, one interface per table, and the indexes the core reads them by.
 * Records hold facts only; counts and permissions are computed when a response is built.
 */

/** A person who can sign in. E-mail addresses are stored lower-cased and are unique. */
export interface UserRecord extends StoredRecord {
  readonly id: string;
  readonly displayName: string;
  readonly email: string;
  readonly photoURL?: string;
  readonly createdAt: string;
}

/** An organization and its settings. */
export interface OrganizationRecord extends StoredRecord {
  readonly id: string;
  readonly title: string;
  readonly createdAt: string;
  readonly emailDomains: readonly string[];
  readonly hostname?: string;
  readonly defaultRole: MemberRole | null;
  readonly defaultContent?: { readonly type: 'site'; readonly site: string };
  readonly logo?: string;
  readonly sso: boolean;
  readonly ai: boolean;
  readonly inviteLinks: boolean;
}

/** A user's membership of an organization; id is `<organizationId>/<userId>`. */
export interface MemberRecord extends StoredRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly userId: string;
  readonly role: MemberRole | null;
  readonly disabled: boolean;
  readonly sso: boolean;
  readonly joinedAt: string;
  readonly lastSeenAt?: string;
}

/** An API token; id is the SHA-256 hash of the secret, which is never stored. */
export interface TokenRecord extends StoredRecord {
  readonly id: string;
  readonly userId: string;
  readonly createdAt: string;
  readonly label: string;
}

/** A team of an organization. */
export interface TeamRecord extends StoredRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly title: string;
  readonly createdAt: string;
}

/** A member's place in a team; id is `<teamId>/<userId>`; memberId is the MemberRecord id. */
export interface TeamMemberRecord extends StoredRecord {
  readonly id: string;
  readonly teamId: string;
  readonly organizationId: string;
  readonly userId: string;
  readonly memberId: string;
  readonly role: TeamRole;
  readonly addedAt: string;
}

/** An invite link that lets any signed-in user who has it join an organization with a role. */
export interface InviteRecord extends StoredRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly role: MemberRole | null;
  readonly createdAt: string;
  readonly createdBy: string;
}

/** An index entry: organization `organizationId` claims e-mail `domain`; id is `<domain>/<organizationId>`. */
export interface OrganizationDomainRecord extends StoredRecord {
  readonly id: string;
  readonly domain: string;
  readonly organizationId: string;
}

/** Settings of the platform itself, e.g. the key that signs visitor claims. */
export interface SettingRecord extends StoredRecord {
  readonly id: string;
  readonly value: string;
}

/** The table of each kind of record. */
export const TABLES = {
  users: 'users',
  organizations: 'organizations',
  members: 'members',
  tokens: 'tokens',
  teams: 'teams',
  teamMembers: 'teamMembers',
  invites: 'invites',
  organizationDomains: 'organizationDomains',
  settings: 'settings',
  sites: 'sites',
  spaces: 'spaces',
  spaceGrants: 'spaceGrants',
} as const;

/** Shorthand for an index definition. */
const index = (by: string, ...order: string[]): IndexDefinition => ({ by, order });

/** The indexes the core lists records by. */
export const INDEXES = {
  usersByEmail: index('email'),
  membersByOrganization: index('organizationId', 'joinedAt'),
  membersByOrganizationLastSeen: index('organizationId', 'lastSeenAt'),
  membersByUser: index('userId', 'joinedAt'),
  teamsByOrganization: index('organizationId', 'createdAt'),
  teamMembersByTeam: index('teamId', 'addedAt'),
  teamMembersByMember: index('memberId', 'addedAt'),
  invitesByOrganization: index('organizationId', 'createdAt'),
  organizationDomainsByDomain: index('domain'),
  spacesByOrganization: index('organizationId', 'createdAt'),
  spaceGrantsByTeam: index('teamId', 'createdAt'),
} as const;

/** The id of a member record. */
export const memberId = (organizationId: string, userId: string) => `${organizationId}/${userId}`;
/** The id of a team member record. */
export const teamMemberId = (teamId: string, userId: string) => `${teamId}/${userId}`;
