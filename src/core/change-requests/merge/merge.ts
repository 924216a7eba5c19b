import { conflict } from '../../errors.js';
import { writeOperation } from '../../operation.js';
import { TABLES, type ChangeRequestRecord, type SpaceRecord } from '../../records.js';
import { Id } from '../../schemas.js';
import { recordMovedPages } from '../../content/moved-pages.js';
import { assertEditable } from '../../spaces/access.js';
import { loadChangeRequest } from '../access.js';
import { mergeWithSpace } from './commit.js';
import { MergeResultSchema } from './schemas.js';
import { exclusive, spaceScope } from '../../scopes.js';
import { exportAfterMerge } from '../../git-sync/auto-export.js';

/**
 * Merges a change request into its space: the three-way merge of the request's base, the space's revision
 * and the request's revision (three-way.ts) becomes a new revision (type `merge`, parents [space, request]),
 * the space's live one; the request is marked `merged` (final) with `revisionMerged`, `mergedBy`, `mergedAt`.
 * `result` is `conflicts` when both sides changed the same things: the merge is still applied, each clash
 * resolved the documented way (the request wins). Needs the merge permission (review level) on a live
 * space. A draft or open request merges; an archived one must be reopened first, a merged one is final (409).
 * A space synced with a Git repository exports the merge after it (git-sync/auto-export.ts).
 */
export const mergeChangeRequest = writeOperation({
  name: 'mergeChangeRequest',
  summary: "Merge a change request into the space's content",
  params: { spaceId: Id, changeRequestId: Id },
  response: MergeResultSchema,
  locks: ({ spaceId }) => [exclusive(spaceScope(spaceId))],
  async run(ctx, { spaceId, changeRequestId }) {
    // Merges into one space queue instead of failing each other (each writes the space's revision).
    await ctx.tx.lock(spaceScope(spaceId), 'exclusive');
    const { space, changeRequest } = await loadChangeRequest(ctx, spaceId, changeRequestId, 'merge', 'merge its change requests', { purge: ctx.tx });
    assertEditable(space);
    if (changeRequest.status === 'merged') throw conflict(`Change request ${changeRequest.number} is merged already: merged change requests are final`);
    if (changeRequest.status === 'archived') {
      throw conflict(`Change request ${changeRequest.number} is archived: set its status to draft or open to merge it`);
    }
    const { revision, conflicts, movesPages } = await mergeWithSpace(ctx, space, changeRequest, 'merge');
    if (movesPages) await recordMovedPages(ctx, space.id, space.revision, revision.id);
    const updatedSpace: SpaceRecord = { ...space, revision: revision.id, updatedAt: ctx.now };
    const merged: ChangeRequestRecord = {
      ...changeRequest,
      status: 'merged',
      revisionMerged: revision.id,
      mergedBy: ctx.actor.userId,
      mergedAt: ctx.now,
      updatedAt: ctx.now,
    };
    await ctx.tx.put(TABLES.spaces, updatedSpace);
    await ctx.tx.put(TABLES.changeRequests, merged);
    await exportAfterMerge(ctx, space.id, merged);
    return { revision: revision.id, result: conflicts.length > 0 ? ('conflicts' as const) : ('merge' as const) };
  },
});
