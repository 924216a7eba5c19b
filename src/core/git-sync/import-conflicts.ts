import type { WriteContext } from '../context.js';
import type { MergeConflict } from '../change-requests/merge/types.js';
import { loadRevision, readFile, readPage } from '../content/revision.js';
import { ApiError, conflict } from '../errors.js';
import type { RevisionRecord } from '../records.js';

/**
 * The conflicts that fail a Git import, and the message that names them. A change request's merge resolves
 * every conflict (the request wins); an import resolves only the ones the merge settles on its own (a slug
 * taken, a parent gone, a cycle) and fails on true ones, where the space and the repository changed the
 * same thing differently, unless `force` lets the repository win.
 */

/** The reasons of true conflicts: both sides changed the same aspect differently. */
const TRUE_REASONS: ReadonlySet<MergeConflict['reason']> = new Set(['deleted', 'field', 'slug', 'place', 'body']);

/** How many pages or files a message names before it counts the rest. */
const NAMED = 10;

/** The true conflicts of a merge. */
export const trueConflicts = (conflicts: readonly MergeConflict[]): MergeConflict[] => conflicts.filter((clash) => TRUE_REASONS.has(clash.reason));

/** What clashed, in words. */
function aspect(clash: MergeConflict): string {
  switch (clash.reason) {
    case 'deleted':
      return 'deleted on one side, changed on the other';
    case 'field':
      return `its ${clash.field}`;
    case 'body':
      return 'the same lines of its text';
    default:
      return `its ${clash.reason}`;
  }
}

/**
 * A 409 naming what both sides changed (a page by its title, a file by its name, as either revision has
 * it) and how to go on.
 */
export async function conflictError(ctx: WriteContext, clashes: readonly MergeConflict[], revisions: readonly (RevisionRecord | string)[]): Promise<ApiError> {
  const loaded = await Promise.all(revisions.map((revision) => (typeof revision === 'string' ? loadRevision(ctx.tx, revision) : revision)));
  const byItem = new Map<string, { name: string; aspects: string[] }>();
  for (const clash of clashes) {
    const key = `${clash.kind}:${clash.id}`;
    let item = byItem.get(key);
    if (!item) {
      let name = clash.id;
      for (const revision of loaded) {
        const found = clash.kind === 'page' ? (await readPage(ctx.tx, revision, clash.id))?.title : (await readFile(ctx.tx, revision, clash.id))?.name;
        if (found !== undefined) {
          name = found;
          break;
        }
      }
      byItem.set(key, (item = { name: `${clash.kind} "${name}"`, aspects: [] }));
    }
    item.aspects.push(aspect(clash));
  }
  const items = [...byItem.values()];
  const named = items.slice(0, NAMED).map((item) => `${item.name} (${item.aspects.join(', ')})`);
  const more = items.length > NAMED ? ` and ${items.length - NAMED} more` : '';
  return conflict(
    `The space and the repository both changed ${named.join(', ')}${more} since the last sync. Make them agree on one side, or import again with force to let the repository win`,
  );
}
