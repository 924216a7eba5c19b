import * as fs from 'node:fs';
import git, { type TreeEntry } from 'isomorphic-git';
import { scrubCredentials, type GitCommitInfo, type GitPerson, type GitRemote } from '../core/git-sync/transport.js';
import { transportError, type Scratch } from './git-http.js';

/**
 * An export's commit, in the job's thread (git-jobs.ts), once its branch's head is fetched into the scratch
 * repository: the edit applied to the head's tree (every other entry kept as it is, by id: code, CI files,
 * submodules), a commit whose parent is the head, pushed without force, so that a branch that moved
 * meanwhile refuses it.
 */

/** An edit as it crosses to the job's thread: the files to write (their bytes moved), the paths to remove, and the commit. */
export interface TreeEditInput {
  readonly write: readonly (readonly [string, Uint8Array])[];
  readonly remove: readonly string[];
  readonly message: string;
  readonly author: GitPerson;
  readonly committer: GitPerson;
  /** When the commit is made, in milliseconds since the epoch. */
  readonly time: number;
}

/** An entry of a tree being rebuilt: a file, link or submodule as it was (mode, id), or a folder. */
type Entry = { readonly mode: string; readonly oid: string; readonly type: TreeEntry['type'] } | Folder;
interface Folder {
  readonly type: 'folder';
  readonly entries: Map<string, Entry>;
}

/** The entries of the tree `oid`, its folders read down to their files. */
async function readFolder(dir: string, cache: object, oid: string): Promise<Folder> {
  const { tree } = await git.readTree({ fs, dir, cache, oid });
  const entries = new Map<string, Entry>();
  for (const entry of tree) entries.set(entry.path, entry.type === 'tree' ? await readFolder(dir, cache, entry.oid) : { mode: entry.mode, oid: entry.oid, type: entry.type });
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

/** The tree of `base` (absent: empty) with the edit applied: its id, and the blob id of each file written by path. */
async function editedTree({ dir, cache }: Scratch, base: string | undefined, edit: TreeEditInput): Promise<{ tree: string; blobs: [string, string][] }> {
  const root = base === undefined ? { type: 'folder' as const, entries: new Map<string, Entry>() } : await readFolder(dir, cache, base);
  for (const path of edit.remove) {
    const parts = path.split('/');
    folderAt(root, parts.slice(0, -1), false)?.entries.delete(parts.at(-1)!);
  }
  const blobs: [string, string][] = [];
  for (const [path, bytes] of edit.write) {
    const parts = path.split('/');
    const oid = await git.writeBlob({ fs, dir, blob: bytes });
    blobs.push([path, oid]);
    folderAt(root, parts.slice(0, -1), true)!.entries.set(parts.at(-1)!, { mode: '100644', oid, type: 'blob' });
  }
  return { tree: (await writeFolder(dir, root)) ?? (await git.writeTree({ fs, dir, tree: [] })), blobs };
}

/** A person of a commit at a time, as isomorphic-git takes it. */
const signature = (person: GitPerson, time: number) => ({ ...person, timestamp: Math.floor(time / 1000), timezoneOffset: 0 });

/** How a commit went, as it crosses back: the commit pushed, none because the tree stays as it was (with the blob id of each file written), or why it failed. */
export type CommitResult = (({ readonly pushed: GitCommitInfo } | { readonly unchanged: true }) & { readonly blobs: [string, string][] }) | { readonly failure: string };

/** Commits an edit on the fetched head (undefined: a new branch) of `branch` and pushes it (see GitTransport.commitTree). */
export async function commitAndPush(scratch: Scratch, remote: GitRemote, branch: string, head: string | undefined, edit: TreeEditInput, maxTransferBytes: number): Promise<CommitResult> {
  const { dir, cache } = scratch;
  try {
    const base = head === undefined ? undefined : (await git.readCommit({ fs, dir, cache, oid: head })).commit.tree;
    const { tree, blobs } = await editedTree(scratch, base, edit);
    if (tree === base) return { unchanged: true, blobs };
    const oid = await git.commit({
      fs,
      dir,
      cache,
      message: edit.message,
      author: signature(edit.author, edit.time),
      committer: signature(edit.committer, edit.time),
      tree,
      parent: head === undefined ? [] : [head],
      ref: 'refs/heads/export',
    });
    await git.push({ fs, http: scratch.http, dir, cache, remote: 'origin', ref: 'refs/heads/export', remoteRef: `refs/heads/${branch}`, ...scratch.auth });
    return { pushed: { oid, message: edit.message }, blobs };
  } catch (error) {
    const failure = error as { code?: string; data?: { prettyDetails?: string } };
    if (failure.code === 'PushRejectedError') return { failure: `${remote.url}: ${branch} moved while the export ran; export again` };
    if (failure.code === 'GitPushError') return { failure: scrubCredentials(`${remote.url} refused the push to ${branch}:${failure.data?.prettyDetails ?? ''}`, remote) };
    return { failure: transportError(error, scratch, remote, maxTransferBytes).message };
  }
}
