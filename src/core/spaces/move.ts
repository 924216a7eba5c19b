import { assertMoveBody, moveDestination, placedAt, transferDestination, visibilityAt, type Destination } from '../collections/destination.js';
import { contentGroup, holdContentTree, toPosition } from '../collections/tree.js';
import type { WriteContext } from '../context.js';
import { keyAtEnd, keyForMove } from '../ordering/siblings.js';
import { writeOperation } from '../operation.js';
import { TABLES, type SpaceRecord } from '../records.js';
import { Id } from '../schemas.js';
import { requireSpace } from './access.js';
import { dropOrganizationBound } from './owned.js';
import { presentSpaceTo } from './present.js';
import { MoveBody, SpaceSchema, TransferBody } from './schemas.js';

/** Stores a space at a destination with an ordering key, and returns it. */
async function place(ctx: WriteContext, space: SpaceRecord, to: Destination, orderKey: string): Promise<SpaceRecord> {
  const placed: SpaceRecord = {
    ...placedAt(space, to.organizationId, to.parent, orderKey),
    visibility: visibilityAt(space.visibility, to.parent),
    updatedAt: ctx.now,
  };
  await ctx.tx.put(TABLES.spaces, placed);
  return placed;
}

/**
 * Moves a space to another collection (`parent`; null: the top level) and/or to a place among its
 * siblings (`position`; absent: the end). Needs the admin permission on the space and, for a new
 * parent, the right to create there. A move that changes nothing is a 409.
 */
export const moveSpace = writeOperation({
  name: 'moveSpace',
  summary: 'Move a space',
  params: { spaceId: Id },
  body: MoveBody,
  response: SpaceSchema,
  async run(ctx, { spaceId, parent, position }) {
    assertMoveBody({ parent, position });
    const { space, member, levels } = await requireSpace(ctx, spaceId, 'admin', 'move it', { purge: ctx.tx });
    await holdContentTree(ctx, space.organizationId);
    const to = await moveDestination(ctx, space, member, levels, parent, 'space');
    const orderKey = await keyForMove(ctx.tx, contentGroup(to.organizationId, to.parent), { kind: 'space', id: space.id }, toPosition(position));
    return presentSpaceTo(ctx, await place(ctx, space, to, orderKey), member);
  },
});

/**
 * Transfers a space to another organization the caller administers (at its top level, or into
 * `collection` there), or within its organization into another collection; it lands at the end.
 * What only makes sense in the old organization (team grants, custom field values) is dropped.
 */
export const transferSpace = writeOperation({
  name: 'transferSpace',
  summary: 'Transfer a space to another organization or collection',
  params: { spaceId: Id },
  body: TransferBody,
  response: SpaceSchema,
  async run(ctx, { spaceId, organization, collection }) {
    const { space } = await requireSpace(ctx, spaceId, 'admin', 'transfer it', { purge: ctx.tx });
    const to = await transferDestination(ctx, space, organization, collection, 'space');
    if (to.organizationId !== space.organizationId) await dropOrganizationBound(ctx.tx, space.id);
    const placed = await place(ctx, space, to, await keyAtEnd(ctx.tx, contentGroup(to.organizationId, to.parent)));
    return presentSpaceTo(ctx, placed, to.member);
  },
});
