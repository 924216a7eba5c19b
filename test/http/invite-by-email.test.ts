import { GitBookAPI } from '@gitbook/api';
import { expect, it } from 'vitest';
import { MAX_INVITE_EMAILS } from '../../src/core/invites/invite-by-email.js';
import type { MemberRole } from '../../src/core/roles.js';
import { httpSuite } from './harness.js';

/**
 * POST /v1/orgs/{organizationId}/invites (from the public API: inviteUsersToOrganization): admins invite
 * people by e-mail address. New addresses become users and members, existing users become members, active
 * members stay as they are; the answer is the public `{users, invited}` with our `claims` (token-claims.test.ts
 * redeems them).
 */

/**
 * The part of the official client this test calls. Its declarations import './client' without an extension,
 * which NodeNext resolution does not follow, so TypeScript sees no `orgs` on GitBookAPI; at run time it is there.
 */
interface InviteClient {
  orgs: {
    inviteUsersToOrganization(
      organizationId: string,
      data: { emails: (string | { email: string; role: MemberRole | null })[]; role?: MemberRole | null; sso?: boolean },
    ): Promise<{ data: { users: string[]; invited: number } }>;
  };
}

const NON_ADMIN_ROLES: (MemberRole | null)[] = ['create', 'review', 'edit', 'comment', 'read', null];

