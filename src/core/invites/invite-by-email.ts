import * as v from 'valibot';
import { ClaimSchema } from '../claims/claim-schemas.js';
import { awaitsFirstToken, issueClaim } from '../claims/issue-claim.js';
import { badRequest } from '../errors.js';
import { writeOperation } from '../operation.js';
import { putMembership } from '../members/put-membership.js';
import { findMembership, requireOrganization } from '../permissions.js';
import type { MemberRole } from '../roles.js';
import { Id, MemberRoleOrGuest } from '../schemas.js';
import { findOrCreateUser } from '../users/find-or-create-user.js';
import { emailScope, exclusive } from '../scopes.js';
import { Email } from '../users/user-schemas.js';

/** The most addresses one invite takes: each makes a user, a membership and a claim in one transaction. */
export const MAX_INVITE_EMAILS = 100;

/** One address to invite: alone (it gets the request's role) or with a role of its own, as the public API takes them. */
const InviteEmail = v.union([Email, v.object({ email: Email, role: MemberRoleOrGuest })], 'must be an e-mail address, or an object {email, role}');

/** The answer: the public API's `{users, invited}`, and our `claims`, one per user who waits for a first token. */
const InviteResult = v.object({
  /** The users added to the organization (new members, and disabled ones enabled again). */
  users: v.array(v.string()),
  /** How many users were added. */
  invited: v.number(),
  /** Ours: for each invited user without a token yet, the one-time URL that gives it one, for the admin to hand over. */
  claims: v.array(ClaimSchema),
});

/**
 * Invites people to an organization by e-mail address; admins only. An address no user has becomes a new
 * user (named after the address's local part). Whoever is not a member yet, or is a disabled one, becomes an
 * active member with the role given with the address, else `role`, else the organization's default role;
 * `sso` marks them SSO members. Members already active are left as they are. Every invited user who waits
 * for a first API token gets a claim (claims/issue-claim.ts) in the answer.
 */
export const inviteUsersToOrganization = writeOperation({
  name: 'inviteUsersToOrganization',
  summary: 'Invite users in an organization',
  params: { organizationId: Id },
  body: {
    emails: v.pipe(
      v.array(InviteEmail),
      v.minLength(1, 'must list at least one address'),
      v.maxLength(MAX_INVITE_EMAILS, `must list at most ${MAX_INVITE_EMAILS} addresses`),
    ),
    role: v.optional(MemberRoleOrGuest),
    sso: v.optional(v.boolean(), false),
  },
  response: InviteResult,
  // Every address's (findOrCreateUser): locked one by one after the reads, each would run the write again.
  locks: ({ emails }) => emails.map((entry) => exclusive(emailScope(typeof entry === 'string' ? entry : entry.email))),
  async run(ctx, { organizationId, emails, role, sso }) {
    const { organization } = await requireOrganization(ctx, organizationId, 'admin', 'invite users');
    const invitees = distinct(emails, role === undefined ? organization.defaultRole : role);
    const users: string[] = [];
    const claims: v.InferInput<typeof ClaimSchema>[] = [];
    for (const { email, role: granted } of invitees) {
      const { user, created } = await findOrCreateUser(ctx.tx, ctx.ids, email, email.split('@')[0] || email, ctx.now);
      // An active member stays as it is: its role changes through PATCH .../members/{userId}.
      if (!(await findMembership(ctx, organizationId, user.id))) {
        await putMembership(ctx.tx, organizationId, user.id, granted, ctx.now, sso);
        users.push(user.id);
      }
      if (created || (await awaitsFirstToken(ctx.tx, user.id))) {
        const { code, expiresAt } = await issueClaim(ctx, user.id, organizationId);
        claims.push({ user: user.id, email, url: ctx.urls.api(`/claims/${code}`), expiresAt });
      }
    }
    return { users, invited: users.length, claims };
  },
});

/** The addresses with the role each gets; an address listed twice is a 400 (which of its roles would hold?). */
function distinct(emails: readonly v.InferOutput<typeof InviteEmail>[], role: MemberRole | null) {
  const seen = new Set<string>();
  return emails.map((entry, index) => {
    const invitee = typeof entry === 'string' ? { email: entry, role } : entry;
    if (seen.has(invitee.email)) throw badRequest(`emails.${index}: ${invitee.email} is listed twice`);
    seen.add(invitee.email);
    return invitee;
  });
}
