import { route } from '../../operation.js';
import { importContent, importContentInChangeRequest } from './operation.js';

/** `Location` of an import: the revision it made (GET /v1/spaces/{spaceId}/revisions/{revisionId}), as the public API. */
const location = { location: (input: { spaceId: string }, result: { revision: string }) => `/spaces/${input.spaceId}/revisions/${result.revision}` };

/** Importing content from a URL into a space or a change request (201 with the import result). */
export const importRoutes = [
  route('POST', '/v1/spaces/{spaceId}/content/import', importContent, 201, location),
  route('POST', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import', importContentInChangeRequest, 201, location),
];
