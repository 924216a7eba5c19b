import { notFound } from '../errors.js';
import { readOperation } from '../operation.js';
import { assertAllowed, findMembership, organizationAccess } from '../permissions.js';
import { Id } from '../schemas.js';
import { prefetchMemberContent, presentMember } from './present.js';
import { MemberSchema } from './schemas.js';

/** Gets one member of an organization; every member may see itself. */
export const getMember = readOperation({
  name: 'getMember',
  summary: 'Get a member of an organization',
  params: { organizationId: Id, userId: Id },
  response: MemberSchema,
  async run(ctx, { organizationId, userId }) {
    // Read with the caller's access (one round trip to a database); its 404 comes after the access checks.
    const loading = loadMember(ctx, organizationId, userId);
    loading.catch(() => undefined);
    prefetchMemberContent(ctx, organizationId);
    const { member: caller } = await organizationAccess(ctx, organizationId);
    if (userId !== caller.userId) assertAllowed(caller, 'listMembers', 'view other members');
    return presentMember(ctx, await loading);
  },
});

/** Loads a member of an organization, or 404. */
export async function loadMember(ctx: Parameters<typeof findMembership>[0], organizationId: string, userId: string) {
  const member = await findMembership(ctx, organizationId, userId);
  if (!member) throw notFound(`No member ${userId} in organization ${organizationId}`);
  return member;
}
