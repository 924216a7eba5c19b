import * as v from 'valibot';
import { listSchema } from '../pagination.js';
import { MemberRoleOrGuest } from '../schemas.js';

/** The invite link object of responses. */
export const InviteSchema = v.object({
  object: v.literal('invite'),
  id: v.string(),
  role: MemberRoleOrGuest,
  /** True when the caller already has everything the invite grants. */
  redundant: v.boolean(),
});

/** A list of invite links. */
export const InviteList = listSchema(InviteSchema);
