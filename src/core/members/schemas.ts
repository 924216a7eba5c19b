import * as v from 'valibot';
import { listSchema } from '../pagination.js';
import { MemberRoleOrGuest, Timestamp, UserSchema } from '../schemas.js';

/** The member object of responses: a user's membership of an organization. */
export const MemberSchema = v.object({
  object: v.literal('member'),
  id: v.string(),
  role: MemberRoleOrGuest,
  user: UserSchema,
  disabled: v.boolean(),
  joinedAt: Timestamp,
  lastSeenAt: v.optional(Timestamp),
  sso: v.boolean(),
  spaces: v.number(),
  teams: v.number(),
});

/** A list of members. */
export const MemberList = listSchema(MemberSchema);
