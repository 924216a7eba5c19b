import * as v from 'valibot';
import { listQuery, mapPageItems, pageOf, pageOfArray } from '../pagination.js';
import { readOperation } from '../operation.js';
import { requireOrganization } from '../permissions.js';
import { INDEXES, TABLES, type MemberRecord } from '../records.js';
import { MEMBER_ROLES } from '../roles.js';
import { Id } from '../schemas.js';
import type { StoredRecord } from '../../store/types.js';
import { loadUsers } from '../users/present.js';
import { prefetchMemberPage, presentMembers } from './present.js';
import { MemberList } from './schemas.js';

/**
 * Lists the members of an organization, newest first by default. `sort=lastSeenAt` lists only the
 * members who were seen (pinged) at least once. `search` matches the display name or the e-mail
 * address, case-insensitively; `role=guest` lists the members without a role.
 */
export const listMembers = readOperation({
  name: 'listMembers',
  summary: 'List the members of an organization',
  params: { organizationId: Id },
  query: {
    ...listQuery,
    order: v.optional(v.picklist(['asc', 'desc']), 'desc'),
    role: v.optional(v.picklist([...MEMBER_ROLES, 'guest'])),
    search: v.optional(v.pipe(v.string(), v.maxLength(512, 'must be at most 512 characters'))),
    sort: v.optional(v.picklist(['joinedAt', 'lastSeenAt']), 'joinedAt'),
  },
  response: MemberList,
  async run(ctx, input) {
    const { organizationId, order, role, search, sort } = input;
    await requireOrganization(ctx, organizationId, 'listMembers', 'list its members');
    prefetchMemberPage(ctx, organizationId);
    const index = sort === 'lastSeenAt' ? INDEXES.membersByOrganizationLastSeen : INDEXES.membersByOrganization;
    const wanted = role === undefined ? undefined : role === 'guest' ? null : role;
    const where = wanted === undefined ? undefined : (record: StoredRecord) => record.role === wanted;
    if (!search) {
      const page = await pageOf(ctx.tx, TABLES.members, { index, value: organizationId, order, where }, input);
      return mapPageItems(page, (records) => presentMembers(ctx, records as MemberRecord[]));
    }
    // Search joins each member with its user: filter the organization's members in the core, then page.
    const needle = search.toLowerCase();
    const { items } = await ctx.tx.list(TABLES.members, { index, value: organizationId, where });
    const members = items as MemberRecord[];
    // Every user read at once: a networked store reads them in one round trip, not one a member.
    const users = await loadUsers(ctx, members.map((member) => member.userId));
    const matching = members.filter((_, i) => users[i].displayName.toLowerCase().includes(needle) || users[i].email.includes(needle));
    const page = pageOfArray(matching, (member) => [member[sort] as string, member.id], input, order);
    return mapPageItems(page, (members) => presentMembers(ctx, members));
  },
});
