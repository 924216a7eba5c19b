import { listQuery, mapPage, pageOf } from '../pagination.js';
import { readOperation } from '../operation.js';
import { requireSettings } from '../permissions.js';
import { INDEXES, TABLES, type SamlProviderRecord } from '../records.js';
import { Id } from '../schemas.js';
import { loadSamlProvider, presentSamlProvider } from './present.js';
import { SamlProviderList, SamlProviderSchema } from './schemas.js';

/** Lists the SAML providers of an organization, oldest first; members with a role (certificates for admins only). */
export const listSamlProviders = readOperation({
  name: 'listSamlProviders',
  summary: 'List the SAML providers of an organization',
  params: { organizationId: Id },
  query: listQuery,
  response: SamlProviderList,
  async run(ctx, input) {
    const { member } = await requireSettings(ctx, input.organizationId, 'view', 'list SAML providers');
    const query = { index: INDEXES.samlProvidersByOrganization, value: input.organizationId };
    const page = await pageOf(ctx.tx, TABLES.samlProviders, query, input);
    return mapPage(page, (provider) => presentSamlProvider(ctx, provider as SamlProviderRecord, member));
  },
});

/** Gets a SAML provider; members with a role (the certificate for admins only). */
export const getSamlProvider = readOperation({
  name: 'getSamlProvider',
  summary: 'Get a SAML provider of an organization',
  params: { organizationId: Id, samlProviderId: Id },
  response: SamlProviderSchema,
  async run(ctx, { organizationId, samlProviderId }) {
    const { member } = await requireSettings(ctx, organizationId, 'view', 'read SAML providers');
    return presentSamlProvider(ctx, await loadSamlProvider(ctx, organizationId, samlProviderId), member);
  },
});
