import * as v from 'valibot';
import { listQuery, mapPage, pageOf, pageOfArray } from '../pagination.js';
import { readOperation } from '../operation.js';
import { collectionPermissions, organizationAccess, spacePermissions } from '../permissions.js';
import { INDEXES, TABLES, type SpaceRecord } from '../records.js';
import { Id, QueryBoolean } from '../schemas.js';
import { grantsOf, levelsFrom } from '../spaces/levels.js';
import { presentSpace } from '../spaces/present.js';
import { SpaceList } from '../spaces/schemas.js';
import { requireCollection } from './access.js';
import { presentCollection } from './present.js';
import { CollectionList, CollectionSchema } from './schemas.js';
import { collectionsOf, parentKeyOf, treePath } from './tree.js';

/** Gets a collection. */
export const getCollection = readOperation({
  name: 'getCollection',
  summary: 'Get a collection',
  params: { collectionId: Id },
  response: CollectionSchema,
  async run(ctx, { collectionId }) {
    const { collection, levels } = await requireCollection(ctx, collectionId, 'view', 'read it');
    return presentCollection(ctx, collection, levels);
  },
});

/**
 * Lists the collections of an organization the caller can access, in sidebar order (depth first,
 * siblings in their order). `nested=false` lists only the top-level ones.
 */
export const listCollections = readOperation({
  name: 'listCollections',
  summary: 'List the collections of an organization',
  params: { organizationId: Id },
  query: { ...listQuery, nested: v.optional(QueryBoolean, true) },
  response: CollectionList,
  async run(ctx, input) {
    const { member } = await organizationAccess(ctx, input.organizationId);
    const collections = await collectionsOf(ctx, input.organizationId);
    const levels = levelsFrom(collections, member, await grantsOf(ctx, member));
    const listed = [...collections.values()].filter(
      (collection) => (input.nested || collection.parent === undefined) && collectionPermissions(levels.collection(collection)).view,
    );
    const page = pageOfArray(listed, (collection) => treePath(collection, collections), input);
    return mapPage(page, (collection) => presentCollection(ctx, collection, levels));
  },
});

/** Lists the spaces directly in a collection that the caller can access (not deleted ones), in their order. */
export const listCollectionSpaces = readOperation({
  name: 'listCollectionSpaces',
  summary: 'List the spaces of a collection',
  params: { collectionId: Id },
  query: listQuery,
  response: SpaceList,
  async run(ctx, input) {
    const { collection, levels } = await requireCollection(ctx, input.collectionId, 'view', 'list its spaces');
    const visible = (record: unknown) => {
      const space = record as SpaceRecord;
      return space.deletedAt === undefined && spacePermissions(levels.space(space), space.editMode).view;
    };
    const key = parentKeyOf(collection.organizationId, collection.id);
    const page = await pageOf(ctx.tx, TABLES.spaces, { index: INDEXES.spacesByParent, value: key, where: visible }, input);
    return mapPage(page, (space) => presentSpace(ctx, space as SpaceRecord, levels));
  },
});
