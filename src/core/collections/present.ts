import type * as v from 'valibot';
import type { Context } from '../context.js';
import { collectionPermissions } from '../permissions.js';
import type { CollectionRecord, MemberRecord } from '../records.js';
import { contentLevels, type ContentLevels } from '../spaces/levels.js';
import type { CollectionSchema } from './schemas.js';

/** The collection object as the member whose levels are given sees it. */
export function presentCollection(ctx: Context, collection: CollectionRecord, levels: ContentLevels): v.InferInput<typeof CollectionSchema> {
  return {
    object: 'collection',
    id: collection.id,
    title: collection.title,
    ...(collection.description !== undefined && { description: collection.description }),
    organization: collection.organizationId,
    ...(collection.parent !== undefined && { parent: collection.parent }),
    defaultLevel: levels.defaultLevelOf(collection),
    urls: {
      location: ctx.urls.api(`/collections/${collection.id}`),
      app: ctx.urls.app(`/o/${collection.organizationId}/c/${collection.id}`),
    },
    permissions: collectionPermissions(levels.collection(collection)),
  };
}

/** Presents a collection to a member, with levels read now (after the operation's writes). */
export async function presentCollectionTo(ctx: Context, collection: CollectionRecord, member: MemberRecord) {
  return presentCollection(ctx, collection, await contentLevels(ctx, collection.organizationId, member));
}
