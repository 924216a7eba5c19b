import * as v from 'valibot';
import type { WriteContext } from '../context.js';
import { writeOperation } from '../operation.js';
import { INDEXES, TABLES, type ChangeRequestRecord, type SpaceRecord } from '../records.js';
import { Id } from '../schemas.js';
import { changeRequestNumbers } from '../scopes.js';
import { requireSpace } from '../spaces/access.js';
import { changeRequestObject } from './present.js';
import { ChangeRequestSchema, ChangeRequestSubject } from './schemas.js';

/**
 * The highest number a change request of a space holds (one index entry): the floor of the space's counter
 * (Store.nextNumber), for change requests made before the counter existed.
 */
async function highestNumber(ctx: WriteContext, spaceId: string): Promise<number> {
  const { items } = await ctx.tx.list(TABLES.changeRequests, { index: INDEXES.changeRequestsBySpace, value: spaceId, order: 'desc', limit: 1 });
  return (items[0] as ChangeRequestRecord | undefined)?.number ?? 0;
}

/** What a new change request is made of, besides its space and its author (the caller). */
interface NewChangeRequest {
  /** Its id, when the caller names it (an import's revision names its change request); a new one otherwise. */
  readonly id?: string;
  readonly status: 'draft' | 'open';
  readonly subject: string;
  /** Its revision: the space's until its first edit, or one made for it (an import's). */
  readonly revision: string;
}

/**
 * Inserts a change request of `space` by the caller, based on the space's revision. Its number comes from the
 * space's counter (Store.nextNumber: concurrent creations never read each other's numbers, and none is given
 * twice), above `floor`, the highest number the space's change requests hold (read here when not given).
 */
export async function insertChangeRequest(ctx: WriteContext, space: SpaceRecord, made: NewChangeRequest, floor?: number): Promise<ChangeRequestRecord> {
  const changeRequest: ChangeRequestRecord = {
    id: made.id ?? ctx.ids.id(),
    spaceId: space.id,
    number: await ctx.tx.nextNumber(changeRequestNumbers(space.id), floor ?? (await highestNumber(ctx, space.id))),
    status: made.status,
    subject: made.subject,
    createdBy: ctx.actor.userId,
    contributors: [ctx.actor.userId],
    revision: made.revision,
    revisionInitial: space.revision,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  await ctx.tx.insert(TABLES.changeRequests, changeRequest);
  return changeRequest;
}

/**
 * Creates a change request: a branch of the space's current content, as a `draft` (it becomes `open` when
 * submitted for review with PATCH status). Its revision is the space's revision, shared until the first
 * edit. Its number comes from the space's counter (insertChangeRequest, with the floor read alongside the
 * space). Needs the edit permission on the space, which a locked space gives nobody.
 */
export const createChangeRequest = writeOperation({
  name: 'createChangeRequest',
  summary: 'Create a change request in a space',
  params: { spaceId: Id },
  body: { subject: v.optional(ChangeRequestSubject) },
  response: ChangeRequestSchema,
  async run(ctx, { spaceId, subject }) {
    // The floor is read with the space (one round trip on PostgreSQL); a number is drawn only once the caller may.
    const [{ space }, floor] = await Promise.all([requireSpace(ctx, spaceId, 'edit', 'create a change request', { purge: ctx.tx }), highestNumber(ctx, spaceId)]);
    const changeRequest = await insertChangeRequest(ctx, space, { status: 'draft', subject: subject ?? '', revision: space.revision }, floor);
    // New: no comments yet, and the caller made it.
    return changeRequestObject(ctx, changeRequest, space, { createdBy: await ctx.actor.user(), comments: 0 });
  },
});
