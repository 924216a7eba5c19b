import type { GitSyncRecord } from './git-sync-record.js';

/**
 * A space's `gitSync` field: the repository it is synced with, once an import or an export has synced it
 * (a commit is recorded), as the public API's GitSyncState names it: the repository's name and tree URL
 * (`repoTreeURL` when given, else the repository's URL without credentials), the provider, when the Git
 * Sync last changed. Never credentials: the record holds none. The last operation is git/info's.
 */

/** The repository fields of a Git Sync, as the space's `gitSync` and git/info show them. */
export function gitSyncFieldsOf(sync: GitSyncRecord) {
  return {
    installationId: sync.id,
    installationProvider: sync.provider,
    installationStatus: 'active' as const,
    repoName: sync.repoName,
    url: sync.treeUrl ?? sync.url,
    updatedAt: sync.updatedAt,
  };
}

/** The `gitSync` of a space, or undefined before its first successful sync. */
export const spaceGitSyncOf = (sync: GitSyncRecord | undefined) => (sync?.commit === undefined ? undefined : gitSyncFieldsOf(sync));