httpSuite('invites by e-mail', (h) => {
  const invitesPath = (organizationId = h().organizationId) => `/v1/orgs/${organizationId}/invites`;
  const memberPath = (userId: string) => `/v1/orgs/${h().organizationId}/members/${userId}`;
  const memberCount = async () => (await h().owner.get(`/v1/orgs/${h().organizationId}/members?limit=1`)).body.count as number;

  it('makes new addresses users and members with their roles, and answers a claim for each', async () => {
    const response = await h().owner.post(invitesPath(), { emails: ['Ann@Acme.test', { email: 'bob@acme.test', role: 'admin' }], role: 'edit' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ users: [expect.any(String), expect.any(String)], invited: 2, claims: expect.any(Array) });
    const [ann, bob] = response.body.users;
    const annMember = await h().owner.get(memberPath(ann));
    expect(annMember.body).toMatchObject({ role: 'edit', disabled: false, sso: false, user: { id: ann, email: 'ann@acme.test', displayName: 'ann' } });
    expect((await h().owner.get(memberPath(bob))).body).toMatchObject({ role: 'admin', user: { email: 'bob@acme.test' } });
    expect(response.body.claims).toEqual([
      { user: ann, email: 'ann@acme.test', url: expect.stringMatching(/\/v1\/claims\/dpc_[A-Za-z0-9_-]{32,}$/), expiresAt: '2026-03-08T10:00:00.000Z' },
      { user: bob, email: 'bob@acme.test', url: expect.stringMatching(/\/v1\/claims\/dpc_/), expiresAt: '2026-03-08T10:00:00.000Z' },
    ]);
  });

  it("gives the organization's default role when no role is given, guests for null, and marks SSO members", async () => {
    const defaulted = await h().owner.post(invitesPath(), { emails: ['d@acme.test'] });
    expect((await h().owner.get(memberPath(defaulted.body.users[0]))).body).toMatchObject({ role: 'read', sso: false });
    const guest = await h().owner.post(invitesPath(), { emails: ['g@acme.test'], role: null, sso: true });
    expect((await h().owner.get(memberPath(guest.body.users[0]))).body).toMatchObject({ role: null, sso: true });
    await h().owner.patch(`/v1/orgs/${h().organizationId}`, { defaultRole: 'comment' });
    const changed = await h().owner.post(invitesPath(), { emails: ['c@acme.test'] });
    expect((await h().owner.get(memberPath(changed.body.users[0]))).body.role).toBe('comment');
  });

  it('adds an existing user as a member without a claim (it has a token), and leaves an active member as it is', async () => {
    const other = await h().organization({ email: 'olga@other.test' });
    const member = await h().user('comment', { email: 'mia@acme.test' });
    const before = await memberCount();
    const response = await h().owner.post(invitesPath(), { emails: ['olga@other.test', 'mia@acme.test'], role: 'review' });
    expect(response.body).toEqual({ users: [other.owner.userId], invited: 1, claims: [] });
    expect(await memberCount()).toBe(before + 1);
    expect((await h().owner.get(memberPath(other.owner.userId))).body.role).toBe('review');
    expect((await h().owner.get(memberPath(member.userId))).body.role).toBe('comment');
    // The user's own token now reaches the organization it joined.
    expect((await other.owner.get(`/v1/orgs/${h().organizationId}`)).status).toBe(200);
  });

  it('enables a disabled member again with the role of the invite', async () => {
    const member = await h().user('edit');
    await h().platform.store.write(async (tx) => {
      const record = await tx.get('members', `${h().organizationId}/${member.userId}`);
      await tx.put('members', { ...record!, disabled: true });
    });
    expect((await member.get(`/v1/orgs/${h().organizationId}`)).status).toBe(404);
    const response = await h().owner.post(invitesPath(), { emails: [member.email], role: 'read' });
    expect(response.body).toEqual({ users: [member.userId], invited: 1, claims: [] });
    expect((await h().owner.get(memberPath(member.userId))).body).toMatchObject({ role: 'read', disabled: false });
    expect((await member.get(`/v1/orgs/${h().organizationId}`)).status).toBe(200);
  });

  it('refuses bad input with a 400 naming the field, and adds nobody', async () => {
    const before = await memberCount();
    const tooMany = Array.from({ length: MAX_INVITE_EMAILS + 1 }, (_, i) => `u${i}@acme.test`);
    const cases: [unknown, string][] = [
      [{}, 'emails: is required'],
      [{ emails: [] }, 'emails: must list at least one address'],
      [{ emails: tooMany }, `emails: must list at most ${MAX_INVITE_EMAILS} addresses`],
      [{ emails: ['not an address'] }, 'emails.0: must be an e-mail address'],
      [{ emails: [{ email: 'nope', role: 'read' }] }, 'emails.0.email: must be an e-mail address'],
      [{ emails: [{ email: 'x@acme.test' }] }, 'emails.0: must be an e-mail address, or an object {email, role}'],
      [{ emails: ['x@acme.test', 'X@acme.test'] }, 'emails.1: x@acme.test is listed twice'],
      [{ emails: ['x@acme.test'], role: 'owner' }, expect.stringMatching(/^role: /) as unknown as string],
      [{ emails: ['x@acme.test'], sso: 'yes' }, expect.stringMatching(/^sso: /) as unknown as string],
    ];
    for (const [body, message] of cases) {
      const response = await h().owner.post(invitesPath(), body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body.error.message).toEqual(message);
    }
    expect(await memberCount()).toBe(before);
  });

  it('lets only admins invite: 403 for every other role, 404 outside the organization, 401 without a token', async () => {
    const before = await memberCount();
    for (const role of NON_ADMIN_ROLES) {
      const member = await h().user(role);
      const response = await member.post(invitesPath(), { emails: ['nope@acme.test'] });
      expect(response.status, String(role)).toBe(403);
      expect(response.body.error.message).toBe('You need the admin role to invite users');
    }
    const outsider = (await h().organization()).owner;
    const hidden = await outsider.post(invitesPath(), { emails: ['nope@acme.test'] });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.message).toBe(`No organization ${h().organizationId} found`);
    expect((await outsider.post(invitesPath('no-such-org'), { emails: ['nope@acme.test'] })).status).toBe(404);
    expect((await h().request('POST', invitesPath(), { body: { emails: ['nope@acme.test'] } })).status).toBe(401);
    expect(await memberCount()).toBe(before + NON_ADMIN_ROLES.length);
  });

  it('answers the official @gitbook/api client', async () => {
    const client = (token: string) =>
      new GitBookAPI({
        endpoint: 'http://docs.test',
        authToken: token,
        serviceBinding: { fetch: (input, init) => h().send(new URL(String(input)).pathname, init) },
      }) as unknown as InviteClient;
    const { data } = await client(h().owner.token).orgs.inviteUsersToOrganization(h().organizationId, {
      emails: ['client@acme.test', { email: 'lead@acme.test', role: 'create' }],
    });
    expect(data).toMatchObject({ invited: 2, users: [expect.any(String), expect.any(String)] });
    expect((await h().owner.get(memberPath(data.users[1]))).body).toMatchObject({ role: 'create', user: { email: 'lead@acme.test' } });
    const editor = await h().user('edit');
    const refused = await client(editor.token)
      .orgs.inviteUsersToOrganization(h().organizationId, { emails: ['x@acme.test'] })
      .then(() => undefined, (error: Error & { code?: number }) => error);
    expect(refused?.code).toBe(403);
  });
});
