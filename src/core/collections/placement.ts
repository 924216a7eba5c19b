import type { Context } from '../context.js';
import { assertAllowed, assertCollectionLevel } from '../permissions.js';
import type { CollectionRecord, MemberRecord } from '../records.js';
import { contentLevels, type ContentLevels } from '../spaces/levels.js';
import { loadParentCollection } from './tree.js';

/**
 * Checks that a member may put content (a new, moved or duplicated space or collection) into `parent`
 * (absent: the top level): the create role in the organization at the top level, the create level on
 * the collection otherwise. An unknown parent is a 400. Returns the parent collection. `levels`: the
 * member's levels in the organization when the caller has already read them (and written nothing since).
 */
export async function assertMayCreateIn(
  ctx: Context,
  organizationId: string,
  member: MemberRecord,
  parent: string | undefined,
  levels?: ContentLevels,
): Promise<CollectionRecord | undefined> {
  if (parent === undefined) {
    assertAllowed(member, 'createContent', 'put content at the top level of the organization');
    return undefined;
  }
  const collection = await loadParentCollection(ctx, organizationId, parent, 'parent');
  const known = levels ?? (await contentLevels(ctx, organizationId, member));
  assertCollectionLevel(known.collection(collection), 'create', `collection ${parent}`, 'put content in it');
  return collection;
}
