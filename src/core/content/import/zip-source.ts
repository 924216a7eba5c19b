import type { FetchedBytes } from '../../fetch-bytes.js';
import type { UnsettledPlan } from './local-ids.js';
import { planTree } from './tree-planner.js';
import { openZip, type ZipEntry } from './zip.js';

/**
 * A zip archive of Markdown files and images to a page tree: the archive's entries, without clutter and
 * without the one folder that may wrap them, are a tree of files that tree-planner.ts plans as pages. Files
 * nothing links to are skipped.
 */

/** Entries that operating systems add to archives and that are nobody's content (`__MACOSX/`, `._x`, `.DS_Store`). */
const isClutter = (path: string): boolean =>
  path.startsWith('__MACOSX/') || /(^|\/)\._/.test(path) || /(^|\/)(\.DS_Store|Thumbs\.db|desktop\.ini)$/i.test(path) || path.split('/').includes('..');

/** The entries by path, without the one folder that wraps them all when there is one (`project-main/...`). */
function unwrap(entries: readonly ZipEntry[]): Map<string, ZipEntry> {
  const first = entries[0]?.path.split('/')[0];
  const wrapped = first !== undefined && entries.every((entry) => entry.path.startsWith(`${first}/`));
  return new Map(entries.map((entry) => [wrapped ? entry.path.slice(first.length + 1) : entry.path, entry]));
}

/**
 * Plans the import of a zip archive: a 400 when it is not a zip, is damaged, breaks a limit or holds no
 * Markdown. The files it uses come with their bytes, stored before the transaction (local-ids.ts).
 */
export function planZip(newId: () => string, url: string, fetched: FetchedBytes): UnsettledPlan {
  const where = `url: ${url}`;
  const archive = openZip(fetched.bytes, where);
  const content = archive.entries.filter((entry) => !isClutter(entry.path));
  const entries = unwrap(content);
  const { pages, files, used } = planTree(newId, { paths: [...entries.keys()], read: (path) => archive.read(entries.get(path)!) }, where);
  // Every file entry of the archive was processed; those that became no page and no file were skipped.
  return { pages, files, skipped: archive.entries.length - used };
}
