import { route } from '../operation.js';
import { createCollection } from './create.js';
import { deleteCollection } from './delete.js';
import { moveCollection, transferCollection } from './move.js';
import { getCollection, listCollectionSpaces, listCollections } from './read.js';
import { updateCollection } from './update.js';

/** The collection endpoints. */
export const collectionRoutes = [
  route('GET', '/v1/orgs/{organizationId}/collections', listCollections, 200),
  route('POST', '/v1/orgs/{organizationId}/collections', createCollection, 201),
  route('GET', '/v1/collections/{collectionId}', getCollection, 200),
  route('PATCH', '/v1/collections/{collectionId}', updateCollection, 200),
  route('DELETE', '/v1/collections/{collectionId}', deleteCollection, 205),
  route('GET', '/v1/collections/{collectionId}/spaces', listCollectionSpaces, 200),
  route('POST', '/v1/collections/{collectionId}/move', moveCollection, 200),
  route('POST', '/v1/collections/{collectionId}/transfer', transferCollection, 200),
];
