import { route } from '../operation.js';
import { createSpace } from './create.js';
import { duplicateSpace } from './duplicate.js';
import { deleteSpace, restoreSpace } from './lifecycle.js';
import { listMemberSpaces } from './member-spaces.js';
import { moveSpace, transferSpace } from './move.js';
import { getSpace, listSpaces } from './read.js';
import { updateSpace } from './update.js';

/** The space endpoints, and the list of a member's spaces. */
export const spaceRoutes = [
  // Not in the specification; in the public API it comes from, with the same shapes.
  route('GET', '/v1/orgs/{organizationId}/spaces', listSpaces, 200, { extension: true }),
  route('POST', '/v1/orgs/{organizationId}/spaces', createSpace, 201, { extension: true }),
  route('GET', '/v1/spaces/{spaceId}', getSpace, 200),
  route('PATCH', '/v1/spaces/{spaceId}', updateSpace, 200),
  route('DELETE', '/v1/spaces/{spaceId}', deleteSpace, 205),
  route('POST', '/v1/spaces/{spaceId}/duplicate', duplicateSpace, 201),
  route('POST', '/v1/spaces/{spaceId}/restore', restoreSpace, 200),
  route('POST', '/v1/spaces/{spaceId}/move', moveSpace, 200),
  route('POST', '/v1/spaces/{spaceId}/transfer', transferSpace, 200),
  route('GET', '/v1/orgs/{organizationId}/members/{userId}/spaces', listMemberSpaces, 200),
];
