import type { WriteContext } from '../../context.js';
import { openDraft } from '../../content/draft.js';
import { INLINE_MARKDOWN_CHARS, markdownWork } from '../../content/markdown-work.js';
import { loadRevision, readMarkdown } from '../../content/revision.js';
import type { ChangeRequestRecord, RevisionGitRecord, RevisionRecord, RevisionType, SpaceRecord } from '../../records.js';
import { baseRevisionOf } from '../access.js';
import { applyMerged } from './apply.js';
import { entryOf } from './pages.js';
import { sameValue } from './pick.js';
import { MergeSides } from './sides.js';
import { mergedBody, mergedBodyJob } from './text.js';
import { bodiesToRead, mergeContent } from './three-way.js';
import type { MergeConflict, MergeSide, MergedContent } from './types.js';

/** The three revisions of a merge and how to record its result. */
export interface MergeRequest {
  /** The revision both sides came from: the change request's base. */
  readonly base: string;
  /** The space's revision. */
  readonly ours: string;
  /** The change request's revision (the side that wins conflicts). */
  readonly theirs: string;
  /** The new revision's parents, its type and its change request (none for a Git import's merge). */
  readonly parents: readonly string[];
  readonly type: Extract<RevisionType, 'merge' | 'update'>;
  readonly changeRequestId?: string;
  /** The Git commit the theirs side comes from (a Git import), for the revision's `git`. */
  readonly git?: RevisionGitRecord;
}

/** What a merge stored: the new revision, and what clashed on the way (empty: a clean merge). */
export interface MergeOutcome {
  readonly revision: RevisionRecord;
  readonly conflicts: readonly MergeConflict[];
  /** False when no page of the space's revision (`ours`) has another path in the new one: none was moved, renamed or removed. */
  readonly movesPages: boolean;
}

/**
 * Whether the result moves, renames or removes a page of the space's side. The side holds every page
 * either side changed, their ancestors and the siblings the result needed: any other page keeps its parent
 * and slug, hence its path (MergeSides), so these are the only pages whose path can change.
 */
function movesPages(ours: MergeSide, merged: MergedContent): boolean {
  for (const [id, live] of ours.byId) {
    const result = merged.pages.get(id);
    if (!result || result.parent !== live.parent || result.slug !== live.slug) return true;
  }
  return false;
}

/**
 * Merges three revisions of a space (three-way.ts) and stores the result as a new revision. When one side
 * is still the base, the result is the other side as it is (the properties of test/property/merge.test.ts),
 * so its maps are shared whole and nothing is read. Otherwise only what the two sides changed from the
 * base is read (MergeSides: the two diffs, the ancestors, and the siblings of pages put at a new place),
 * merged, and written over whichever side it differs least from, so that the cost follows the size of
 * the change, not of the space.
 */
export async function commitMerge(ctx: WriteContext, request: MergeRequest): Promise<MergeOutcome> {
  const meta = { parents: request.parents, type: request.type, changeRequestId: request.changeRequestId, ...(request.git !== undefined && { git: request.git }) };
  if (request.ours === request.base || request.theirs === request.base) {
    const unchanged = request.ours === request.base ? request.theirs : request.ours;
    // The space's content as it is, or the request's: then whatever the request moved is moved.
    return { revision: await (await openDraft(ctx, unchanged)).commit(meta), conflicts: [], movesPages: unchanged !== request.ours };
  }
  const [base, ours, theirs] = [await loadRevision(ctx.tx, request.base), await loadRevision(ctx.tx, request.ours), await loadRevision(ctx.tx, request.theirs)];
  const sides = await MergeSides.load(ctx.tx, base, ours, theirs);
  const bodies = new Map<string, string>();
  const normalize = new MergedBodies();
  let merged: MergedContent;
  // Where the result puts pages at new places, their siblings are read and the merge runs again with them;
  // where it combined long bodies, they are normalized off the event loop and it runs again with them.
  for (;;) {
    for (const page of bodiesToRead(sides.base, sides.ours, sides.theirs)) {
      if (!bodies.has(page.document!)) bodies.set(page.document!, await readMarkdown(ctx.tx, page));
    }
    merged = mergeContent(sides.base, sides.ours, sides.theirs, bodies, normalize.get);
    if (await normalize.settle(ctx)) continue;
    const missing = sides.missingLists(merged);
    if (missing.length === 0) break;
    await sides.loadChildren(missing);
  }
  const [start, side] = differences(sides.ours, merged) < differences(sides.theirs, merged) ? [ours, sides.ours] : [theirs, sides.theirs];
  const draft = await openDraft(ctx, start.id);
  await applyMerged(draft, side, merged);
  return { revision: await draft.commit(meta), conflicts: merged.conflicts, movesPages: movesPages(sides.ours, merged) };
}

/**
 * The normalized forms of a merge's combined bodies: a short one is normalized when asked (mergedBody), a
 * long one is noted and given back as it is, until `settle` has normalized it as a job (markdown-work.ts).
 */
class MergedBodies {
  private readonly done = new Map<string, string>();
  private readonly waiting = new Set<string>();

  readonly get = (text: string): string => {
    if (text.length <= INLINE_MARKDOWN_CHARS) return mergedBody(text);
    const normalized = this.done.get(text);
    if (normalized === undefined) this.waiting.add(text);
    return normalized ?? text;
  };

  /** Normalizes the long bodies noted since the last call; whether there were any (then merge again). */
  async settle(ctx: WriteContext): Promise<boolean> {
    if (this.waiting.size === 0) return false;
    for (const text of this.waiting) this.done.set(text, await markdownWork(ctx.workers, mergedBodyJob, text, text.length));
    this.waiting.clear();
    return true;
  }
}

/**
 * Merges a change request with its space's content (base: the request's base; theirs: the request) into a
 * new revision: of type `merge` with parents [space, request] for a merge, `update` with parents
 * [request, space] for an update. The same content either way; only what becomes of it differs.
 */
export function mergeWithSpace(ctx: WriteContext, space: SpaceRecord, changeRequest: ChangeRequestRecord, type: MergeRequest['type']): Promise<MergeOutcome> {
  // A request with no edits on a space that has not moved: one parent, not the same one twice.
  const sides = [...new Set([space.revision, changeRequest.revision])];
  return commitMerge(ctx, {
    base: baseRevisionOf(changeRequest),
    ours: space.revision,
    theirs: changeRequest.revision,
    parents: type === 'merge' ? sides : sides.reverse(),
    type,
    changeRequestId: changeRequest.id,
  });
}

/** How many pages and files of a side the merged content adds, removes or changes. */
function differences(side: MergeSide, merged: MergedContent): number {
  let count = 0;
  for (const [id, page] of merged.pages) {
    const was = side.byId.get(id);
    // entryOf leaves out a PageNode's children.
    if (!was || merged.bodies.has(id) || !sameValue(entryOf(was), page)) count++;
  }
  for (const id of side.byId.keys()) if (!merged.pages.has(id)) count++;
  const files = new Map(side.files.map((file) => [file.id, file]));
  for (const [id, file] of merged.files) if (!sameValue(files.get(id), file)) count++;
  for (const id of files.keys()) if (!merged.files.has(id)) count++;
  return count;
}
