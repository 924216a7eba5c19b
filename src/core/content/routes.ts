import { route } from '../operation.js';
import { updateChangeRequestContent } from './author/operation.js';
import { downloadFile } from './downloads.js';
import {
  getChangeRequestContent,
  getChangeRequestFile,
  getChangeRequestPage,
  getChangeRequestPageByPath,
  getRevisionById,
  getSpaceContent,
  getSpaceFile,
  getSpacePage,
  getSpacePageByPath,
  listChangeRequestFiles,
  listChangeRequestPages,
  listSpaceFiles,
  listSpacePages,
} from './read.js';

const space = '/v1/spaces/{spaceId}/content';
const changeRequest = '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content';

/** Reading the content of a space and of a change request, authoring a change request, and file downloads. */
export const contentRoutes = [
  route('GET', space, getSpaceContent, 200),
  route('GET', `${space}/pages`, listSpacePages, 200),
  route('GET', `${space}/files`, listSpaceFiles, 200),
  route('GET', `${space}/files/{fileId}`, getSpaceFile, 200),
  route('GET', `${space}/page/{pageId}`, getSpacePage, 200),
  route('GET', changeRequest, getChangeRequestContent, 200),
  route('GET', `${changeRequest}/pages`, listChangeRequestPages, 200),
  route('GET', `${changeRequest}/files`, listChangeRequestFiles, 200),
  route('GET', `${changeRequest}/files/{fileId}`, getChangeRequestFile, 200),
  route('GET', `${changeRequest}/page/{pageId}`, getChangeRequestPage, 200),
  // Not in the specification; in the public API it comes from (getPageByPath, updateChangeRequestContent).
  route('GET', `${space}/path/{pagePath}`, getSpacePageByPath, 200, { extension: true }),
  route('GET', `${changeRequest}/path/{pagePath}`, getChangeRequestPageByPath, 200, { extension: true }),
  route('GET', '/v1/spaces/{spaceId}/revisions/{revisionId}', getRevisionById, 200, { extension: true }),
  route('POST', changeRequest, updateChangeRequestContent, 200, { extension: true }),
  // Our own: the bytes behind each file's downloadURL. The signed URL is the permission, so no token.
  route('GET', '/v1/downloads/{token}/{name}', downloadFile, 200, { extension: true, authenticated: false }),
];
