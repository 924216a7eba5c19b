import type { Context } from '../context.js';
import { conflict } from '../errors.js';
import { INDEXES, TABLES, type MemberRecord } from '../records.js';
import type { ScopeLock } from '../../store/types.js';
import { exclusive, holdExclusive, organizationScope } from '../scopes.js';

/**
 * The scope the guard holds, as the operations that may call it declare it (Operation.locks): whether it is
 * needed depends on the member's role, read in the transaction, and a lock asked for after that read runs a
 * PostgreSQL write again. Declared, a removal or a change of role queues behind the others of its organization
 * (administrative writes, one transaction each) instead.
 */
export const locksAdmins = ({ organizationId }: { readonly organizationId: string }): readonly ScopeLock[] => [exclusive(organizationScope(organizationId))];

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
