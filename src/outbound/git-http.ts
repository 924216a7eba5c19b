import { mkdtemp, rm } from 'node:fs/promises';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git, { type GitHttpRequest, type GitHttpResponse, type HttpClient } from 'isomorphic-git';
import type { Fetch } from '../core/context.js';
import { GitTransportError, scrubCredentials, type FetchedTree, type GitFetchLimits, type GitRemote, type GitTreeFile } from '../core/git-sync/transport.js';

/**
 * What the Node Git transport's operations share (git-transport.ts fetches, git-commit.ts commits and pushes):
 * isomorphic-git's HTTP client over an outbound fetch, a temporary bare repository per operation, the shallow
 * fetch of a branch's head, and failures described for people without credentials.
 */

/** Collects an async iterable of chunks into one byte array. */
async function collect(chunks: AsyncIterable<Uint8Array> | undefined): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (chunks === undefined) return undefined;
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return new Uint8Array(Buffer.concat(parts));
}

/** isomorphic-git's HTTP client that counts what the server sends, and says when it passed the limit. */
export type LimitedHttpClient = HttpClient & { overLimit(): boolean };

/**
 * isomorphic-git's HTTP client over an outbound fetch, counting what the server sends against a limit. Past
 * it the body fails, and `overLimit` says so (isomorphic-git may report the broken body its own way).
 */
export function httpClient(fetch: Fetch, maxTransferBytes: number): LimitedHttpClient {
  let received = 0;
  return {
    overLimit: () => received > maxTransferBytes,
    async request({ url, method = 'GET', headers = {}, body }: GitHttpRequest): Promise<GitHttpResponse> {
      const bytes = await collect(body);
      const response = await fetch(url, { method, headers, ...(bytes !== undefined && { body: bytes }) });
      const answer = response.body;
      async function* limited(): AsyncIterableIterator<Uint8Array> {
        if (!answer) return;
        for await (const chunk of answer as unknown as AsyncIterable<Uint8Array>) {
          received += chunk.length;
          if (received > maxTransferBytes) throw new GitTransportError(`the repository sends more than ${maxTransferBytes} bytes`);
          yield chunk;
        }
      }
      return { url, method, statusCode: response.status, statusMessage: response.statusText, headers: Object.fromEntries(response.headers), body: limited() };
    },
  };
}

/** The message of a failure, for people: our own errors as they are, Git's and the network's described. */
export function describe(error: unknown, remote: GitRemote): string {
  if (error instanceof GitTransportError) return error.message;
  const failure = error as { code?: string; message?: string; data?: { statusCode?: number }; cause?: { cause?: { message?: string } } };
  if (failure.code === 'UserCanceledError' || (failure.code === 'HttpError' && failure.data?.statusCode === 401)) return `${remote.url} asks for credentials that the request did not give, or refused them`;
  if (failure.code === 'HttpError') return `${remote.url} answered with status ${failure.data?.statusCode}`;
  if (failure.code === 'NotFoundError') return `${remote.url} has no such branch`;
  // The outbound filter's refusal is the cause of fetch's TypeError: say it as it says it.
  const refusal = failure.cause?.cause?.message ?? (error instanceof TypeError ? (error.cause as Error | undefined)?.message : undefined);
  if (refusal) return `${remote.url} could not be reached: ${refusal}`;
  return `${remote.url} could not be read: ${failure.message ?? String(error)}`;
}

/** A temporary bare repository whose remote `origin` is `remote` (without credentials), and how to reach it. */
export interface Scratch {
  readonly dir: string;
  readonly http: LimitedHttpClient;
  /** The credentials for isomorphic-git's `onAuth`, when the remote has some. */
  readonly auth: { onAuth?: () => { username: string; password: string }; onAuthFailure: () => { cancel: true } };
}

/** Runs `work` in a temporary bare repository made for `remote`, removed at the end whatever happens. */
export async function inScratch<T>(fetch: Fetch, remote: GitRemote, maxTransferBytes: number, work: (scratch: Scratch) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'docs-platform-git-'));
  try {
    await git.init({ fs, dir, bare: true });
    // The remote is named in the temporary folder only, without credentials: onAuth gives those.
    await git.addRemote({ fs, dir, remote: 'origin', url: remote.url });
    const credentials = remote.username !== undefined || remote.password !== undefined;
    const onAuth = () => ({ username: remote.username ?? '', password: remote.password ?? '' });
    const auth = { ...(credentials && { onAuth }), onAuthFailure: () => ({ cancel: true as const }) };
    return await work({ dir, http: httpClient(fetch, maxTransferBytes), auth });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Fetches the head of `branch` shallow (one commit, one branch, no tags); its commit id. */
export async function fetchHead({ dir, http, auth }: Scratch, branch: string): Promise<string | undefined> {
  const fetched = await git.fetch({ fs, http, dir, remote: 'origin', ref: branch, singleBranch: true, depth: 1, tags: false, ...auth });
  return fetched.fetchHead ?? undefined;
}

/** Whether the remote has the branch: its advertised refs, read without fetching anything. */
export async function hasBranch({ http, auth }: Scratch, remote: GitRemote, branch: string): Promise<boolean> {
  const refs = await git.listServerRefs({ http, url: remote.url, prefix: `refs/heads/${branch}`, ...auth });
  return refs.some((ref) => ref.ref === `refs/heads/${branch}`);
}

/** A failure as a GitTransportError whose message names no credentials. */
export function transportError(error: unknown, scratch: Scratch, remote: GitRemote, limits: GitFetchLimits): GitTransportError {
  if (scratch.http.overLimit()) return new GitTransportError(`the repository sends more than ${limits.maxTransferBytes} bytes`);
  return new GitTransportError(scrubCredentials(describe(error, remote), remote));
}

/** The commit `oid` of a fetched repository and the files below `folder` of its tree. */
export async function readHead(dir: string, oid: string, folder: string, limits: GitFetchLimits): Promise<FetchedTree> {
  const { commit } = await git.readCommit({ fs, dir, oid });
  return { commit: { oid, message: commit.message }, files: await readFiles(dir, commit.tree, folder, limits) };
}

/** Reads the files below `folder` of a tree, within the limits. */
async function readFiles(dir: string, tree: string, folder: string, limits: GitFetchLimits): Promise<GitTreeFile[]> {
  const files: GitTreeFile[] = [];
  let total = 0;
  const visit = async (oid: string, prefix: string): Promise<void> => {
    const { tree: entries } = await git.readTree({ fs, dir, oid });
    for (const entry of entries) {
      const path = prefix === '' ? entry.path : `${prefix}/${entry.path}`;
      const inside = folder === '' || path === folder || path.startsWith(`${folder}/`) || folder.startsWith(`${path}/`);
      if (!inside) continue;
      if (entry.type === 'tree') await visit(entry.oid, path);
      if (entry.type !== 'blob' || (folder !== '' && !path.startsWith(`${folder}/`))) continue;
      if (files.length >= limits.maxFiles) throw new GitTransportError(`the repository holds more than ${limits.maxFiles} files to read`);
      const { blob } = await git.readBlob({ fs, dir, oid: entry.oid });
      if (blob.length > limits.maxFileBytes) throw new GitTransportError(`${path} holds ${blob.length} bytes, more than ${limits.maxFileBytes}`);
      total += blob.length;
      if (total > limits.maxTotalBytes) throw new GitTransportError(`the repository's files hold more than ${limits.maxTotalBytes} bytes`);
      files.push({ path, bytes: blob, ...(entry.mode === '120000' && { symlink: true }) });
    }
  };
  await visit(tree, '');
  return files;
}

