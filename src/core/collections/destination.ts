import type { Context } from '../context.js';
import { badRequest, conflict } from '../errors.js';
import { assertAllowed, organizationAccess } from '../permissions.js';
import type { MemberRecord, PlacedRecord, SpaceVisibility } from '../records.js';
import type { ContentLevels } from '../spaces/levels.js';
import { assertMayCreateIn } from './placement.js';
import { isWithin, loadParentCollection, parentKeyOf } from './tree.js';

/**
 * Where a move or a transfer takes a space or a collection, checked: the parent collection (absent:
 * the top level) in an organization, and the caller's membership there.
 */
export interface Destination {
  readonly organizationId: string;
  readonly parent: string | undefined;
  readonly member: MemberRecord;
}

/** A move body has to say something: a parent, a position, or both. */
export function assertMoveBody(body: { parent?: unknown; position?: unknown }): void {
  if (body.parent === undefined && body.position === undefined) throw badRequest('body: give parent, position or both');
}

/**
 * The destination of a move within the item's organization: `parent` absent keeps the current parent,
 * null is the top level. A new parent must exist (400), must not be the moved collection or inside it
 * (400), and the caller needs to be allowed to create there (403). `levels`: the member's levels as
 * the operation read them when it reached the item.
 */
export async function moveDestination(
  ctx: Context,
  item: PlacedRecord,
  member: MemberRecord,
  levels: ContentLevels,
  parent: string | null | undefined,
  kind: 'space' | 'collection',
) {
  const target = parent === undefined ? item.parent : (parent ?? undefined);
  if (target !== item.parent) {
    if (kind === 'collection' && target !== undefined) await assertNotWithin(ctx, item.organizationId, target, item.id, 'parent');
    await assertMayCreateIn(ctx, item.organizationId, member, target, levels);
  }
  return { organizationId: item.organizationId, parent: target, member } satisfies Destination;
}

async function assertNotWithin(ctx: Context, organizationId: string, target: string, collectionId: string, field: string) {
  await loadParentCollection(ctx, organizationId, target, field);
  if (await isWithin(ctx, target, collectionId)) {
    throw badRequest(`${field}: collection ${collectionId} cannot go into itself or one of its own collections`);
  }
}

/**
 * The destination of a transfer: an organization the caller administers (404 when it is not a member,
 * 403 when it is not an admin there), at its top level or in one of its collections (400 when there is
 * none such; a collection cannot go into itself). Transferring to where the item already is is a 409.
 */
export async function transferDestination(
  ctx: Context,
  item: PlacedRecord,
  organizationId: string,
  collection: string | undefined,
  kind: 'space' | 'collection',
): Promise<Destination> {
  const { member } = await organizationAccess(ctx, organizationId);
  assertAllowed(member, 'admin', 'transfer content into the organization');
  if (collection !== undefined) {
    if (kind === 'collection') await assertNotWithin(ctx, organizationId, collection, item.id, 'collection');
    else await loadParentCollection(ctx, organizationId, collection, 'collection');
  }
  if (organizationId === item.organizationId && collection === item.parent) {
    throw conflict(`Transfer would not result in any update: ${kind} ${item.id} is already there`);
  }
  return { organizationId, parent: collection, member };
}

/** The visibility a space keeps at a destination: `in-collection` needs a collection, else it becomes `private`. */
export function visibilityAt(visibility: SpaceVisibility, parent: string | undefined): SpaceVisibility {
  return parent === undefined && visibility === 'in-collection' ? 'private' : visibility;
}

/**
 * A space or collection placed at the end of, or at `orderKey` in, a parent of an organization: its
 * organization, parent (absent: the top level), sibling group and ordering key set, the rest kept.
 */
export function placedAt<T extends PlacedRecord>(item: T, organizationId: string, parent: string | undefined, orderKey: string): T {
  const { parent: _parent, ...rest } = item;
  return { ...rest, organizationId, ...(parent !== undefined && { parent }), parentKey: parentKeyOf(organizationId, parent), orderKey } as T;
}
