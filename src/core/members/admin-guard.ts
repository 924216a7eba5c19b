import type { WriteContext } from '../context.js';
import { conflict } from '../errors.js';
import { INDEXES, TABLES, type MemberRecord } from '../records.js';

/**
 * An organization always keeps at least one admin: refuses (409) a change that would take the role
 * `admin` away from its last active admin.
 *
 * Two admins demoted at once must not both count the other. Each such change writes the organization's record
 * back as it is: of two transactions that change one row, the second runs again once the first committed
 * (the Store contract), and then counts one admin fewer. Only changes to an admin do, and they cost no
 * round trip more (the record goes with the member's); changes to other members take nothing, so they run
 * side by side. (A lock on the organization, taken once the member was read and found an admin, ran every such
 * change twice on PostgreSQL; declared up front, it queued every change of role.)
 */
export async function assertKeepsAnAdmin(ctx: WriteContext, member: MemberRecord, doing: string): Promise<void> {
  if (member.role !== 'admin') return;
  const [organization, { count }] = await Promise.all([
    ctx.tx.get(TABLES.organizations, member.organizationId),
    ctx.tx.list(TABLES.members, {
      index: INDEXES.membersByOrganizationRole,
      value: member.organizationId,
      prefix: ['admin'],
      limit: 0,
      where: (record) => !record.disabled,
    }),
  ]);
  if (count <= 1) throw conflict(`Cannot ${doing}: an organization must keep at least one admin`);
  if (organization) await ctx.tx.put(TABLES.organizations, organization);
}
