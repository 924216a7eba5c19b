import { route } from '../operation.js';
import { listSsoLogins } from './logins.js';
import { getSamlProvider, listSamlProviders } from './read.js';
import { createSamlProvider, deleteSamlProvider, updateSamlProvider } from './write.js';

/** The SAML provider and SSO sign-in endpoints. */
export const ssoRoutes = [
  route('GET', '/v1/orgs/{organizationId}/saml', listSamlProviders, 200),
  route('POST', '/v1/orgs/{organizationId}/saml', createSamlProvider, 201),
  route('GET', '/v1/orgs/{organizationId}/saml/{samlProviderId}', getSamlProvider, 200),
  route('PATCH', '/v1/orgs/{organizationId}/saml/{samlProviderId}', updateSamlProvider, 200),
  route('DELETE', '/v1/orgs/{organizationId}/saml/{samlProviderId}', deleteSamlProvider, 204),
  route('GET', '/v1/orgs/{organizationId}/sso', listSsoLogins, 200),
];
