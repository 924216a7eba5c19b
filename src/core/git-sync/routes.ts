import { route } from '../operation.js';
import { exportToGitRepository } from './export-repository.js';
import { getSpaceGitInfo } from './git-info.js';
import { importGitRepository } from './import-repository.js';

/**
 * Git Sync: importing a repository into a space (204 once done), exporting a space to one (204 once
 * queued) and the space's sync state. They are the
 * public API's (`@gitbook/api`), not the seed specification's: extensions to the manifest.
 */
export const gitSyncRoutes = [
  route('POST', '/v1/spaces/{spaceId}/git/import', importGitRepository, 204, { extension: true }),
  route('POST', '/v1/spaces/{spaceId}/git/export', exportToGitRepository, 204, { extension: true }),
  route('GET', '/v1/spaces/{spaceId}/git/info', getSpaceGitInfo, 200, { extension: true }),
];
