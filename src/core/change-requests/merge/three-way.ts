import type { FileEntry, PageEntry } from '../../content/model.js';
import { changedFrom, entryOf, mergePage, updatedAtOf, type MergedPage } from './pages.js';
import { mergedBody } from './text.js';
import { sameValue } from './pick.js';
import { settleTree } from './places.js';
import type { Bodies, MergeConflict, MergeSide, MergedContent } from './types.js';

/**
 * The three-way merge of two revisions of a space's content: a pure function of the base (the revision
 * both came from), ours (the space's revision) and theirs (the change request's revision), with no store.
 *
 * Page by page (by id): a page added on one side is kept; a page deleted on one side and left as it was on
 * the other is deleted; otherwise each aspect of the page (each own field, slug, place, body) takes the side
 * that changed it, so changes to different aspects (or different lines of the body) combine. Anything
 * changed differently on both sides is a conflict that the change request wins: its value, its lines of
 * the body, its deletion or its edit of a page the space deleted. Then settleTree makes the result one valid
 * tree (orphans, cycles, ordering ties, slug clashes) and computes the paths. Files merge the same way,
 * each entry as one value.
 *
 * `bodies` must hold the Markdown of every document of the pages bodiesToRead() names (no other is read).
 * The result depends only on the three sides, never on the order of the inputs' maps.
 */
export function mergeContent(base: MergeSide, ours: MergeSide, theirs: MergeSide, bodies: Bodies, normalize: (text: string) => string = mergedBody): MergedContent {
  const conflicts: MergeConflict[] = [];
  const pages = new Map<string, MergedPage>();
  for (const id of unionOfIds(base.byId, ours.byId, theirs.byId)) {
    const merged = mergeOne(base.byId.get(id), ours.byId.get(id), theirs.byId.get(id), bodies, conflicts, normalize);
    if (merged) pages.set(id, merged);
  }
  const settled = settleTree(pages, { base, ours, theirs }, conflicts);
  const bodiesOut = new Map<string, string>();
  for (const [id, page] of pages) if (page.body !== undefined) bodiesOut.set(id, page.body);
  return { pages: settled, bodies: bodiesOut, files: mergeFiles(base, ours, theirs, conflicts), conflicts: sortConflicts(conflicts) };
}

/**
 * The pages whose bodies the merge compares (each document once): those of pages whose body both sides
 * changed differently, on all three sides. `bodies` is keyed by their `document`.
 */
export function bodiesToRead(base: MergeSide, ours: MergeSide, theirs: MergeSide): PageEntry[] {
  const out = new Map<string, PageEntry>();
  for (const [id, mine] of ours.byId) {
    const other = theirs.byId.get(id);
    const was = base.byId.get(id);
    if (!other || mine.document === other.document) continue;
    if (was && (was.document === mine.document || was.document === other.document)) continue;
    for (const page of [was, mine, other]) if (page?.document !== undefined && !out.has(page.document)) out.set(page.document, page);
  }
  return [...out.keys()].sort().map((document) => out.get(document)!);
}

/** One page of the result (undefined: not in it). */
function mergeOne(
  base: PageEntry | undefined,
  ours: PageEntry | undefined,
  theirs: PageEntry | undefined,
  bodies: Bodies,
  conflicts: MergeConflict[],
  normalize: (text: string) => string,
): MergedPage | undefined {
  if (ours && theirs) {
    // Most pages: untouched on both sides (checked without building anything).
    if (base && !changedFrom(base, ours) && !changedFrom(base, theirs)) return { entry: entryOf(theirs, { updatedAt: updatedAtOf(base, ours, theirs) }), placeFrom: 'base' };
    return mergePage(base, ours, theirs, bodies, conflicts, normalize);
  }
  const kept = ours ?? theirs;
  if (!kept) return undefined;
  if (!base) return { entry: entryOf(kept), placeFrom: kept === ours ? 'ours' : 'theirs' };
  // Deleted on one side: stays deleted unless the other side changed the page; then the request decides.
  if (!changedFrom(base, kept)) return undefined;
  conflicts.push({ kind: 'page', id: kept.id, reason: 'deleted' });
  return kept === theirs ? { entry: entryOf(theirs), placeFrom: 'theirs' } : undefined;
}

/** Files, each entry one value: the same rules as pages, without aspects. */
function mergeFiles(base: MergeSide, ours: MergeSide, theirs: MergeSide, conflicts: MergeConflict[]): Map<string, FileEntry> {
  const index = (side: MergeSide) => new Map(side.files.map((file) => [file.id, file]));
  const [was, mine, other] = [index(base), index(ours), index(theirs)];
  const out = new Map<string, FileEntry>();
  for (const id of unionOfIds(was, mine, other)) {
    const [b, o, t] = [was.get(id), mine.get(id), other.get(id)];
    const changed = (side: FileEntry | undefined) => !sameValue(b, side);
    let value: FileEntry | undefined;
    if (!changed(o)) value = t;
    else if (!changed(t) || sameValue(o, t)) value = o;
    else {
      conflicts.push({ kind: 'file', id, reason: o && t ? 'field' : 'deleted' });
      value = t;
    }
    if (value) out.set(id, value);
  }
  return out;
}

/** Every id of three maps, sorted. */
function unionOfIds(...maps: ReadonlyMap<string, unknown>[]): string[] {
  const ids = new Set<string>();
  for (const map of maps) for (const id of map.keys()) ids.add(id);
  return [...ids].sort();
}

const REASONS: readonly MergeConflict['reason'][] = ['deleted', 'field', 'slug', 'place', 'body', 'parent-deleted', 'cycle', 'slug-taken'];

/** Conflicts in a stable order: pages then files, by id, then by reason and field. */
function sortConflicts(conflicts: MergeConflict[]): MergeConflict[] {
  const key = (c: MergeConflict) => [c.kind === 'page' ? 0 : 1, c.id, REASONS.indexOf(c.reason), c.field ?? ''] as const;
  return [...conflicts].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
  });
}
