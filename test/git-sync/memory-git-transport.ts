import { gitBlobOid } from '../../src/core/content/git.js';
import { GitTransportError, type FetchedTree, type GitTransport, type GitTreeFile } from '../../src/core/git-sync/transport.js';

/**
 * A Git transport over repositories in memory, for tests that drive exports and imports through the
 * platform without a Git server (the quick project): a branch is its head's files and message, and a
 * commit id counts up. The transport's own behaviour (packs, pushes, the outbound filter) is tested
 * against a real server in test/git/.
 */

interface Head {
  readonly oid: string;
  readonly message: string;
  readonly files: ReadonlyMap<string, Uint8Array>;
}

/** The files of a head below a folder. */
const below = (head: Head, folder: string): GitTreeFile[] =>
  [...head.files].filter(([path]) => folder === '' || path.startsWith(`${folder}/`)).map(([path, bytes]) => ({ path, bytes }));

/** A transport over in-memory repositories, and a look at their branches. */
export function memoryGitTransport(): GitTransport & { head(url: string, branch: string): Head | undefined } {
  const branches = new Map<string, Head>();
  let commits = 0;
  const key = (url: string, branch: string) => `${url}#${branch}`;
  return {
    head: (url, branch) => branches.get(key(url, branch)),
    async fetchTree(remote, branch, folder) {
      const head = branches.get(key(remote.url, branch));
      if (!head) throw new GitTransportError(`${remote.url} has no branch ${branch}`);
      return { commit: { oid: head.oid, message: head.message }, files: below(head, folder) };
    },
    async commitTree(remote, branch, folder, _limits, edit) {
      const head = branches.get(key(remote.url, branch));
      const fetched: FetchedTree | undefined = head && { commit: { oid: head.oid, message: head.message }, files: below(head, folder) };
      const change = await edit(fetched);
      const files = new Map(head?.files);
      for (const path of change.remove) files.delete(path);
      for (const [path, bytes] of change.write) files.set(path, bytes);
      const same = head !== undefined && files.size === head.files.size && [...files].every(([path, bytes]) => head.files.has(path) && Buffer.compare(bytes, head.files.get(path)!) === 0);
      const blobs = new Map<string, string>();
      for (const [path, bytes] of change.write) blobs.set(path, await gitBlobOid(bytes));
      if (same || (head === undefined && files.size === 0)) return { unchanged: fetched?.commit, blobs };
      const oid = (++commits).toString(16).padStart(40, '0');
      branches.set(key(remote.url, branch), { oid, message: change.message, files });
      return { pushed: { oid, message: change.message }, blobs };
    },
  };
}
