import type { ReadTransaction } from '../../store/types.js';
import type { WriteContext } from '../context.js';
import { TABLES, type PageMoveRecord } from '../records.js';
import { diffMaps } from './btree.js';
import { loadRevision } from './revision.js';

/**
 * The old paths of moved and renamed pages. When a space's revision changes (a merge, an import), each path
 * the new revision no longer has, or gives another page, is recorded with the page that was there, so that
 * its old published URL still leads to that page wherever it is now (the reader redirects there when
 * nothing else is at that path; a page since deleted leads nowhere). Only the revisions' maps of paths are
 * compared: when no path changed they are the same map and nothing is read; otherwise the reads follow the
 * paths that changed, not the size of the space.
 */

const moveId = (spaceId: string, path: string) => `${spaceId}/${path}`;

/** Records the paths that revision `from` of a space had and revision `to` no longer gives the same page. */
export async function recordMovedPages(ctx: WriteContext, spaceId: string, from: string, to: string): Promise<void> {
  const [a, b] = [await loadRevision(ctx.tx, from), await loadRevision(ctx.tx, to)];
  const { removed, changed } = await diffMaps(ctx.tx, a.content.paths, b.content.paths);
  const left: [string, unknown][] = [...removed, ...changed.map(([path, was]) => [path, was] as [string, unknown])];
  for (const [path, pageId] of left) {
    const record: PageMoveRecord = { id: moveId(spaceId, path), spaceId, path, pageId: pageId as string, movedAt: ctx.now };
    await ctx.tx.put(TABLES.pageMoves, record);
  }
}

/** The id of the page that last left a path of a space, if one did. */
export async function movedFrom(tx: ReadTransaction, spaceId: string, path: string): Promise<string | undefined> {
  return ((await tx.get(TABLES.pageMoves, moveId(spaceId, path))) as PageMoveRecord | undefined)?.pageId;
}
