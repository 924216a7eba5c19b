import { route } from '../../operation.js';
import { listChangeRequestFileBacklinks, listSpaceFileBacklinks } from './backlinks.js';
import { listPageLinksInChangeRequest, listPageLinksInSpace, listSpaceLinks } from './list.js';

const space = '/v1/spaces/{spaceId}';
const changeRequest = '/v1/spaces/{spaceId}/change-requests/{changeRequestId}';

/** The link endpoints: a space's links, a page's links, and a file's backlinks (space and change request). */
export const linkRoutes = [
  route('GET', `${space}/links`, listSpaceLinks, 200),
  route('GET', `${space}/content/page/{pageId}/links`, listPageLinksInSpace, 200),
  route('GET', `${changeRequest}/content/page/{pageId}/links`, listPageLinksInChangeRequest, 200),
  route('GET', `${space}/content/files/{fileId}/backlinks`, listSpaceFileBacklinks, 200),
  route('GET', `${changeRequest}/content/files/{fileId}/backlinks`, listChangeRequestFileBacklinks, 200),
];
