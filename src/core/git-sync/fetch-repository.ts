import type { Ports } from '../context.js';
import { MAX_IMPORT_BYTES, MAX_UNZIPPED_BYTES, MAX_ZIP_ENTRIES } from '../content/import/schemas.js';
import { readRepositoryJob, type ReadRepositoryOutput } from './read-job.js';
import { remoteOf, type GitCommitInfo, type GitFetchLimits } from './transport.js';

/**
 * Fetching a repository for an import: the head of the branch, shallow, through the Git transport, and
 * its docs read in a worker (read-repository.ts, the import's Markdown limits on every body). Failures are
 * GitTransportErrors (unreachable, no such branch, over a limit) or 400s (unsafe, malformed).
 */

/** The limits of a repository an import reads: those of a zip import. */
export const GIT_IMPORT_LIMITS: GitFetchLimits = {
  maxFiles: MAX_ZIP_ENTRIES,
  maxFileBytes: MAX_IMPORT_BYTES,
  maxTotalBytes: MAX_UNZIPPED_BYTES,
  maxTransferBytes: MAX_UNZIPPED_BYTES,
};

/** A repository as read: its head commit, and its docs as a plan with local ids. */
export interface FetchedRepository extends ReadRepositoryOutput {
  readonly commit: GitCommitInfo;
}

/** The project directory of a request, canonical enough for the transport ('' for the repository's root). */
export const projectFolderOf = (repoProjectDirectory: string | undefined): string => (repoProjectDirectory ?? '').replace(/^\.?\/+|\/+$/g, '');

/** Fetches the head of the request's branch and reads its docs. */
export async function readRemoteRepository(ports: Ports, input: { url: string; ref: string; repoProjectDirectory?: string }): Promise<FetchedRepository> {
  const remote = remoteOf(input.url);
  const folder = input.repoProjectDirectory ?? '';
  const branch = input.ref.slice('refs/heads/'.length);
  const fetched = await ports.gitTransport.fetchTree(remote, branch, projectFolderOf(folder), GIT_IMPORT_LIMITS);
  const read = await ports.workers.run(readRepositoryJob, { files: fetched.files, projectDirectory: folder, where: remote.url }, ports.closing);
  return { ...read, commit: fetched.commit };
}
