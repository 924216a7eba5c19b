import { rmSync } from 'node:fs';
import { buffersOf, defineJob } from '../core/job.js';
import { registerJobs } from '../core/jobs.js';
import { GitTransportError, type FetchedTree, type GitFetchLimits } from '../core/git-sync/transport.js';
import { commitAndPush, type CommitResult, type TreeEditInput } from './git-commit.js';
import { fetchHead, hasBranch, inScratch, readHead, transportError, type ScratchInput } from './git-http.js';

/**
 * The Git transport's object work as jobs (core/job.ts), so that the platform's worker threads do it, not
 * the thread answering requests: isomorphic-git inflates, hashes and deflates every object, indexes the
 * pack it fetched and builds the pack it pushes. Each job works in a scratch repository on disk that the
 * platform's side made (git-transport.ts), so that an export's two jobs may run in different threads, and
 * reaches the server through the relay of the platform's outbound fetch (git-relay.ts), whose port is part
 * of its input. A failure the caller can act on comes back as a `failure` message, credentials never named.
 * Registered as this module loads; a worker thread loads it for a job named `gitTransport.*` (src/workers/worker.ts).
 */

/** What fetching a branch's head takes: the scratch repository and relay, the branch, and what to read of it. */
export interface FetchHeadInput extends ScratchInput {
  readonly branch: string;
  readonly folder: string;
  readonly limits: GitFetchLimits;
  /** Whether a branch that does not exist yet is no head (an export creates it) rather than a failure. */
  readonly mayBeNew: boolean;
}

/** What it gives: the head (none for a new branch), or why it failed. */
export type FetchHeadResult = { readonly head?: FetchedTree } | { readonly failure: string };

/** Fetches the head of a branch shallow into a new scratch repository and reads the files below a folder. */
export const fetchHeadJob = defineJob({
  name: 'gitTransport.fetchHead',
  what: 'fetching a Git branch',
  run: (input: FetchHeadInput): Promise<FetchHeadResult> =>
    inScratch(input, true, async (scratch) => {
      const { remote, branch } = input;
      try {
        if (input.mayBeNew && !(await hasBranch(scratch, remote, branch))) return {};
        const head = await fetchHead(scratch, branch);
        if (head === undefined) throw new GitTransportError(`${remote.url} has no branch ${branch}`);
        return { head: await readHead(scratch, head, input.folder, input.limits) };
      } catch (error) {
        return { failure: transportError(error, scratch, remote, input.maxTransferBytes).message };
      }
    }),
  transferInput: (input) => [input.port],
  transferOutput: (output) => ('head' in output && output.head ? buffersOf(output.head.files.map((file) => file.bytes)) : []),
});

/** What committing takes: the scratch repository the head was fetched into and its relay, the branch, its head and the edit. */
export interface CommitInput extends ScratchInput {
  readonly branch: string;
  /** The head's commit; undefined for a new branch. */
  readonly head?: string;
  readonly edit: TreeEditInput;
}

/** Commits an edit on the fetched head and pushes it. */
export const commitJob = defineJob({
  name: 'gitTransport.commit',
  what: 'committing and pushing to a Git branch',
  run: (input: CommitInput): Promise<CommitResult> => inScratch(input, false, (scratch) => commitAndPush(scratch, input.remote, input.branch, input.head, input.edit, input.maxTransferBytes)),
  transferInput: (input) => [input.port, ...buffersOf(input.edit.write.map(([, bytes]) => bytes))],
});

/**
 * Removes a scratch repository once its operation ended. An export's holds a loose object per file it wrote
 * (a thousand pages: some 1,300 files): removed from the thread that answers requests, every file was a
 * callback there and an unlink on libuv's threads, at the process's priority, in one burst. Here the calls
 * block the job's thread alone.
 */
export const removeScratchJob = defineJob({
  name: 'gitTransport.removeScratch',
  what: 'removing a Git scratch repository',
  run: ({ dir }: { readonly dir: string }): Record<string, never> => {
    rmSync(dir, { recursive: true, force: true });
    return {};
  },
});

registerJobs([fetchHeadJob, commitJob, removeScratchJob]);
