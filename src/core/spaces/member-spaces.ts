import * as v from 'valibot';
import { loadMember } from '../members/get.js';
import { listQuery, mapPage, pageOfArray } from '../pagination.js';
import { readOperation } from '../operation.js';
import { assertAllowed, organizationAccess } from '../permissions.js';
import { Id } from '../schemas.js';
import { contentSnapshot, grantsOf, levelsFrom, spacesOfMember } from './levels.js';
import { presentSpace } from './present.js';
import { MemberSpaceList } from './schemas.js';

/**
 * Lists the spaces a member can access with its level on each (`permission`), newest first by
 * default (`order`). A member lists its own; only admins list another member's. The space objects
 * carry the caller's permissions.
 */
export const listMemberSpaces = readOperation({
  name: 'listMemberSpaces',
  summary: 'List the spaces a member of an organization can access',
  params: { organizationId: Id, userId: Id },
  query: { ...listQuery, order: v.optional(v.picklist(['asc', 'desc']), 'desc') },
  response: MemberSpaceList,
  async run(ctx, input) {
    const { organizationId, userId, order } = input;
    const { member: caller } = await organizationAccess(ctx, organizationId);
    if (userId !== caller.userId) assertAllowed(caller, 'admin', "list other members' spaces");
    const member = await loadMember(ctx, organizationId, userId);
    const snapshot = await contentSnapshot(ctx, organizationId);
    const callerGrants = await grantsOf(ctx, caller);
    // A member listing its own spaces: its grants are the caller's, read once.
    const reachable = await spacesOfMember(ctx, member, snapshot, member.id === caller.id ? callerGrants : undefined);
    const callerLevels = levelsFrom(snapshot.collections, caller, callerGrants);
    const page = pageOfArray(reachable, ({ space }) => [space.createdAt, space.id], input, order);
    return mapPage(page, async ({ space, level }) => ({ permission: level, space: await presentSpace(ctx, space, callerLevels) }));
  },
});
