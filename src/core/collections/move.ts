import type { WriteContext } from '../context.js';
import { keyAtEnd, keyForMove } from '../ordering/siblings.js';
import { writeOperation } from '../operation.js';
import { assertCollectionLevel, assertSpaceLevel } from '../permissions.js';
import { TABLES, type CollectionRecord, type SpaceRecord } from '../records.js';
import { Id } from '../schemas.js';
import type { ContentLevels } from '../spaces/levels.js';
import { dropOrganizationBound, purgeSpace } from '../spaces/owned.js';
import { MoveBody, TransferBody } from '../spaces/schemas.js';
import { expired } from '../spaces/trash.js';
import { requireCollection } from './access.js';
import { assertMoveBody, moveDestination, placedAt, transferDestination, type Destination } from './destination.js';
import { presentCollectionTo } from './present.js';
import { CollectionSchema } from './schemas.js';
import { contentGroup, contentsOf, holdContentTree, toPosition } from './tree.js';

/** Stores a collection at a destination with an ordering key, and returns it. */
async function place(ctx: WriteContext, collection: CollectionRecord, to: Destination, orderKey: string): Promise<CollectionRecord> {
  const placed: CollectionRecord = { ...placedAt(collection, to.organizationId, to.parent, orderKey), updatedAt: ctx.now };
  await ctx.tx.put(TABLES.collections, placed);
  return placed;
}

/**
 * Moves a collection, with everything inside it, to another parent (`parent`; null: the top level)
 * and/or to a place among its siblings (`position`; absent: the end). A collection never goes into
 * itself or one of its own collections (400). Needs the admin permission on it and, for a new parent,
 * the right to create there. A move that changes nothing is a 409.
 */
export const moveCollection = writeOperation({
  name: 'moveCollection',
  summary: 'Move a collection',
  params: { collectionId: Id },
  body: MoveBody,
  response: CollectionSchema,
  async run(ctx, { collectionId, parent, position }) {
    assertMoveBody({ parent, position });
    const { collection, member, levels } = await requireCollection(ctx, collectionId, 'admin', 'move it');
    await holdContentTree(ctx, collection.organizationId);
    const to = await moveDestination(ctx, collection, member, levels, parent, 'collection');
    const group = contentGroup(to.organizationId, to.parent);
    const orderKey = await keyForMove(ctx.tx, group, { kind: 'collection', id: collection.id }, toPosition(position));
    return presentCollectionTo(ctx, await place(ctx, collection, to, orderKey), member);
  },
});

/** Checks the admin permission on everything inside a collection that is leaving its organization. */
function assertAdminOfContents(levels: ContentLevels, collections: CollectionRecord[], spaces: SpaceRecord[]) {
  for (const inner of collections) assertCollectionLevel(levels.collection(inner), 'admin', `collection ${inner.id} inside it`, 'transfer it');
  for (const space of spaces.filter((space) => space.deletedAt === undefined)) {
    assertSpaceLevel(levels.space(space), 'admin', `space ${space.id} inside it`, 'transfer it');
  }
}

/**
 * Transfers a collection with everything inside it to another organization the caller administers
 * (at its top level, or into `collection` there), or within its organization into another collection;
 * it lands at the end. Spaces inside keep their place in it and drop what only made sense in the old
 * organization (team grants, custom field values); deleted ones go along, still restorable.
 */
export const transferCollection = writeOperation({
  name: 'transferCollection',
  summary: 'Transfer a collection to another organization or collection',
  params: { collectionId: Id },
  body: TransferBody,
  response: CollectionSchema,
  async run(ctx, { collectionId, organization, collection: into }) {
    const { collection, levels } = await requireCollection(ctx, collectionId, 'admin', 'transfer it');
    const to = await transferDestination(ctx, collection, organization, into, 'collection');
    if (to.organizationId !== collection.organizationId) {
      const contents = await contentsOf(ctx, collection);
      assertAdminOfContents(levels, contents.collections, contents.spaces);
      for (const inner of contents.collections) {
        const moved: CollectionRecord = { ...inner, organizationId: to.organizationId };
        await ctx.tx.put(TABLES.collections, moved);
      }
      for (const space of contents.spaces) {
        if (expired(space, ctx.now)) {
          await purgeSpace(ctx.tx, space.id);
          continue;
        }
        await dropOrganizationBound(ctx.tx, space.id);
        const moved: SpaceRecord = { ...space, organizationId: to.organizationId };
        await ctx.tx.put(TABLES.spaces, moved);
      }
    }
    const placed = await place(ctx, collection, to, await keyAtEnd(ctx.tx, contentGroup(to.organizationId, to.parent)));
    return presentCollectionTo(ctx, placed, to.member);
  },
});
