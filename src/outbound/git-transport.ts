import type { Fetch } from '../core/context.js';
import { GitTransportError, type GitTransport } from '../core/git-sync/transport.js';
import { commitTree } from './git-commit.js';
import { fetchHead, inScratch, readHead, transportError } from './git-http.js';

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

/** Creates the Git transport over an outbound fetch. */
export function createGitTransport(options: GitTransportOptions): GitTransport {
  return {
    fetchTree: (remote, branch, folder, limits) =>
      inScratch(options.fetch, remote, limits.maxTransferBytes, async (scratch) => {
        try {
          const head = await fetchHead(scratch, branch);
          if (head === undefined) throw new GitTransportError(`${remote.url} has no branch ${branch}`);
          return await readHead(scratch.dir, head, folder, limits);
        } catch (error) {
          throw transportError(error, scratch, remote, limits);
        }
      }),
    commitTree: (remote, branch, folder, limits, edit) => commitTree(options.fetch, remote, branch, folder, limits, edit),
  };
}
