import * as v from 'valibot';
import { HttpUrl, Timestamp } from '../schemas.js';
import { GIT_SYNC_DIRECTIONS, GIT_SYNC_PROVIDERS, GIT_SYNC_STATES } from './git-sync-record.js';

/** The schemas of Git Sync's endpoints, with the public API's shapes (ImportGitRepository, GitSyncState). */

/** A branch ref, `refs/heads/<name>`. */
const BranchRef = v.pipe(
  v.string(),
  v.maxLength(255, 'must be at most 255 characters'),
  v.regex(/^refs\/heads\/[^\s~^:?*[\\]+$/, 'must be a branch, refs/heads/<name>'),
  v.check((ref) => !ref.split('/').some((part) => part === '' || part === '.' || part === '..' || part.endsWith('.lock')), 'must be a branch, refs/heads/<name>'),
);

/** A URL prefix for links into the repository. */
const PrefixUrl = v.pipe(v.string(), v.maxLength(2048, 'must be at most 2048 characters'), v.url('must be an absolute URL'));

/** The body of an import: ImportGitRepository. */
export const ImportGitRepositoryBody = {
  /** The repository; it may carry basic-auth credentials. */
  url: HttpUrl,
  ref: BranchRef,
  repoCacheID: v.optional(v.string()),
  repoTreeURL: v.optional(PrefixUrl),
  repoCommitURL: v.optional(PrefixUrl),
  repoProjectDirectory: v.optional(v.pipe(v.string(), v.maxLength(1024, 'must be at most 1024 characters'))),
  timestamp: v.optional(Timestamp),
  force: v.optional(v.boolean()),
  standalone: v.optional(v.boolean()),
  gitInfo: v.optional(v.record(v.string(), v.unknown())),
};

/** The body of an export: ExportToGitRepository. */
export const ExportToGitRepositoryBody = {
  url: HttpUrl,
  ref: BranchRef,
  /** The message of the commit. */
  commitMessage: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(65536, 'must be at most 65536 characters')),
  repoCacheID: v.optional(v.string()),
  repoTreeURL: v.optional(PrefixUrl),
  repoCommitURL: v.optional(PrefixUrl),
  repoProjectDirectory: ImportGitRepositoryBody.repoProjectDirectory,
  timestamp: v.optional(Timestamp),
  force: v.optional(v.boolean()),
  standalone: v.optional(v.boolean()),
  gitInfo: v.optional(v.record(v.string(), v.unknown())),
};

/** A space's Git Sync: GitSyncState. */
export const GitSyncStateSchema = v.object({
  installationId: v.string(),
  installationProvider: v.picklist(GIT_SYNC_PROVIDERS),
  installationStatus: v.picklist(['unauthenticated', 'active', 'pending']),
  repoName: v.string(),
  url: v.string(),
  operation: v.object({
    state: v.picklist(GIT_SYNC_STATES),
    direction: v.picklist(GIT_SYNC_DIRECTIONS),
    startedAt: v.string(),
    endedAt: v.optional(v.string()),
    error: v.optional(v.string()),
  }),
  operationTimeout: v.pipe(v.number(), v.integer()),
  updatedAt: v.string(),
});
