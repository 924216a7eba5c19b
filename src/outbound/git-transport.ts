import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessagePort } from 'node:worker_threads';
import type { Fetch } from '../core/context.js';
import type { Job } from '../core/job.js';
import type { Workers } from '../core/workers.js';
import { GitTransportError, type GitTransport } from '../core/git-sync/transport.js';
import { commitJob, fetchHeadJob, removeScratchJob, type FetchHeadInput } from './git-jobs.js';
import { relayFetch } from './git-relay.js';

/**
 * The Git transport on Node: isomorphic-git (a Git client in JavaScript, smart HTTP), its object work run
 * as jobs on the platform's workers (git-jobs.ts: off the thread that answers requests when the platform
 * has a pool), its HTTP relayed back to an outbound fetch on this side (git-relay.ts: src/outbound/fetch.ts
 * with `sendBodies`, which checks each address against the filter and DOCS_PLATFORM_FETCH_ALLOW). Each
 * operation works in a temporary folder of its own, removed at its end: fetches are shallow (depth 1, one
 * branch), and only the files below the folder asked for are read. Failures become GitTransportErrors whose
 * messages name no credentials.
 */

/** Options of the Git transport. */
export interface GitTransportOptions {
  /** The outbound fetch every request goes through; it must send POST bodies. */
  readonly fetch: Fetch;
  /** Where the object work runs: the platform's workers. */
  readonly workers: Workers;
}

/** Runs `work` with a temporary folder, removed at the end (by a job: removeScratchJob) whatever happens. */
async function inTemporaryFolder<T>(workers: Workers, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'docs-platform-git-'));
  try {
    return await work(dir);
  } finally {
    // Here after all when no job can run (the pool is closing).
    await workers.run(removeScratchJob, { dir }).catch(() => rm(dir, { recursive: true, force: true }));
  }
}

/**
 * Runs a Git job with a relay of its own to the outbound fetch, ended with the job; a failure the job
 * reports becomes a GitTransportError.
 */
async function relayed<I extends { readonly port: MessagePort }, O extends object>(options: GitTransportOptions, job: Job<I, O>, input: Omit<I, 'port'>, maxTransferBytes: number): Promise<Exclude<O, { failure: string }>> {
  const relay = relayFetch(options.fetch, maxTransferBytes);
  try {
    const result = await options.workers.run(job, { ...input, port: relay.port } as I);
    if ('failure' in result) throw new GitTransportError(String(result.failure));
    return result as Exclude<O, { failure: string }>;
  } finally {
    relay.close();
  }
}

/** Creates the Git transport over an outbound fetch and the platform's workers. */
export function createGitTransport(options: GitTransportOptions): GitTransport {
  const fetchHead = (dir: string, input: Omit<FetchHeadInput, 'dir' | 'port'>) => relayed(options, fetchHeadJob, { ...input, dir }, input.maxTransferBytes);
  return {
    fetchTree: (remote, branch, folder, limits) =>
      inTemporaryFolder(options.workers, async (dir) => {
        const { head } = await fetchHead(dir, { remote, branch, folder, limits, maxTransferBytes: limits.maxTransferBytes, mayBeNew: false });
        return head!;
      }),
    commitTree: (remote, branch, folder, limits, edit) =>
      inTemporaryFolder(options.workers, async (dir) => {
        const { head } = await fetchHead(dir, { remote, branch, folder, limits, maxTransferBytes: limits.maxTransferBytes, mayBeNew: true });
        // What the edit throws (a refusal of the export) is the caller's, as it is.
        const change = await edit(head);
        const input = {
          dir,
          remote,
          branch,
          maxTransferBytes: limits.maxTransferBytes,
          ...(head !== undefined && { head: head.commit.oid }),
          edit: { ...change, write: [...change.write], remove: [...change.remove] },
        };
        const result = await relayed(options, commitJob, input, limits.maxTransferBytes);
        const blobs = new Map(result.blobs);
        return 'pushed' in result ? { pushed: result.pushed, blobs } : { unchanged: head?.commit, blobs };
      }),
  };
}
