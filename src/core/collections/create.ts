import * as v from 'valibot';
import { keyAtEnd } from '../ordering/siblings.js';
import { writeOperation } from '../operation.js';
import { organizationAccess } from '../permissions.js';
import { TABLES, type CollectionRecord } from '../records.js';
import { Id } from '../schemas.js';
import { assertMayCreateIn } from './placement.js';
import { presentCollectionTo } from './present.js';
import { CollectionSchema, CollectionTitle } from './schemas.js';
import { contentGroup, parentKeyOf } from './tree.js';

/** The title of a collection created without one. */
export const DEFAULT_COLLECTION_TITLE = 'Untitled';

/**
 * Creates a collection at the end of the top level or of a collection (`parent`), inheriting its
 * level. Needs the create role (top level) or the create level on the parent.
 */
export const createCollection = writeOperation({
  name: 'createCollection',
  summary: 'Create a collection in an organization',
  params: { organizationId: Id },
  body: { title: v.optional(CollectionTitle), parent: v.optional(Id) },
  response: CollectionSchema,
  async run(ctx, { organizationId, title, parent }) {
    const { member } = await organizationAccess(ctx, organizationId);
    await assertMayCreateIn(ctx, organizationId, member, parent);
    const collection: CollectionRecord = {
      id: ctx.ids.id(),
      organizationId,
      ...(parent !== undefined && { parent }),
      parentKey: parentKeyOf(organizationId, parent),
      orderKey: await keyAtEnd(ctx.tx, contentGroup(organizationId, parent)),
      title: title ?? DEFAULT_COLLECTION_TITLE,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    await ctx.tx.insert(TABLES.collections, collection);
    return presentCollectionTo(ctx, collection, member);
  },
});
