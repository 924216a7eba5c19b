import { route } from '../operation.js';
import { getOrganization, listOrganizations, listOrganizationsForEmailDomain } from './read.js';
import { updateOrganization } from './update.js';

/** The organization endpoints. */
export const organizationRoutes = [
  route('GET', '/v1/orgs', listOrganizations, 200),
  route('GET', '/v1/orgs/{organizationId}', getOrganization, 200),
  route('PATCH', '/v1/orgs/{organizationId}', updateOrganization, 200),
  route('GET', '/v1/email-domains/{emailDomain}/orgs', listOrganizationsForEmailDomain, 200),
];
