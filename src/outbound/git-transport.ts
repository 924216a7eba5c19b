import { mkdtemp, rm } from 'node:fs/promises';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git, { type GitHttpRequest, type GitHttpResponse, type HttpClient } from 'isomorphic-git';
import type { Fetch } from '../core/context.js';
import { GitTransportError, scrubCredentials, type FetchedTree, type GitFetchLimits, type GitRemote, type GitTransport, type GitTreeFile } from '../core/git-sync/transport.js';

/**
 * The Git transport on Node: isomorphic-git (a Git client in JavaScript, smart HTTP) with its HTTP client
 * wrapped so that every request goes through an outbound fetch (src/outbound/fetch.ts with `sendBodies`,
 * which checks each address against the filter and DOCS_PLATFORM_FETCH_ALLOW). Each operation works in a
 * temporary folder of its own, removed at its end: fetches are shallow (depth 1, one branch), and only the
 * files below the folder asked for are read. Failures become GitTransportErrors whose messages name no
 * credentials.
 */

/** Options of the Git transport. */
export interface GitTransportOptions {
  /** The outbound fetch every request goes through; it must send POST bodies. */
  readonly fetch: Fetch;
}

/** Collects an async iterable of chunks into one byte array. */
async function collect(chunks: AsyncIterable<Uint8Array> | undefined): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (chunks === undefined) return undefined;
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * isomorphic-git's HTTP client over an outbound fetch, counting what the server sends against a limit. Past
 * it the body fails, and `overLimit` says so (isomorphic-git may report the broken body its own way).
 */
function httpClient(fetch: Fetch, maxTransferBytes: number): HttpClient & { overLimit(): boolean } {
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
function describe(error: unknown, remote: GitRemote): string {
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

/** Creates the Git transport over an outbound fetch. */
export function createGitTransport(options: GitTransportOptions): GitTransport {
  return {
    async fetchTree(remote, branch, folder, limits): Promise<FetchedTree> {
      const dir = await mkdtemp(join(tmpdir(), 'docs-platform-git-'));
      let http: ReturnType<typeof httpClient> | undefined;
      try {
        await git.init({ fs, dir, bare: true });
        // The remote is named in the temporary folder only, without credentials: onAuth gives those.
        await git.addRemote({ fs, dir, remote: 'origin', url: remote.url });
        const onAuth = () => ({ username: remote.username ?? '', password: remote.password ?? '' });
        http = httpClient(options.fetch, limits.maxTransferBytes);
        const fetched = await git.fetch({
          fs,
          http,
          dir,
          remote: 'origin',
          ref: branch,
          singleBranch: true,
          depth: 1,
          tags: false,
          ...(remote.username !== undefined || remote.password !== undefined ? { onAuth } : {}),
          onAuthFailure: () => ({ cancel: true }),
        });
        if (!fetched.fetchHead) throw new GitTransportError(`${remote.url} has no branch ${branch}`);
        const { commit } = await git.readCommit({ fs, dir, oid: fetched.fetchHead });
        const files = await readFiles(dir, commit.tree, folder, limits);
        return { commit: { oid: fetched.fetchHead, message: commit.message }, files };
      } catch (error) {
        if (http?.overLimit()) throw new GitTransportError(`the repository sends more than ${limits.maxTransferBytes} bytes`);
        throw new GitTransportError(scrubCredentials(describe(error, remote), remote));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
