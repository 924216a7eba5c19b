import { notFound } from '../errors.js';
import { readOperation } from '../operation.js';
import { INDEXES, TABLES, type SamlProviderRecord } from '../records.js';
import { Id } from '../schemas.js';
import { isActive, serviceOf } from './present.js';
import { SsoLoginList } from './schemas.js';

/**
 * Lists how to sign in to an organization with SSO: the id, label and start URL of each active provider,
 * oldest first, without a paging envelope. It is what a sign-in page shows to people who are not members
 * yet (SSO is how they join), so any authenticated user may read it; it reveals nothing else about the
 * organization. An unknown organization is a 404.
 */
export const listSsoLogins = readOperation({
  name: 'listSsoLogins',
  summary: 'List the SSO sign-in options of an organization',
  params: { organizationId: Id },
  response: SsoLoginList,
  async run(ctx, { organizationId }) {
    if (!(await ctx.tx.get(TABLES.organizations, organizationId))) throw notFound(`No organization ${organizationId} found`);
    const { items } = await ctx.tx.list(TABLES.samlProviders, {
      index: INDEXES.samlProvidersByOrganization,
      value: organizationId,
      where: (record) => isActive(record as SamlProviderRecord),
    });
    return {
      items: items.map((record) => {
        const provider = record as SamlProviderRecord;
        return { id: provider.id, label: provider.label, startURL: serviceOf(ctx, provider).startURL };
      }),
    };
  },
});
