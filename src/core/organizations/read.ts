import * as v from 'valibot';
import { listQuery, mapPage, pageOf } from '../pagination.js';
import { readOperation } from '../operation.js';
import { findMembership, organizationAccess } from '../permissions.js';
import { INDEXES, TABLES, type MemberRecord, type OrganizationDomainRecord, type OrganizationRecord } from '../records.js';
import { Id } from '../schemas.js';
import { presentOrganization } from './present.js';
import { EmailDomain, OrganizationList, OrganizationSchema } from './schemas.js';

/** Lists the organizations the caller is a member of, oldest membership first. */
export const listOrganizations = readOperation({
  name: 'listOrganizations',
  summary: 'List the organizations of the authenticated user',
  query: listQuery,
  response: OrganizationList,
  async run(ctx, input) {
    const page = await pageOf(
      ctx.tx,
      TABLES.members,
      { index: INDEXES.membersByUser, value: ctx.actor.userId, where: (member) => !(member as MemberRecord).disabled },
      input,
    );
    return mapPage(page, async (record) => {
      const member = record as MemberRecord;
      const organization = (await ctx.tx.get(TABLES.organizations, member.organizationId)) as OrganizationRecord;
      return presentOrganization(ctx, organization, member);
    });
  },
});

/** Gets an organization the caller is a member of. */
export const getOrganization = readOperation({
  name: 'getOrganization',
  summary: 'Get an organization by its id',
  params: { organizationId: Id },
  response: OrganizationSchema,
  async run(ctx, { organizationId }) {
    const { organization, member } = await organizationAccess(ctx, organizationId);
    return presentOrganization(ctx, organization, member);
  },
});

/**
 * Lists the organizations that claim an e-mail domain. The caller sees those it is a member of and,
 * when its own e-mail address is on that domain, all of them (to find the organizations to join).
 */
export const listOrganizationsForEmailDomain = readOperation({
  name: 'listOrganizationsForEmailDomain',
  summary: 'List the organizations that claim an e-mail domain',
  params: { emailDomain: EmailDomain },
  response: v.object({ organizations: v.array(OrganizationSchema) }),
  async run(ctx, { emailDomain }) {
    const ownDomain = (await ctx.actor.user()).email.split('@')[1] === emailDomain;
    const { items } = await ctx.tx.list(TABLES.organizationDomains, {
      index: INDEXES.organizationDomainsByDomain,
      value: emailDomain,
    });
    const organizations = [];
    for (const claim of items as OrganizationDomainRecord[]) {
      const organization = (await ctx.tx.get(TABLES.organizations, claim.organizationId)) as OrganizationRecord;
      const member = await findMembership(ctx, organization.id);
      if (member || ownDomain) organizations.push(await presentOrganization(ctx, organization, member ?? null));
    }
    return { organizations };
  },
});
