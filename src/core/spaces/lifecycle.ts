import type { WriteContext } from '../context.js';
import { placedAt, visibilityAt } from '../collections/destination.js';
import { contentGroup, findCollection } from '../collections/tree.js';
import { conflict } from '../errors.js';
import { keyAtEnd } from '../ordering/siblings.js';
import { writeOperation } from '../operation.js';
import { TABLES, type SpaceRecord } from '../records.js';
import { Id } from '../schemas.js';
import { requireSpace } from './access.js';
import { presentSpaceTo } from './present.js';
import { SpaceSchema } from './schemas.js';

/**
 * Deletes a space: it goes to the trash (`deletedAt`), hidden from lists and refused by every
 * operation but get and restore, and is removed for good 7 days later. Needs the admin permission.
 */
export const deleteSpace = writeOperation({
  name: 'deleteSpace',
  summary: 'Delete a space',
  params: { spaceId: Id },
  response: null,
  async run(ctx, { spaceId }) {
    const { space } = await requireSpace(ctx, spaceId, 'admin', 'delete it', { purge: ctx.tx });
    await trashSpace(ctx, space);
  },
});

/** Puts a space in the trash now. */
export async function trashSpace(ctx: WriteContext, space: SpaceRecord): Promise<void> {
  const trashed: SpaceRecord = { ...space, deletedAt: ctx.now, trashed: true };
  await ctx.tx.put(TABLES.spaces, trashed);
}

/**
 * Restores a deleted space within 7 days of its delete (spaces/trash.ts `restorable`); after that it
 * is gone (404). It goes back to the end of its collection, or of the top level when that collection
 * was deleted meanwhile (then an `in-collection` visibility becomes `private`). Restoring a space that
 * is not deleted is a 409.
 */
export const restoreSpace = writeOperation({
  name: 'restoreSpace',
  summary: 'Restore a deleted space',
  params: { spaceId: Id },
  response: SpaceSchema,
  async run(ctx, { spaceId }) {
    const { space, member } = await requireSpace(ctx, spaceId, 'admin', 'restore it', { deleted: true, purge: ctx.tx });
    if (space.deletedAt === undefined) throw conflict(`Space ${spaceId} is not deleted`);
    const collection = space.parent === undefined ? undefined : await findCollection(ctx, space.parent);
    const parent = collection && collection.organizationId === space.organizationId ? collection.id : undefined;
    const { deletedAt: _deletedAt, trashed: _trashed, ...kept } = space;
    const orderKey = await keyAtEnd(ctx.tx, contentGroup(space.organizationId, parent));
    const restored: SpaceRecord = { ...placedAt(kept, space.organizationId, parent, orderKey), visibility: visibilityAt(space.visibility, parent) };
    await ctx.tx.put(TABLES.spaces, restored);
    return presentSpaceTo(ctx, restored, member);
  },
});
