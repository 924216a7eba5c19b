import type { ReadTransaction } from '../../store/types.js';
import { toHex } from '../blobs.js';
import { TABLES } from '../records.js';
import type { PageEntry } from './model.js';

/**
 * The Git view of content, for the `git` objects of pages and files: the id Git would give a file's bytes
 * and the path a page or a file would have in a Git export of the space (as Git Sync lays it out).
 */

/** The Git blob id of some bytes: SHA-1 of `blob <size>\0` and the bytes. */
export async function gitBlobOid(bytes: Uint8Array): Promise<string> {
  const header = new TextEncoder().encode(`blob ${bytes.length}\0`);
  const all = new Uint8Array(header.length + bytes.length);
  all.set(header);
  all.set(bytes, header.length);
  return toHex(await crypto.subtle.digest('SHA-1', all));
}

/** The Git blob id of a text file (UTF-8). */
export const gitTextOid = (text: string) => gitBlobOid(new TextEncoder().encode(text));

/**
 * The path of a page's Markdown file in a Git export: `<path>/README.md` for a page with subpages or a
 * group, `<path>.md` otherwise.
 */
export function gitPagePath(page: Pick<PageEntry, 'path' | 'type'>, hasChildren: boolean): string {
  return hasChildren || page.type === 'group' ? `${page.path}/README.md` : `${page.path}.md`;
}

/** The path of a file in a Git export. */
export const gitFilePath = (name: string) => `.gitbook/assets/${name}`;

/**
 * Where the last Git sync of a space found or wrote its pages and files (GitSyncRecord.paths, relative to the
 * docs' root), by id: their `git.path`, which for a repository laid out its own way is not the path of their
 * slugs. Empty for a space never synced.
 */
export async function syncedGitPaths(tx: ReadTransaction, spaceId: string): Promise<Readonly<Record<string, string>>> {
  const sync = (await tx.get(TABLES.gitSyncs, spaceId)) as { readonly paths?: Readonly<Record<string, string>> } | undefined;
  return sync?.paths ?? {};
}
