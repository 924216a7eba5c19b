import type * as v from 'valibot';
import type { Context } from '../context.js';
import { organizationPermissions } from '../permissions.js';
import type { MemberRecord, OrganizationRecord } from '../records.js';
import type { OrganizationSchema } from './schemas.js';

/** The organization object as a member of it sees it (null: someone who is not a member). */
export async function presentOrganization(
  ctx: Context,
  organization: OrganizationRecord,
  member: MemberRecord | null,
): Promise<v.InferInput<typeof OrganizationSchema>> {
  return {
    object: 'organization',
    id: organization.id,
    title: organization.title,
    createdAt: organization.createdAt,
    emailDomains: [...organization.emailDomains],
    ...(organization.hostname !== undefined && { hostname: organization.hostname }),
    type: 'business',
    defaultRole: organization.defaultRole,
    ...(organization.defaultContent && { defaultContent: { ...organization.defaultContent } }),
    sso: organization.sso,
    ai: organization.ai,
    inviteLinks: organization.inviteLinks,
    plan: 'free_2024',
    urls: {
      location: ctx.urls.api(`/orgs/${organization.id}`),
      app: ctx.urls.app(`/o/${organization.id}`),
      ...(organization.logo !== undefined && { logo: organization.logo }),
    },
    trial: { status: 'notapplicable', count: 0 },
    internal_isOnNewTrial: true,
    permissions: await organizationPermissions(ctx, member),
  };
}
