import { writeOperation } from '../../operation.js';
import { TABLES, type ChangeRequestRecord } from '../../records.js';
import { Id } from '../../schemas.js';
import { assertContentEditable, baseRevisionOf, loadChangeRequest } from '../access.js';
import { mergeWithSpace } from './commit.js';
import { UpdateResultSchema } from './schemas.js';

/**
 * Brings a change request up to date with its space (`POST .../update`): the same three-way merge as a
 * merge, written as the request's new revision (type `update`, parents [request, space]) with
 * `revisionMergedAncestor` = the space's revision, so the request is no longer outdated and a merge right
 * after it gives exactly the request's content. The request's own changes win conflicts, as in a merge.
 * A request that is not outdated is left as it is (its current revision is returned). Needs the edit
 * permission on a live space, and a draft or open request (409 otherwise).
 */
export const rebaseChangeRequest = writeOperation({
  name: 'rebaseChangeRequest',
  summary: "Bring a change request up to date with the space's content",
  params: { spaceId: Id, changeRequestId: Id },
  response: UpdateResultSchema,
  async run(ctx, { spaceId, changeRequestId }) {
    const access = await loadChangeRequest(ctx, spaceId, changeRequestId, 'edit', 'update its change requests', { purge: ctx.tx });
    assertContentEditable(access);
    const { space, changeRequest } = access;
    if (space.revision === baseRevisionOf(changeRequest)) return { revision: changeRequest.revision, result: 'update' as const };
    const { revision, conflicts } = await mergeWithSpace(ctx, space, changeRequest, 'update');
    const updated: ChangeRequestRecord = { ...changeRequest, revision: revision.id, revisionMergedAncestor: space.revision, updatedAt: ctx.now };
    await ctx.tx.put(TABLES.changeRequests, updated);
    return { revision: revision.id, result: conflicts.length > 0 ? ('conflicts' as const) : ('update' as const) };
  },
});
