import * as v from 'valibot';
import { listSchema } from '../pagination.js';
import { TeamRoleSchema, Timestamp } from '../schemas.js';
import { MemberSchema } from '../members/schemas.js';

/** A team's title: 1 to 64 characters. */
export const TeamTitle = v.pipe(v.string(), v.minLength(1, 'must be 1 to 64 characters'), v.maxLength(64, 'must be 1 to 64 characters'));

/** The team object of responses. */
export const TeamSchema = v.object({
  object: v.literal('team'),
  id: v.string(),
  title: v.string(),
  // A count: a whole number, as in the public API (integer there).
  members: v.pipe(v.number(), v.integer()),
  spaces: v.number(),
  createdAt: Timestamp,
  permissions: v.object({ admin: v.boolean(), view: v.boolean() }),
});

/** A list of teams. */
export const TeamList = listSchema(TeamSchema);

/** A team's member: the organization member, its role in the team, and what the caller may do. */
export const TeamMemberEntry = v.object({
  organization: MemberSchema,
  team: v.object({ role: TeamRoleSchema }),
  permissions: v.object({ view: v.boolean() }),
});

/** A list of a team's members. */
export const TeamMemberList = listSchema(TeamMemberEntry);

/** A team a member belongs to, with the member's role in it. */
export const MemberTeamEntry = v.object({
  team: TeamSchema,
  member: v.object({ role: TeamRoleSchema }),
});

/** A list of the teams of a member. */
export const MemberTeamList = listSchema(MemberTeamEntry);
