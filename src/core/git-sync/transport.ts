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

/** Reaches Git repositories. */
export interface GitTransport {
  /**
   * Fetches the head of `branch` (shallow: one commit, one branch) and reads the files below `folder` ('' for
   * all) of its tree. Rejects with a GitTransportError when the repository cannot be reached, the branch
   * does not exist or a limit is passed.
   */
  fetchTree(remote: GitRemote, branch: string, folder: string, limits: GitFetchLimits): Promise<FetchedTree>;
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
