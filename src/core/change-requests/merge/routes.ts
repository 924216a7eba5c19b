import { route } from '../../operation.js';
import { mergeChangeRequest } from './merge.js';
import { rebaseChangeRequest } from './rebase.js';

/** Merging a change request into its space, and bringing it up to date with the space. */
export const changeRequestMergeRoutes = [
  route('POST', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge', mergeChangeRequest, 200),
  route('POST', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/update', rebaseChangeRequest, 200),
];
