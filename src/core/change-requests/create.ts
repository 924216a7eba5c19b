import * as v from 'valibot';
import type { WriteContext } from '../context.js';
import { writeOperation } from '../operation.js';
import { INDEXES, TABLES, type ChangeRequestRecord } from '../records.js';
import { Id } from '../schemas.js';
import { changeRequestNumbers } from '../scopes.js';
import { requireSpace } from '../spaces/access.js';
import { presentChangeRequest } from './present.js';
import { ChangeRequestSchema, ChangeRequestSubject } from './schemas.js';

/**
 * The next number of a change request in a space, from the space's counter: concurrent creations never read
 * each other's numbers, and none is given twice. The highest number held (one index entry) is the floor,
 * for change requests made before the counter existed.
 */
export async function nextChangeRequestNumber(ctx: WriteContext, spaceId: string): Promise<number> {
  const { items } = await ctx.tx.list(TABLES.changeRequests, { index: INDEXES.changeRequestsBySpace, value: spaceId, order: 'desc', limit: 1 });
  return ctx.tx.nextNumber(changeRequestNumbers(spaceId), (items[0] as ChangeRequestRecord | undefined)?.number ?? 0);
}

/**
 * Creates a change request: a branch of the space's current content, as a `draft` (it becomes `open` when
 * submitted for review with PATCH status). Its revision is the space's revision, shared until the first
 * edit. Needs the edit permission on the space, which a locked space gives nobody.
 */
export const createChangeRequest = writeOperation({
  name: 'createChangeRequest',
  summary: 'Create a change request in a space',
  params: { spaceId: Id },
  body: { subject: v.optional(ChangeRequestSubject) },
  response: ChangeRequestSchema,
  async run(ctx, { spaceId, subject }) {
    const { space } = await requireSpace(ctx, spaceId, 'edit', 'create a change request', { purge: ctx.tx });
    const changeRequest: ChangeRequestRecord = {
      id: ctx.ids.id(),
      spaceId,
      number: await nextChangeRequestNumber(ctx, spaceId),
      status: 'draft',
      subject: subject ?? '',
      createdBy: ctx.actor.userId,
      contributors: [ctx.actor.userId],
      revision: space.revision,
      revisionInitial: space.revision,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    await ctx.tx.insert(TABLES.changeRequests, changeRequest);
    return presentChangeRequest(ctx, changeRequest, space);
  },
});
