import { route } from '../operation.js';
import { searchOrganizationContent } from './organization.js';
import { searchSpaceContent } from './space.js';

/** The space search and the organization search. */
export const searchRoutes = [
  route('GET', '/v1/spaces/{spaceId}/search', searchSpaceContent, 200),
  route('GET', '/v1/orgs/{organizationId}/search', searchOrganizationContent, 200),
];
