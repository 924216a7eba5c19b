import type { StoredRecord } from '../../store/types.js';
import type { Context } from '../context.js';
import { badRequest } from '../errors.js';
import type { ItemRef, Position, SiblingGroup, SiblingTable } from '../ordering/siblings.js';
import { INDEXES, TABLES, type CollectionRecord, type SpaceRecord } from '../records.js';
import { holdExclusive, organizationScope } from '../scopes.js';

/**
 * The content tree of an organization: collections nest, and spaces and collections are siblings
 * within a parent (a collection, or the top level). Sibling order comes from the ordering module.
 */

/** The sibling group key of the items directly in `parent` (absent: the organization's top level). */
export function parentKeyOf(organizationId: string, parent: string | undefined): string {
  return parent === undefined ? `organization:${organizationId}` : `collection:${parent}`;
}

const live = (record: StoredRecord) => record.deletedAt === undefined;

/** Spaces (not deleted) and collections are siblings of one another. */
const CONTENT_TABLES: readonly SiblingTable[] = [
  { kind: 'space', table: TABLES.spaces, index: INDEXES.spacesByParent, where: live },
  { kind: 'collection', table: TABLES.collections, index: INDEXES.collectionsByParent },
];

/** The sibling group of the items directly in `parent` (absent: the top level). */
export function contentGroup(organizationId: string, parent: string | undefined): SiblingGroup {
  return {
    tables: CONTENT_TABLES,
    key: parentKeyOf(organizationId, parent),
    label: parent === undefined ? 'the top level of the organization' : `collection ${parent}`,
  };
}

/** A position reference of a move body: `{type: 'space', space}` or `{type: 'collection', collection}`. */
export type ContentPointer = { type: 'space'; space: string } | { type: 'collection'; collection: string };

/** The ordering module's form of a move body's position. */
export function toPosition(position: { before?: ContentPointer; after?: ContentPointer } | undefined): Position {
  const ref = (pointer: ContentPointer | undefined): ItemRef | undefined =>
    pointer && (pointer.type === 'space' ? { kind: 'space', id: pointer.space } : { kind: 'collection', id: pointer.collection });
  return { before: ref(position?.before), after: ref(position?.after) };
}

/** A collection by id, if there is one. */
export async function findCollection(ctx: Context, collectionId: string): Promise<CollectionRecord | undefined> {
  return (await ctx.tx.get(TABLES.collections, collectionId)) as CollectionRecord | undefined;
}

/** Loads the collection a body names as a parent: a collection of the organization, or 400. */
export async function loadParentCollection(ctx: Context, organizationId: string, collectionId: string, field: string) {
  const collection = await findCollection(ctx, collectionId);
  if (!collection || collection.organizationId !== organizationId) {
    throw badRequest(`${field}: no collection ${collectionId} in organization ${organizationId}`);
  }
  return collection;
}

/** Whether `collectionId` is `ancestorId` or lies anywhere inside it. */
export async function isWithin(ctx: Context, collectionId: string, ancestorId: string): Promise<boolean> {
  const seen = new Set<string>();
  for (let id: string | undefined = collectionId; id !== undefined && !seen.has(id); ) {
    if (id === ancestorId) return true;
    seen.add(id);
    id = (await findCollection(ctx, id))?.parent;
  }
  return false;
}

/** Everything inside a collection, at any depth: its collections and its spaces (deleted ones too). */
export async function contentsOf(ctx: Context, collection: CollectionRecord) {
  const collections: CollectionRecord[] = [];
  const spaces: SpaceRecord[] = [];
  const pending = [collection];
  while (pending.length > 0) {
    const key = parentKeyOf(collection.organizationId, pending.pop()!.id);
    const inner = await ctx.tx.list(TABLES.collections, { index: INDEXES.collectionsByParent, value: key });
    const direct = await ctx.tx.list(TABLES.spaces, { index: INDEXES.spacesByParent, value: key });
    collections.push(...(inner.items as CollectionRecord[]));
    spaces.push(...(direct.items as SpaceRecord[]));
    pending.push(...(inner.items as CollectionRecord[]));
  }
  return { collections, spaces };
}

/** The collections of an organization by id. */
export async function collectionsOf(ctx: Context, organizationId: string): Promise<Map<string, CollectionRecord>> {
  const { items } = await ctx.tx.list(TABLES.collections, { index: INDEXES.collectionsByOrganization, value: organizationId });
  return new Map((items as CollectionRecord[]).map((collection) => [collection.id, collection]));
}

/**
 * The sort key that lists items in sidebar order (depth first, siblings in their order): the
 * (orderKey, id) pairs of its ancestors from the top, then its own.
 */
export function treePath(item: { id: string; orderKey: string; parent?: string }, collections: ReadonlyMap<string, CollectionRecord>): string[] {
  const path = [item.orderKey, item.id];
  const seen = new Set<string>();
  for (let parent = item.parent; parent !== undefined && !seen.has(parent); ) {
    seen.add(parent);
    const collection = collections.get(parent);
    if (!collection) break;
    path.unshift(collection.orderKey, collection.id);
    parent = collection.parent;
  }
  return path;
}

/**
 * Queues a move in an organization's tree of content behind the others: two moves to one spot that do not see
 * each other would take one ordering key, and a later move between the two then has no key to take (a 500 on
 * PostgreSQL); two collections moved into each other would make a cycle. Known only once the moved item is
 * read, so on PostgreSQL a move runs its first attempt again, locked first (moves are rare).
 */
export const holdContentTree = (ctx: Context, organizationId: string): Promise<void> => holdExclusive(ctx.tx, organizationScope(organizationId));
