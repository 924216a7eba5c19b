import type { Context } from '../context.js';
import { notFound } from '../errors.js';
import { assertCollectionLevel, findMembership, type CollectionAction } from '../permissions.js';
import { contentLevels } from '../spaces/levels.js';
import { findCollection } from './tree.js';

/**
 * Loads a collection and checks that the caller may do `action` on it: 404 when there is none or the
 * caller is not a member of its organization, 403 when its level on it is too low.
 */
export async function requireCollection(ctx: Context, collectionId: string, action: CollectionAction, doing: string) {
  const collection = await findCollection(ctx, collectionId);
  const member = collection && (await findMembership(ctx, collection.organizationId));
  if (!collection || !member) throw notFound(`No collection ${collectionId}`);
  const levels = await contentLevels(ctx, collection.organizationId, member);
  assertCollectionLevel(levels.collection(collection), action, `collection ${collectionId}`, doing);
  return { collection, member, levels };
}
