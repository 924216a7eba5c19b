import { writeOperation } from '../operation.js';
import { assertAllowed, organizationAccess } from '../permissions.js';
import { INDEXES, TABLES } from '../records.js';
import { Id } from '../schemas.js';
import { assertKeepsAnAdmin } from './admin-guard.js';
import { loadMember } from './get.js';

/**
 * Removes a member from an organization, with its places in the organization's teams. Admins remove
 * anyone; every member may leave. The last admin cannot leave.
 */
export const removeMember = writeOperation({
  name: 'removeMember',
  summary: 'Remove a member from an organization',
  params: { organizationId: Id, userId: Id },
  response: null,
  async run(ctx, { organizationId, userId }) {
    const { member: caller } = await organizationAccess(ctx, organizationId);
    if (userId !== caller.userId) assertAllowed(caller, 'admin', 'remove other members');
    const member = await loadMember(ctx, organizationId, userId);
    await assertKeepsAnAdmin(ctx, member, 'remove the last admin');
    const { items } = await ctx.tx.list(TABLES.teamMembers, { index: INDEXES.teamMembersByMember, value: member.id });
    for (const place of items) await ctx.tx.delete(TABLES.teamMembers, place.id);
    await ctx.tx.delete(TABLES.members, member.id);
  },
});
