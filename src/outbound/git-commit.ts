import * as fs from 'node:fs';
import git, { type TreeEntry } from 'isomorphic-git';
import type { Fetch } from '../core/context.js';
import { GitTransportError, scrubCredentials, type FetchedTree, type GitCommitOutcome, type GitFetchLimits, type GitRemote, type GitTreeEdit } from '../core/git-sync/transport.js';
import { fetchHead, hasBranch, inScratch, readHead, transportError } from './git-http.js';

/**
 * An export's commit on Node (the Git transport's `commitTree`): the head of the branch fetched shallow, the
 * edit applied to its tree (every other entry kept as it is, by id: code, CI files, submodules), a commit
 * whose parent is the head, pushed without force, so that a branch that moved meanwhile refuses it.
 */

/** An entry of a tree being rebuilt: a file, link or submodule as it was (mode, id), or a folder. */
type Entry = { readonly mode: string; readonly oid: string; readonly type: TreeEntry['type'] } | Folder;
interface Folder {
  readonly type: 'folder';
  readonly entries: Map<string, Entry>;
}

/** The entries of the tree `oid`, its folders read down to their files. */
async function readFolder(dir: string, oid: string): Promise<Folder> {
  const { tree } = await git.readTree({ fs, dir, oid });
  const entries = new Map<string, Entry>();
  for (const entry of tree) entries.set(entry.path, entry.type === 'tree' ? await readFolder(dir, entry.oid) : { mode: entry.mode, oid: entry.oid, type: entry.type });
  return { type: 'folder', entries };
}

/** The folder at `parts` below `root`, made on the way when `make` (a file in the way is replaced). */
function folderAt(root: Folder, parts: readonly string[], make: boolean): Folder | undefined {
  let folder = root;
  for (const part of parts) {
    let next = folder.entries.get(part);
    if (next?.type !== 'folder') {
      if (!make) return undefined;
      next = { type: 'folder', entries: new Map() };
      folder.entries.set(part, next);
    }
    folder = next;
  }
  return folder;
}

/** Writes a folder and the folders in it as trees; its tree id, or undefined when it holds nothing. */
async function writeFolder(dir: string, folder: Folder): Promise<string | undefined> {
  const tree: TreeEntry[] = [];
  for (const [path, entry] of folder.entries) {
    if (entry.type !== 'folder') {
      tree.push({ path, ...entry });
      continue;
    }
    const oid = await writeFolder(dir, entry);
    if (oid !== undefined) tree.push({ path, mode: '040000', oid, type: 'tree' });
  }
  return tree.length === 0 ? undefined : git.writeTree({ fs, dir, tree });
}

/** The tree of `base` (absent: empty) with the edit applied: its id ('' for an empty tree). */
async function editedTree(dir: string, base: string | undefined, edit: GitTreeEdit): Promise<string> {
  const root = base === undefined ? { type: 'folder' as const, entries: new Map<string, Entry>() } : await readFolder(dir, base);
  for (const path of edit.remove) {
    const parts = path.split('/');
    folderAt(root, parts.slice(0, -1), false)?.entries.delete(parts.at(-1)!);
  }
  for (const [path, bytes] of edit.write) {
    const parts = path.split('/');
    const oid = await git.writeBlob({ fs, dir, blob: bytes });
    folderAt(root, parts.slice(0, -1), true)!.entries.set(parts.at(-1)!, { mode: '100644', oid, type: 'blob' });
  }
  return (await writeFolder(dir, root)) ?? (await git.writeTree({ fs, dir, tree: [] }));
}

/** A person of a commit at a time, as isomorphic-git takes it. */
const signature = (person: { name: string; email: string }, time: number) => ({ ...person, timestamp: Math.floor(time / 1000), timezoneOffset: 0 });

/** Commits an edit on `branch` of a remote and pushes it (see GitTransport.commitTree). */
export function commitTree(
  fetch: Fetch,
  remote: GitRemote,
  branch: string,
  folder: string,
  limits: GitFetchLimits,
  edit: (head: FetchedTree | undefined) => Promise<GitTreeEdit>,
): Promise<GitCommitOutcome> {
  return inScratch(fetch, remote, limits.maxTransferBytes, async (scratch) => {
    const { dir } = scratch;
    let head: FetchedTree | undefined;
    try {
      const oid = (await hasBranch(scratch, remote, branch)) ? await fetchHead(scratch, branch) : undefined;
      head = oid === undefined ? undefined : await readHead(dir, oid, folder, limits);
    } catch (error) {
      throw transportError(error, scratch, remote, limits);
    }
    // What the edit throws (a refusal of the export) is the caller's, as it is.
    const change = await edit(head);
    try {
      const base = head === undefined ? undefined : (await git.readCommit({ fs, dir, oid: head.commit.oid })).commit.tree;
      const tree = await editedTree(dir, base, change);
      if (tree === base) return { unchanged: head?.commit };
      const oid = await git.commit({
        fs,
        dir,
        message: change.message,
        author: signature(change.author, change.time),
        committer: signature(change.committer, change.time),
        tree,
        parent: head === undefined ? [] : [head.commit.oid],
        ref: 'refs/heads/export',
      });
      await git.push({ fs, http: scratch.http, dir, remote: 'origin', ref: 'refs/heads/export', remoteRef: `refs/heads/${branch}`, ...scratch.auth });
      return { pushed: { oid, message: change.message } };
    } catch (error) {
      const failure = error as { code?: string; data?: { prettyDetails?: string } };
      if (failure.code === 'PushRejectedError') throw new GitTransportError(`${remote.url}: ${branch} moved while the export ran; export again`);
      if (failure.code === 'GitPushError') throw new GitTransportError(scrubCredentials(`${remote.url} refused the push to ${branch}:${failure.data?.prettyDetails ?? ''}`, remote));
      throw transportError(error, scratch, remote, limits);
    }
  });
}
