import type { StoredRecord } from '../../store/types.js';
import type { SealedCredentials } from './sealed-credentials.js';

/**
 * What the store keeps of a space's Git Sync (table `gitSyncs`, one record per space, keyed by the space's id):
 * the repository (its URL without credentials), and the last operation with its outcome, so that any
 * process answers `git/info` alike. Credentials are never stored in the clear (sealed-credentials.ts).
 */

/** The states of an operation, as the public API names them. */
export const GIT_SYNC_STATES = ['running', 'success', 'failure', 'timeout'] as const;
/** The directions of an operation. */
export const GIT_SYNC_DIRECTIONS = ['import', 'export'] as const;
/** The providers the public API names. */
export const GIT_SYNC_PROVIDERS = ['github', 'gitlab', 'github-legacy'] as const;

/** The last operation of a space's Git Sync. */
export interface GitSyncOperationRecord {
  readonly state: (typeof GIT_SYNC_STATES)[number];
  readonly direction: (typeof GIT_SYNC_DIRECTIONS)[number];
  readonly startedAt: string;
  readonly endedAt?: string;
  /** Why it failed, credentials never named. */
  readonly error?: string;
}

/** A space's Git Sync. */
export interface GitSyncRecord extends StoredRecord {
  /** The space's id. */
  readonly id: string;
  /** The repository's URL, without credentials. */
  readonly url: string;
  /** `owner/name`: the repository's path without `.git`. */
  readonly repoName: string;
  readonly provider: (typeof GIT_SYNC_PROVIDERS)[number];
  /** The ref of the last operation, `refs/heads/<branch>`. */
  readonly ref: string;
  /** The prefix of tree URLs the request gave (`repoTreeURL`), if any. */
  readonly treeUrl?: string;
  readonly operation: GitSyncOperationRecord;
  /**
   * Names the operation `operation` describes: a queued operation that ends after a later one was queued
   * leaves the later one's state alone.
   */
  readonly operationId?: string;
  /** The commit and the revision of the last successful sync: the base of the next import's three-way merge. */
  readonly commit?: string;
  readonly revision?: string;
  /**
   * The repository (URL without credentials) and ref that `commit` came from: `url` and `ref` name the last
   * operation's, which may be another one's. An import of another repository or branch has no base here.
   */
  readonly syncedUrl?: string;
  readonly syncedRef?: string;
  /**
   * Where the pages and files of `revision` are in the repository, by id, relative to the docs' root: how
   * an import finds the pages a file of the repository was, where an export writes them again, and their
   * `git.path` (a page's path may differ from its slugs'). A page or file not listed (new since, or synced
   * before paths were recorded) is at the path of its slugs or name (content/git.ts).
   */
  readonly paths?: Readonly<Record<string, string>>;
  /** The folder of `.gitbook.yaml` in the repository (`repoProjectDirectory`), if any. */
  readonly projectDirectory?: string;
  /** The prefix of commit URLs the request gave (`repoCommitURL`), if any. */
  readonly commitUrl?: string;
  /** True once an export has synced the space: from then on every merge exports on its own (auto-export.ts). */
  readonly exported?: true;
  /** The credentials of the last request, sealed (sealed-credentials.ts), for the exports after merges. */
  readonly credentials?: SealedCredentials;
  /** The `timestamp` of the last operation applied: an older one that arrives later is skipped. */
  readonly timestamp?: string;
  /** The site redirects the last import made from `.gitbook.yaml` (import-redirects.ts), by id. */
  readonly redirects?: readonly string[];
  readonly updatedAt: string;
}

/**
 * Whether the last sync's base (`commit`, `revision`) came from this repository (URL without credentials)
 * and ref. A sync recorded before `syncedUrl` existed counts as the one `url` and `ref` name.
 */
export const isSyncedWith = (sync: GitSyncRecord, url: string, ref: string): boolean => (sync.syncedUrl ?? sync.url) === url && (sync.syncedRef ?? sync.ref) === ref;

/**
 * The provider of a repository: `github` on github.com, `gitlab` anywhere else. The public API names no
 * generic provider; a self-hosted server is most often GitLab, and either choice only labels the repository.
 */
export function providerOf(url: string): GitSyncRecord['provider'] {
  const host = new URL(url).hostname.toLowerCase();
  return host === 'github.com' || host.endsWith('.github.com') ? 'github' : 'gitlab';
}

/** A repository's name from its URL: its path without the leading `/` and a trailing `.git`. */
export const repoNameOf = (url: string): string =>
  new URL(url).pathname
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/, '');
