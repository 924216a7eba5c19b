import { claimRoutes } from './claims/routes.js';
import { inviteRoutes } from './invites/routes.js';
import { memberRoutes } from './members/routes.js';
import type { Route } from './operation.js';
import { organizationRoutes } from './organizations/routes.js';
import { teamRoutes } from './teams/routes.js';
import { userRoutes } from './users/routes.js';
import { spaceRoutes } from './spaces/routes.js';
import { changeRequestMergeRoutes } from './change-requests/merge/routes.js';
import { changeRequestRoutes } from './change-requests/routes.js';
import { contentRoutes } from './content/routes.js';
import { pdfRoutes } from './content/pdf/routes.js';
import { importRoutes } from './content/import/routes.js';
import { gitSyncRoutes } from './git-sync/routes.js';
import { linkRoutes } from './content/links/routes.js';
import { collectionRoutes } from './collections/routes.js';
import { ssoRoutes } from './sso/routes.js';
import { translationRoutes } from './translations/routes.js';
import { customFieldRoutes } from './custom-fields/routes.js';
import { openAPISpecRoutes } from './openapi-specs/routes.js';
import { siteRoutes } from './sites/routes.js';
import { commentRoutes } from './comments/routes.js';
import { searchRoutes } from './search/routes.js';

/** The route table: every endpoint of the API, once. Both adapters serve it; adding an endpoint is one entry. */
export const routes: readonly Route[] = [
  ...organizationRoutes,
  ...inviteRoutes,
  ...claimRoutes,
  ...memberRoutes,
  ...teamRoutes,
  ...userRoutes,
  ...spaceRoutes,
  ...changeRequestRoutes,
  ...changeRequestMergeRoutes,
  ...contentRoutes,
  ...pdfRoutes,
  ...importRoutes,
  ...gitSyncRoutes,
  ...linkRoutes,
  ...collectionRoutes,
  ...ssoRoutes,
  ...translationRoutes,
  ...customFieldRoutes,
  ...openAPISpecRoutes,
  ...siteRoutes,
  ...commentRoutes,
  ...searchRoutes,
];
