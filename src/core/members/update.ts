import * as v from 'valibot';
import { writeOperation } from '../operation.js';
import { requireOrganization } from '../permissions.js';
import { TABLES, type MemberRecord } from '../records.js';
import { Id, MemberRoleOrGuest } from '../schemas.js';
import { assertKeepsAnAdmin } from './admin-guard.js';
import { loadMember } from './get.js';
import { presentMember } from './present.js';
import { MemberSchema } from './schemas.js';

/** Changes a member's role (null makes it a guest); admins only, and the last admin keeps its role. */
export const updateMember = writeOperation({
  name: 'updateMember',
  summary: "Update a member's role in an organization",
  params: { organizationId: Id, userId: Id },
  body: { role: v.optional(MemberRoleOrGuest) },
  response: MemberSchema,
  async run(ctx, { organizationId, userId, role }) {
    await requireOrganization(ctx, organizationId, 'admin', "change members' roles");
    const member = await loadMember(ctx, organizationId, userId);
    if (role === undefined || role === member.role) return presentMember(ctx, member);
    if (role !== 'admin') await assertKeepsAnAdmin(ctx, member, 'change the role of the last admin');
    const updated: MemberRecord = { ...member, role };
    await ctx.tx.put(TABLES.members, updated);
    return presentMember(ctx, updated);
  },
});

/** Marks a member as able to sign in with the organization's SSO; admins only. */
export const setMemberSso = writeOperation({
  name: 'setMemberSso',
  summary: 'Mark a member as an SSO member of an organization',
  params: { organizationId: Id, userId: Id },
  response: MemberSchema,
  async run(ctx, { organizationId, userId }) {
    await requireOrganization(ctx, organizationId, 'admin', 'manage SSO members');
    const member = await loadMember(ctx, organizationId, userId);
    const updated: MemberRecord = member.sso ? member : { ...member, sso: true };
    if (updated !== member) await ctx.tx.put(TABLES.members, updated);
    return presentMember(ctx, updated);
  },
});
