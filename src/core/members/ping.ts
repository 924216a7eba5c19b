import * as v from 'valibot';
import { writeOperation } from '../operation.js';
import { organizationAccess } from '../permissions.js';
import { TABLES, type MemberRecord } from '../records.js';
import { Id } from '../schemas.js';

/** How long the visitor claims returned by ping stay valid. */
export const VISITOR_CLAIMS_TTL_SECONDS = 60 * 60;

/**
 * Records that the caller was active in an organization now (its `lastSeenAt`), and returns a signed
 * JWT (HS256, valid one hour) with the claims a site can use to recognise this member as a visitor.
 */
export const pingOrganization = writeOperation({
  name: 'pingOrganization',
  summary: "Update the caller's last-seen time in an organization",
  params: { organizationId: Id },
  response: v.object({ serviceVisitorClaims: v.string() }),
  async run(ctx, { organizationId }) {
    const { member } = await organizationAccess(ctx, organizationId);
    const updated: MemberRecord = { ...member, lastSeenAt: ctx.now };
    await ctx.tx.put(TABLES.members, updated);
    const claims = { organization: organizationId, role: member.role, email: (await ctx.actor.user()).email };
    const token = await ctx.secrets.signVisitorClaims(claims, member.userId, VISITOR_CLAIMS_TTL_SECONDS, new Date(ctx.now));
    return { serviceVisitorClaims: token };
  },
});
