import { route } from '../operation.js';
import { createChangeRequest } from './create.js';
import { getChangeRequest, listChangeRequests } from './read.js';
import { updateChangeRequest } from './update.js';

/** The change request endpoints (merge and update are in merge/routes.ts). */
export const changeRequestRoutes = [
  route('GET', '/v1/spaces/{spaceId}/change-requests', listChangeRequests, 200),
  route('POST', '/v1/spaces/{spaceId}/change-requests', createChangeRequest, 201),
  route('GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}', getChangeRequest, 200),
  route('PATCH', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}', updateChangeRequest, 200),
];
