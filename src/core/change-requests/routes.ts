import { route } from '../operation.js';
import { createChangeRequest } from './create.js';
import { getChangeRequest, listChangeRequests } from './read.js';
import { listRequestedReviewers, removeRequestedReviewer, requestReviewers } from './reviewers.js';
import { updateChangeRequest } from './update.js';

/** The change request endpoints (merge and update are in merge/routes.ts). */
export const changeRequestRoutes = [
  route('GET', '/v1/spaces/{spaceId}/change-requests', listChangeRequests, 200),
  route('POST', '/v1/spaces/{spaceId}/change-requests', createChangeRequest, 201),
  route('GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}', getChangeRequest, 200),
  route('PATCH', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}', updateChangeRequest, 200),
  // Not in the specification; from the public API (change-request-reviewers).
  route('GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers', listRequestedReviewers, 200, { extension: true }),
  route('POST', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers', requestReviewers, 200, { extension: true }),
  route('DELETE', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}', removeRequestedReviewer, 205, { extension: true }),
];
