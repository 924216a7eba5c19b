import { writeOperation } from '../operation.js';
import { assertCollectionLevel, assertSpaceLevel } from '../permissions.js';
import { TABLES } from '../records.js';
import { Id } from '../schemas.js';
import { trashSpace } from '../spaces/lifecycle.js';
import { purgeSpace } from '../spaces/owned.js';
import { expired } from '../spaces/trash.js';
import { requireCollection } from './access.js';
import { contentsOf } from './tree.js';

/**
 * Deletes a collection with everything inside it: its collections (at any depth) are removed, and its
 * spaces go to the trash as if each were deleted, restorable for 7 days (to the top level, since their
 * collection is gone). Needs the admin permission on the collection and on everything inside it, so
 * that nobody deletes through a collection what they could not delete one by one.
 */
export const deleteCollection = writeOperation({
  name: 'deleteCollection',
  summary: 'Delete a collection',
  params: { collectionId: Id },
  response: null,
  async run(ctx, { collectionId }) {
    const { collection, levels } = await requireCollection(ctx, collectionId, 'admin', 'delete it');
    const { collections, spaces } = await contentsOf(ctx, collection);
    for (const inner of collections) assertCollectionLevel(levels.collection(inner), 'admin', `collection ${inner.id} inside it`, 'delete it');
    const live = spaces.filter((space) => space.deletedAt === undefined);
    for (const space of live) assertSpaceLevel(levels.space(space), 'admin', `space ${space.id} inside it`, 'delete it');
    for (const space of live) await trashSpace(ctx, space);
    for (const space of spaces.filter((space) => expired(space, ctx.now))) await purgeSpace(ctx.tx, space.id);
    for (const inner of collections) await ctx.tx.delete(TABLES.collections, inner.id);
    await ctx.tx.delete(TABLES.collections, collection.id);
  },
});
