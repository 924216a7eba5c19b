import * as v from 'valibot';
import { collectionsOf, treePath } from '../collections/tree.js';
import { listQuery, mapPage, pageOfArray } from '../pagination.js';
import { readOperation } from '../operation.js';
import { organizationAccess, spacePermissions } from '../permissions.js';
import { INDEXES, TABLES, type SpaceRecord } from '../records.js';
import { Id } from '../schemas.js';
import { requireSpace } from './access.js';
import { grantsOf, levelsFrom } from './levels.js';
import { presentSpace } from './present.js';
import { ShareKey, SpaceList, SpaceSchema } from './schemas.js';

/**
 * Gets a space. A deleted space (within its 7 days) is returned too, with `deletedAt`, so that it can
 * be found and restored. `shareKey` is added to the published URL of a share-link space.
 */
export const getSpace = readOperation({
  name: 'getSpace',
  summary: 'Get a space',
  params: { spaceId: Id },
  query: { shareKey: v.optional(ShareKey) },
  response: SpaceSchema,
  async run(ctx, { spaceId, shareKey }) {
    const { space, levels } = await requireSpace(ctx, spaceId, 'view', 'read it', { deleted: true });
    return presentSpace(ctx, space, levels, { shareKey });
  },
});

/**
 * Lists the spaces of an organization the caller can access, not deleted ones, in sidebar order:
 * depth first through the collections, siblings in their order.
 */
export const listSpaces = readOperation({
  name: 'listSpaces',
  summary: 'List the spaces of an organization',
  params: { organizationId: Id },
  query: listQuery,
  response: SpaceList,
  async run(ctx, input) {
    const { member } = await organizationAccess(ctx, input.organizationId);
    const collections = await collectionsOf(ctx, input.organizationId);
    const levels = levelsFrom(collections, member, await grantsOf(ctx, member));
    const visible = (record: unknown) => {
      const space = record as SpaceRecord;
      return space.deletedAt === undefined && spacePermissions(levels.space(space), space.editMode).view;
    };
    const { items } = await ctx.tx.list(TABLES.spaces, { index: INDEXES.spacesByOrganization, value: input.organizationId, where: visible });
    const page = pageOfArray(items as SpaceRecord[], (space) => treePath(space, collections), input);
    return mapPage(page, (space) => presentSpace(ctx, space, levels));
  },
});
