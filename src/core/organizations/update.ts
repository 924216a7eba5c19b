import * as v from 'valibot';
import { badRequest, conflict } from '../errors.js';
import { writeOperation } from '../operation.js';
import { requireOrganization } from '../permissions.js';
import { INDEXES, TABLES, type OrganizationDomainRecord, type OrganizationRecord } from '../records.js';
import { Id, MemberRoleOrGuest } from '../schemas.js';
import type { WriteContext } from '../context.js';
import { presentOrganization } from './present.js';
import { DefaultContent, EmailDomain, OrganizationHostname, OrganizationSchema, OrganizationTitle } from './schemas.js';
import { HOSTNAMES_SCOPE, exclusive } from '../scopes.js';

/** Updates an organization's settings; admins only. Absent fields are left as they are. */
export const updateOrganization = writeOperation({
  name: 'updateOrganization',
  summary: 'Update an organization',
  params: { organizationId: Id },
  body: {
    title: v.optional(OrganizationTitle),
    emailDomains: v.optional(v.pipe(v.array(EmailDomain), v.maxLength(100, 'must have at most 100 domains'))),
    hostname: v.optional(OrganizationHostname),
    defaultRole: v.optional(MemberRoleOrGuest),
    defaultContent: v.optional(v.nullable(DefaultContent)),
    logo: v.optional(v.nullable(v.pipe(v.string(), v.url('must be a URL'), v.maxLength(2048, 'must be at most 2048 characters')))),
    sso: v.optional(v.boolean()),
    ai: v.optional(v.boolean()),
    inviteLinks: v.optional(v.boolean()),
  },
  response: OrganizationSchema,
  // A hostname asked for may be a change (assertHostnameFree).
  locks: ({ hostname }) => (hostname === undefined ? [] : [exclusive(HOSTNAMES_SCOPE)]),
  async run(ctx, { organizationId, ...changes }) {
    const { organization, member } = await requireOrganization(ctx, organizationId, 'admin', 'update the organization');
    const next: Record<string, unknown> = { ...organization };
    for (const [field, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      if (value === null && (field === 'defaultContent' || field === 'logo')) delete next[field];
      else next[field] = value;
    }
    if (changes.hostname !== undefined && changes.hostname !== organization.hostname) {
      await assertHostnameFree(ctx, changes.hostname);
    }
    if (changes.defaultContent) await assertSiteOf(ctx, organizationId, changes.defaultContent.site);
    if (changes.emailDomains) {
      next.emailDomains = [...new Set(changes.emailDomains)];
      await replaceDomainClaims(ctx, organization, next.emailDomains as string[]);
    }
    const updated = next as OrganizationRecord;
    await ctx.tx.put(TABLES.organizations, updated);
    return presentOrganization(ctx, updated, member);
  },
});

/** Hostnames are unique across organizations: they name the organization's public content. */
async function assertHostnameFree(ctx: WriteContext, hostname: string) {
  await ctx.tx.lock(HOSTNAMES_SCOPE, 'exclusive');
  const { items } = await ctx.tx.list(TABLES.organizations, { index: INDEXES.organizationsByHostname, value: hostname, limit: 1 });
  if (items.length > 0) throw conflict(`hostname: ${hostname} is already used by another organization`);
}

async function assertSiteOf(ctx: WriteContext, organizationId: string, siteId: string) {
  const site = await ctx.tx.get(TABLES.sites, siteId);
  if (!site || site.organizationId !== organizationId) {
    throw badRequest(`defaultContent: no site ${siteId} in this organization`);
  }
}

/** Keeps the e-mail domain index in step with the organization's `emailDomains`. */
async function replaceDomainClaims(ctx: WriteContext, organization: OrganizationRecord, domains: string[]) {
  for (const domain of organization.emailDomains) {
    if (!domains.includes(domain)) await ctx.tx.delete(TABLES.organizationDomains, `${domain}/${organization.id}`);
  }
  for (const domain of domains) {
    const claim: OrganizationDomainRecord = { id: `${domain}/${organization.id}`, domain, organizationId: organization.id };
    await ctx.tx.put(TABLES.organizationDomains, claim);
  }
}
