import * as fs from 'node:fs';
import type { MessagePort } from 'node:worker_threads';
import git from 'isomorphic-git';
import { GitTransportError, scrubCredentials, type FetchedTree, type GitFetchLimits, type GitRemote, type GitTreeFile } from '../core/git-sync/transport.js';
import { relayedHttpClient, UnreachableError, type RelayedHttpClient } from './git-relay.js';

/**
 * What the Git transport's jobs share (git-jobs.ts: the fetch of a branch's head, the commit and its push):
 * a temporary bare repository reached through the relay of the platform's outbound fetch (git-relay.ts), the
 * shallow fetch of a branch's head, the reading of its files, and failures described for people without
 * credentials. Everything here runs in the job's thread.
 */

/** The message of a failure, for people: our own errors as they are, Git's and the network's described. */
export function describe(error: unknown, remote: GitRemote): string {
  if (error instanceof GitTransportError) return error.message;
  const failure = error as { code?: string; message?: string; data?: { statusCode?: number }; cause?: unknown };
  if (failure.code === 'UserCanceledError' || (failure.code === 'HttpError' && failure.data?.statusCode === 401)) return `${remote.url} asks for credentials that the request did not give, or refused them`;
  if (failure.code === 'HttpError') return `${remote.url} answered with status ${failure.data?.statusCode}`;
  if (failure.code === 'NotFoundError') return `${remote.url} has no such branch`;
  // The outbound filter's refusal, or the network's failure, as the platform's side of the relay said it.
  const unreachable = error instanceof UnreachableError ? error : failure.cause instanceof UnreachableError ? failure.cause : undefined;
  if (unreachable) return `${remote.url} could not be reached: ${unreachable.reason}`;
  return `${remote.url} could not be read: ${failure.message ?? String(error)}`;
}

/** A temporary bare repository whose remote `origin` is `remote` (without credentials), and how to reach it. */
export interface Scratch {
  readonly dir: string;
  readonly http: RelayedHttpClient;
  /** The credentials for isomorphic-git's `onAuth`, when the remote has some. */
  readonly auth: { onAuth?: () => { username: string; password: string }; onAuthFailure: () => { cancel: true } };
  /**
   * isomorphic-git's cache for one job: without it every object read parses the pack's index and reads the
   * pack again (seconds for a thousand files).
   */
  readonly cache: object;
}

/** What a job needs to reach a remote from a scratch folder: the folder, the relay's port, the remote and the transfer limit. */
export interface ScratchInput {
  readonly dir: string;
  readonly port: MessagePort;
  readonly remote: GitRemote;
  readonly maxTransferBytes: number;
}

/**
 * Runs `work` in the scratch repository `dir` (made a bare repository of `remote` when `init`), its HTTP
 * through the relay's port, which is closed at the end whatever happens.
 */
export async function inScratch<T>({ dir, port, remote, maxTransferBytes }: ScratchInput, init: boolean, work: (scratch: Scratch) => Promise<T>): Promise<T> {
  const http = relayedHttpClient(port, maxTransferBytes);
  try {
    if (init) {
      await git.init({ fs, dir, bare: true });
      // The remote is named in the temporary folder only, without credentials: onAuth gives those.
      await git.addRemote({ fs, dir, remote: 'origin', url: remote.url });
    }
    const credentials = remote.username !== undefined || remote.password !== undefined;
    const onAuth = () => ({ username: remote.username ?? '', password: remote.password ?? '' });
    const auth = { ...(credentials && { onAuth }), onAuthFailure: () => ({ cancel: true as const }) };
    return await work({ dir, http, auth, cache: {} });
  } finally {
    http.close();
  }
}

/** Fetches the head of `branch` shallow (one commit, one branch, no tags); its commit id. */
export async function fetchHead({ dir, http, auth, cache }: Scratch, branch: string): Promise<string | undefined> {
  const fetched = await git.fetch({ fs, http, dir, cache, remote: 'origin', ref: branch, singleBranch: true, depth: 1, tags: false, ...auth });
  return fetched.fetchHead ?? undefined;
}

/** Whether the remote has the branch: its advertised refs, read without fetching anything. */
export async function hasBranch({ http, auth }: Scratch, remote: GitRemote, branch: string): Promise<boolean> {
  const refs = await git.listServerRefs({ http, url: remote.url, prefix: `refs/heads/${branch}`, ...auth });
  return refs.some((ref) => ref.ref === `refs/heads/${branch}`);
}

/** A failure as a GitTransportError whose message names no credentials. */
export function transportError(error: unknown, scratch: Scratch, remote: GitRemote, maxTransferBytes: number): GitTransportError {
  if (scratch.http.overLimit()) return new GitTransportError(`the repository sends more than ${maxTransferBytes} bytes`);
  return new GitTransportError(scrubCredentials(describe(error, remote), remote));
}

/** The commit `oid` of a fetched repository and the files below `folder` of its tree. */
export async function readHead({ dir, cache }: Scratch, oid: string, folder: string, limits: GitFetchLimits): Promise<FetchedTree> {
  const { commit } = await git.readCommit({ fs, dir, cache, oid });
  return { commit: { oid, message: commit.message }, files: await readFiles(dir, cache, commit.tree, folder, limits) };
}

/** Reads the files below `folder` of a tree, within the limits. */
async function readFiles(dir: string, cache: object, tree: string, folder: string, limits: GitFetchLimits): Promise<GitTreeFile[]> {
  const files: GitTreeFile[] = [];
  let total = 0;
  const visit = async (oid: string, prefix: string): Promise<void> => {
    const { tree: entries } = await git.readTree({ fs, dir, cache, oid });
    for (const entry of entries) {
      const path = prefix === '' ? entry.path : `${prefix}/${entry.path}`;
      const inside = folder === '' || path === folder || path.startsWith(`${folder}/`) || folder.startsWith(`${path}/`);
      if (!inside) continue;
      if (entry.type === 'tree') await visit(entry.oid, path);
      if (entry.type !== 'blob' || (folder !== '' && !path.startsWith(`${folder}/`))) continue;
      if (files.length >= limits.maxFiles) throw new GitTransportError(`the repository holds more than ${limits.maxFiles} files to read`);
      const { blob } = await git.readBlob({ fs, dir, cache, oid: entry.oid });
      if (blob.length > limits.maxFileBytes) throw new GitTransportError(`${path} holds ${blob.length} bytes, more than ${limits.maxFileBytes}`);
      total += blob.length;
      if (total > limits.maxTotalBytes) throw new GitTransportError(`the repository's files hold more than ${limits.maxTotalBytes} bytes`);
      // A copy of its own, so that it moves back to the platform's thread whole (a blob may be a view of the pack).
      files.push({ path, bytes: new Uint8Array(blob), oid: entry.oid, ...(entry.mode === '120000' && { symlink: true }) });
    }
  };
  await visit(tree, '');
  return files;
}
