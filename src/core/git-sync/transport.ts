/**
 * The Git transport port: how core reaches a repository without opening a socket itself. The platform is
 * given one (on Node, isomorphic-git over the outbound filter: src/outbound/git-transport.ts). Credentials
 * travel in `GitRemote` apart from the URL, so that the URL that is stored, logged or shown has none.
 */

/** A repository to reach: its URL without credentials, and the credentials the request's URL carried. */
export interface GitRemote {
  /** The URL, credentials removed. */
  readonly url: string;
  readonly username?: string;
  readonly password?: string;
}

/** One file of a fetched tree. */
export interface GitTreeFile {
  /** Its path from the repository's root. */
  readonly path: string;
  readonly bytes: Uint8Array;
  /** True for a symbolic link (its bytes are its target). */
  readonly symlink?: boolean;
  /** Its Git blob id, as the tree names it: an import's pages and files take it as their `git.oid`, hashed nowhere again. */
  readonly oid?: string;
}

/** A commit as read from a repository. */
export interface GitCommitInfo {
  readonly oid: string;
  readonly message: string;
}

/** What fetching a branch gives: its head commit and the files below a folder of its tree. */
export interface FetchedTree {
  readonly commit: GitCommitInfo;
  readonly files: readonly GitTreeFile[];
}

/** The limits of one fetch: past them it fails with a GitTransportError that says which. */
export interface GitFetchLimits {
  /** The most files the folder may hold. */
  readonly maxFiles: number;
  /** The most bytes one file may hold. */
  readonly maxFileBytes: number;
  /** The most bytes the folder's files may hold together. */
  readonly maxTotalBytes: number;
  /** The most bytes the server may send (the pack, compressed). */
  readonly maxTransferBytes: number;
}

/** A person of a commit: its author or its committer. */
export interface GitPerson {
  readonly name: string;
  readonly email: string;
}

/** What an export changes in a branch: paths from the repository's root written and removed, and the commit. */
export interface GitTreeEdit {
  /** The files to write, by path. */
  readonly write: ReadonlyMap<string, Uint8Array>;
  /** The paths of the head's tree to remove (those also written are written). */
  readonly remove: ReadonlySet<string>;
  readonly message: string;
  readonly author: GitPerson;
  readonly committer: GitPerson;
  /** When the commit is made, in milliseconds since the epoch. */
  readonly time: number;
}

/**
 * How a commit went: the commit pushed, or none because the edit left the head's tree as it was; either way
 * the blob id of every file the edit wrote, by path from the repository's root (hashed where the commit was
 * built, so that an export's pages and files take them as their `git.oid`).
 */
export type GitCommitOutcome = ({ readonly pushed: GitCommitInfo } | { readonly unchanged: GitCommitInfo | undefined }) & { readonly blobs: ReadonlyMap<string, string> };

/** Reaches Git repositories. */
export interface GitTransport {
  /**
   * Fetches the head of `branch` (shallow: one commit, one branch) and reads the files below `folder` ('' for
   * all) of its tree. Rejects with a GitTransportError when the repository cannot be reached, the branch
   * does not exist or a limit is passed.
   */
  fetchTree(remote: GitRemote, branch: string, folder: string, limits: GitFetchLimits): Promise<FetchedTree>;
  /**
   * Commits on `branch`: fetches its head as fetchTree does (undefined when the branch does not exist yet),
   * asks `edit` what to change, and pushes a commit whose parent is that head, unless the change leaves the
   * tree as it was. A push the server refuses (the branch moved meanwhile) is a GitTransportError; what
   * `edit` throws is thrown as it is.
   */
  commitTree(
    remote: GitRemote,
    branch: string,
    folder: string,
    limits: GitFetchLimits,
    edit: (head: FetchedTree | undefined) => Promise<GitTreeEdit>,
  ): Promise<GitCommitOutcome>;
}

/** A failure of the transport whose message is safe to show: it names no credentials. */
export class GitTransportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitTransportError';
  }
}

/** A transport for platforms given none: every operation fails, so that nothing is reached unless chosen. */
export const noGitTransport: GitTransport = {
  fetchTree: () => Promise.reject(new GitTransportError('this platform has no Git transport')),
  commitTree: () => Promise.reject(new GitTransportError('this platform has no Git transport')),
};

/** The remote of a URL: its credentials taken out (decoded) and kept apart. */
export function remoteOf(url: string): GitRemote {
  const parsed = new URL(url);
  const username = parsed.username === '' ? undefined : decodeURIComponent(parsed.username);
  const password = parsed.password === '' ? undefined : decodeURIComponent(parsed.password);
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.href, ...(username !== undefined && { username }), ...(password !== undefined && { password }) };
}

/** A text with a remote's credentials blanked out wherever they appear, raw or URL-encoded. */
export function scrubCredentials(text: string, remote: GitRemote): string {
  let scrubbed = text;
  for (const secret of [remote.password, remote.username]) {
    if (secret === undefined || secret.length === 0) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) scrubbed = scrubbed.split(form).join('***');
  }
  return scrubbed;
}
