import { inviteRoutes } from './invites/routes.js';
import { memberRoutes } from './members/routes.js';
import type { Route } from './operation.js';
import { organizationRoutes } from './organizations/routes.js';
import { teamRoutes } from './teams/routes.js';
import { userRoutes } from './users/routes.js';

/** The route table: every endpoint of the API, once. Both adapters serve it; adding an endpoint is one entry. */
export const routes: readonly Route[] = [
  ...organizationRoutes,
  ...inviteRoutes,
  ...memberRoutes,
  ...teamRoutes,
  ...userRoutes,
];
