import * as v from 'valibot';
import { writeOperation } from '../operation.js';
import { REMOVE, applyPatch } from '../patch.js';
import { TABLES, type CollectionRecord } from '../records.js';
import { Id } from '../schemas.js';
import { DefaultLevelInput } from '../spaces/schemas.js';
import { requireCollection } from './access.js';
import { presentCollectionTo } from './present.js';
import { CollectionDescription, CollectionSchema, CollectionTitle } from './schemas.js';

/**
 * Updates a collection's title, description and default level; needs the admin permission on it.
 * Absent fields stay; `defaultLevel: "inherit"` makes it take its parent's level again; its contents
 * that set no level of their own follow it.
 */
export const updateCollection = writeOperation({
  name: 'updateCollection',
  summary: 'Update a collection',
  params: { collectionId: Id },
  body: {
    title: v.optional(CollectionTitle),
    description: v.optional(CollectionDescription),
    defaultLevel: v.optional(DefaultLevelInput),
  },
  response: CollectionSchema,
  async run(ctx, { collectionId, title, description, defaultLevel }) {
    const { collection, member } = await requireCollection(ctx, collectionId, 'admin', 'change it');
    const patched = applyPatch(collection, { title, description, defaultLevel: defaultLevel === 'inherit' ? REMOVE : defaultLevel });
    if (patched === collection) return presentCollectionTo(ctx, collection, member);
    const updated: CollectionRecord = { ...patched, updatedAt: ctx.now };
    await ctx.tx.put(TABLES.collections, updated);
    return presentCollectionTo(ctx, updated, member);
  },
});
