import type * as v from 'valibot';
import type { Context } from '../context.js';
import { notFound } from '../errors.js';
import { findMembership } from '../permissions.js';
import { TABLES, type InviteRecord, type MemberRecord, type OrganizationRecord } from '../records.js';
import { roleRank } from '../roles.js';
import type { InviteSchema } from './schemas.js';

/** Whether joining with the invite would give the member nothing it does not have. */
export function isRedundant(invite: InviteRecord, member: MemberRecord | undefined): boolean {
  return member !== undefined && roleRank(member.role) >= roleRank(invite.role);
}

/** The invite object for the caller. */
export async function presentInvite(ctx: Context, invite: InviteRecord): Promise<v.InferInput<typeof InviteSchema>> {
  const member = await findMembership(ctx, invite.organizationId);
  return { object: 'invite', id: invite.id, role: invite.role, redundant: isRedundant(invite, member) };
}

/**
 * Loads an invite link of an organization whose invite links are enabled, or 404. The link's id is
 * the secret that lets people who are not members yet see and use it.
 */
export async function loadUsableInvite(ctx: Context, organizationId: string, inviteId: string) {
  const organization = (await ctx.tx.get(TABLES.organizations, organizationId)) as OrganizationRecord | undefined;
  const invite = (await ctx.tx.get(TABLES.invites, inviteId)) as InviteRecord | undefined;
  if (!organization || !invite || invite.organizationId !== organizationId || !organization.inviteLinks) {
    throw notFound(`No invite link ${inviteId} in organization ${organizationId}`);
  }
  return { organization, invite };
}
