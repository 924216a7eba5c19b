import type { WriteTransaction } from '../../store/types.js';
import { TABLES, memberId, type MemberRecord } from '../records.js';
import type { MemberRole } from '../roles.js';

/**
 * Makes a user an active member of an organization with a role: a new membership joins at `now`; an
 * existing one (a disabled one too) takes the role, is enabled again and keeps when it joined. `sso` true
 * marks it an SSO member; false leaves the mark as it was.
 */
export async function putMembership(
  tx: WriteTransaction,
  organizationId: string,
  userId: string,
  role: MemberRole | null,
  now: string,
  sso = false,
): Promise<MemberRecord> {
  const existing = (await tx.get(TABLES.members, memberId(organizationId, userId))) as MemberRecord | undefined;
  const member: MemberRecord = existing
    ? { ...existing, role, disabled: false, sso: existing.sso || sso }
    : { id: memberId(organizationId, userId), organizationId, userId, role, disabled: false, sso, joinedAt: now };
  await tx.put(TABLES.members, member);
  return member;
}
