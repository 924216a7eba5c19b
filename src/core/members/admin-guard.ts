import type { Context } from '../context.js';
import { conflict } from '../errors.js';
import { INDEXES, TABLES, type MemberRecord } from '../records.js';
import { holdExclusive, organizationScope } from '../scopes.js';

/**
 * An organization always keeps at least one admin: refuses (409) a change that would take the role
 * `admin` away from its last active admin.
 */
export async function assertKeepsAnAdmin(ctx: Context, member: MemberRecord, doing: string): Promise<void> {
  if (member.role !== 'admin') return;
  // Two admins demoted at once must not both count the other.
  await holdExclusive(ctx.tx, organizationScope(member.organizationId));
  const { count } = await ctx.tx.list(TABLES.members, {
    index: INDEXES.membersByOrganizationRole,
    value: member.organizationId,
    prefix: ['admin'],
    limit: 0,
    where: (record) => !record.disabled,
  });
  if (count <= 1) throw conflict(`Cannot ${doing}: an organization must keep at least one admin`);
}
