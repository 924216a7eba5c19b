import { route } from '../../operation.js';
import { importContent, importContentInChangeRequest } from './operation.js';

/** Importing content from a URL into a space or a change request (201 with the import result). */
export const importRoutes = [
  route('POST', '/v1/spaces/{spaceId}/content/import', importContent, 201),
  route('POST', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import', importContentInChangeRequest, 201),
];
