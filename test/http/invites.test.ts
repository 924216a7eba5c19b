import { expect, it } from 'vitest';
import { TABLES } from '../../src/core/records.js';
import type { MemberRole } from '../../src/core/roles.js';
import { httpSuite, walkPages, type Caller } from './harness.js';

/**
 * Invite links: GET, PATCH and DELETE /v1/orgs/{organizationId}/link-invites/{inviteId} (seed), and
 * from the public API POST and GET /v1/orgs/{organizationId}/link-invites (create: `role` required,
 * 201) and POST /v1/orgs/{organizationId}/invites/{inviteId} (join: 200 `{}`). Rules from docs/api-notes.md
 * "Invite links": admins manage them while `inviteLinks` is on; anyone signed in who has the id may
 * read it and join; joining raises a lower role and never lowers one.
 */

const START = '2026-03-01T10:00:00.000Z';
const ROLES: (MemberRole | null)[] = ['admin', 'create', 'review', 'edit', 'comment', 'read', null];
const NON_ADMIN_ROLES: (MemberRole | null)[] = ['create', 'review', 'edit', 'comment', 'read', null];

httpSuite('invites', (h) => {
  const orgPath = () => `/v1/orgs/${h().organizationId}`;
  const invitesPath = () => `${orgPath()}/link-invites`;
  const invitePath = (id: string) => `${invitesPath()}/${id}`;
  const joinPath = (id: string, organizationId = h().organizationId) => `/v1/orgs/${organizationId}/invites/${id}`;

  /** Creates an invite link as the owner and returns it. */
  async function createInvite(role: MemberRole | null) {
    const response = await h().owner.post(invitesPath(), { role });
    expect(response.status).toBe(201);
    return response.body as { object: 'invite'; id: string; role: MemberRole | null; redundant: boolean };
  }

  /** The number of members of the organization. */
  const memberCount = async () => (await h().owner.get(`${orgPath()}/members?limit=1`)).body.count as number;

  /** The member record of a user, as the owner sees it (status and body). */
  const memberOf = (userId: string) => h().owner.get(`${orgPath()}/members/${userId}`);

  /** A signed-in user who is a member of another organization only. */
  const outsider = async (): Promise<Caller> => (await h().organization()).owner;

  /** The invite list as the owner sees it. */
  const listed = async () => (await h().owner.get(invitesPath())).body;

  // ---------------------------------------------------------------- create

  it('creates an invite link: 201, the invite object, no Location', async () => {
    const response = await h().owner.post(invitesPath(), { role: 'edit' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ object: 'invite', id: expect.any(String), role: 'edit', redundant: true });
    expect(response.body.id).toMatch(/^[A-Za-z0-9_-]{10,}$/);
    // The invite object has no urls.location, so no Location header is sent.
    expect(response.headers.get('location')).toBeNull();
    const fetched = await h().owner.get(invitePath(response.body.id));
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(response.body);
  });

  it('creates invites for every role and for guests (null), each with an id of its own', async () => {
    const ids = new Set<string>();
    for (const role of ROLES) {
      const invite = await createInvite(role);
      expect(invite.role).toBe(role);
      // The owner is an admin: it already has what any invite grants.
      expect(invite.redundant).toBe(true);
      ids.add(invite.id);
    }
    expect(ids.size).toBe(ROLES.length);
    expect((await listed()).count).toBe(ROLES.length);
  });

  it('wants a role: missing or not a role is a 400 naming role, and nothing is created', async () => {
    const missing = await h().owner.post(invitesPath(), {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('role: is required');
    const none = await h().owner.post(invitesPath());
    expect(none.status).toBe(400);
    expect(none.body.error.message).toBe('role: is required');
    for (const role of ['owner', 'guest', 'Admin', 42, true, ['read']]) {
      const response = await h().owner.post(invitesPath(), { role });
      expect(response.status, JSON.stringify(role)).toBe(400);
      expect(response.body.error.message, JSON.stringify(role)).toMatch(/^role:/);
    }
    expect(await listed()).toEqual({ items: [], count: 0 });
  });

  it('lets only admins create invite links: 403 for other roles, 404 for non-members', async () => {
    for (const role of NON_ADMIN_ROLES) {
      const caller = await h().user(role);
      const response = await caller.post(invitesPath(), { role: 'read' });
      expect(response.status, String(role)).toBe(403);
    }
    expect((await (await outsider()).post(invitesPath(), { role: 'read' })).status).toBe(404);
    expect((await h().owner.post('/v1/orgs/no-such-org/link-invites', { role: 'read' })).status).toBe(404);
    expect((await listed()).count).toBe(0);
    const admin = await h().user('admin');
    expect((await admin.post(invitesPath(), { role: 'read' })).status).toBe(201);
    expect((await listed()).count).toBe(1);
  });

  it('refuses to create invite links while the organization has them turned off (403)', async () => {
    await h().owner.patch(orgPath(), { inviteLinks: false });
    const refused = await h().owner.post(invitesPath(), { role: 'read' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/inviteLinks/);
    expect((await listed()).count).toBe(0);
    await h().owner.patch(orgPath(), { inviteLinks: true });
    expect((await h().owner.post(invitesPath(), { role: 'read' })).status).toBe(201);
  });

  // ---------------------------------------------------------------- list

  it('lists the invite links of the organization only, oldest first, with an exact count', async () => {
    const created = [];
    for (const role of ['read', 'edit', null, 'admin'] as const) {
      h().clock.advance(60_000);
      created.push(await createInvite(role));
    }
    const other = await h().organization();
    const foreign = await other.owner.post(`/v1/orgs/${other.organizationId}/link-invites`, { role: 'read' });
    expect(foreign.status).toBe(201);
    const list = await h().owner.get(invitesPath());
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ items: created, count: 4 });
    const theirs = await other.owner.get(`/v1/orgs/${other.organizationId}/link-invites`);
    expect(theirs.body).toEqual({ items: [foreign.body], count: 1 });
  });

  it('pages the invite list: every limit walks every invite once, in order', async () => {
    const created = [];
    for (let i = 0; i < 5; i++) {
      h().clock.advance(1000);
      created.push((await createInvite('read')).id);
    }
    for (const limit of [1, 2, 3, 5, 1000]) {
      expect((await walkPages(h().owner, invitesPath(), limit)).map((invite) => invite.id), `limit ${limit}`).toEqual(created);
    }
    const page = await h().owner.get(`${invitesPath()}?limit=2`);
    expect(page.body.count).toBe(5);
    expect(page.body.items.map((invite: any) => invite.id)).toEqual(created.slice(0, 2));
    expect(typeof page.body.next.page).toBe('string');
    const last = await h().owner.get(`${invitesPath()}?limit=5`);
    expect(last.body).not.toHaveProperty('next');
    for (const [limit, message] of [['0', 'limit: must be at least 1'], ['1001', 'limit: must be at most 1000'], ['2.5', 'limit: must be a whole number']]) {
      const response = await h().owner.get(`${invitesPath()}?limit=${limit}`);
      expect(response.status).toBe(400);
      expect(response.body.error.message).toBe(message);
    }
  });

  it('lists invite links to admins only: 403 for other roles, 404 for non-members', async () => {
    await createInvite('read');
    for (const role of NON_ADMIN_ROLES) {
      const caller = await h().user(role);
      expect((await caller.get(invitesPath())).status, String(role)).toBe(403);
    }
    expect((await (await outsider()).get(invitesPath())).status).toBe(404);
  });

  // ---------------------------------------------------------------- get

  it('shows an invite to every member, with redundant computed for the caller', async () => {
    const invite = await createInvite('edit');
    // redundant: the caller's role already includes edit (admin > create > review > edit).
    const expected: Record<string, boolean> = { admin: true, create: true, review: true, edit: true, comment: false, read: false, guest: false };
    for (const role of ROLES) {
      const caller = await h().user(role);
      const response = await caller.get(invitePath(invite.id));
      expect(response.status, String(role)).toBe(200);
      expect(response.body, String(role)).toEqual({ object: 'invite', id: invite.id, role: 'edit', redundant: expected[role ?? 'guest'] });
    }
    const guestInvite = await createInvite(null);
    const guest = await h().user(null);
    expect((await guest.get(invitePath(guestInvite.id))).body.redundant).toBe(true);
  });

  it('shows an invite to a signed-in non-member who has its id (not redundant)', async () => {
    const invite = await createInvite('comment');
    const stranger = await outsider();
    const response = await stranger.get(invitePath(invite.id));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ object: 'invite', id: invite.id, role: 'comment', redundant: false });
    // Having the id of one invite does not let the stranger see the others or the organization.
    expect((await stranger.get(invitesPath())).status).toBe(404);
    expect((await stranger.get(orgPath())).status).toBe(404);
  });

  it('answers 404 for an unknown invite, or an invite asked for under another organization', async () => {
    expect((await h().owner.get(invitePath('no-such-invite'))).status).toBe(404);
    const other = await h().organization();
    const foreign = await other.owner.post(`/v1/orgs/${other.organizationId}/link-invites`, { role: 'read' });
    const response = await h().owner.get(invitePath(foreign.body.id));
    expect(response.status).toBe(404);
    expect(response.body.error.message).toContain(foreign.body.id);
    const mine = await createInvite('read');
    expect((await other.owner.get(`/v1/orgs/${other.organizationId}/link-invites/${mine.id}`)).status).toBe(404);
    expect((await h().owner.get(`/v1/orgs/no-such-org/link-invites/${mine.id}`)).status).toBe(404);
  });

  it('hides invites from everyone but admins while invite links are turned off', async () => {
    const invite = await createInvite('read');
    const reader = await h().user('read');
    const stranger = await outsider();
    await h().owner.patch(orgPath(), { inviteLinks: false });
    expect((await reader.get(invitePath(invite.id))).status).toBe(404);
    expect((await stranger.get(invitePath(invite.id))).status).toBe(404);
    // Admins still manage them: what the list shows, GET shows.
    expect((await listed()).items.map((item: any) => item.id)).toEqual([invite.id]);
    expect((await h().owner.get(invitePath(invite.id))).body).toEqual(invite);
    await h().owner.patch(orgPath(), { inviteLinks: true });
    expect((await stranger.get(invitePath(invite.id))).status).toBe(200);
  });

  // ---------------------------------------------------------------- patch

  it('changes the role of an invite link (admins only), to any role or to guest', async () => {
    const invite = await createInvite('read');
    for (const role of [...ROLES, 'comment']) {
      const response = await h().owner.patch(invitePath(invite.id), { role });
      expect(response.status, String(role)).toBe(200);
      expect(response.body).toEqual({ object: 'invite', id: invite.id, role, redundant: true });
      expect((await h().owner.get(invitePath(invite.id))).body.role).toBe(role);
    }
    expect((await listed())).toEqual({ items: [{ ...invite, role: 'comment' }], count: 1 });
  });

  it('refuses a bad role with 400 naming role, and nothing changes', async () => {
    const invite = await createInvite('read');
    for (const body of [{ role: 'owner' }, { role: 'guest' }, { role: 7 }, {}, { level: 'edit' }]) {
      const response = await h().owner.patch(invitePath(invite.id), body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.message, JSON.stringify(body)).toMatch(/^role:/);
    }
    expect((await h().owner.get(invitePath(invite.id))).body).toEqual(invite);
  });

  it('lets only admins change an invite: 403 for other roles, 404 for non-members and unknown invites', async () => {
    const invite = await createInvite('read');
    for (const role of NON_ADMIN_ROLES) {
      const caller = await h().user(role);
      expect((await caller.patch(invitePath(invite.id), { role: 'admin' })).status, String(role)).toBe(403);
    }
    expect((await (await outsider()).patch(invitePath(invite.id), { role: 'admin' })).status).toBe(404);
    expect((await h().owner.patch(invitePath('no-such-invite'), { role: 'admin' })).status).toBe(404);
    const other = await h().organization();
    const foreign = await other.owner.post(`/v1/orgs/${other.organizationId}/link-invites`, { role: 'read' });
    expect((await h().owner.patch(invitePath(foreign.body.id), { role: 'admin' })).status).toBe(404);
    expect((await other.owner.get(`/v1/orgs/${other.organizationId}/link-invites/${foreign.body.id}`)).body.role).toBe('read');
    expect((await h().owner.get(invitePath(invite.id))).body.role).toBe('read');
  });

  // ---------------------------------------------------------------- delete

  it('deletes an invite link: 205 with no body, then it is gone', async () => {
    const kept = await createInvite('edit');
    const invite = await createInvite('read');
    const response = await h().owner.delete(invitePath(invite.id));
    expect(response.status).toBe(205);
    expect(response.text).toBe('');
    expect(response.headers.get('content-type')).toBeNull();
    expect((await h().owner.get(invitePath(invite.id))).status).toBe(404);
    expect(await listed()).toEqual({ items: [kept], count: 1 });
    expect((await h().owner.patch(invitePath(invite.id), { role: 'edit' })).status).toBe(404);
    // Deleting it again, or something that never existed, is a 404.
    expect((await h().owner.delete(invitePath(invite.id))).status).toBe(404);
    expect((await h().owner.delete(invitePath('no-such-invite'))).status).toBe(404);
  });

  it('lets only admins delete: 403 for other roles, 404 for non-members, and the invite stays', async () => {
    const invite = await createInvite('read');
    for (const role of NON_ADMIN_ROLES) {
      const caller = await h().user(role);
      expect((await caller.delete(invitePath(invite.id))).status, String(role)).toBe(403);
    }
    expect((await (await outsider()).delete(invitePath(invite.id))).status).toBe(404);
    const other = await h().organization();
    expect((await other.owner.delete(`/v1/orgs/${other.organizationId}/link-invites/${invite.id}`)).status).toBe(404);
    expect((await h().owner.get(invitePath(invite.id))).body).toEqual(invite);
    expect((await listed()).count).toBe(1);
  });

  // ---------------------------------------------------------------- join

  it('makes a newcomer a member with the invite’s role, joined at the clock’s time', async () => {
    const invite = await createInvite('edit');
    const stranger = await outsider();
    const before = await memberCount();
    h().clock.set('2026-04-02T12:34:56.789Z');
    const response = await stranger.post(joinPath(invite.id));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({});
    expect(await memberCount()).toBe(before + 1);
    const member = await memberOf(stranger.userId);
    expect(member.status).toBe(200);
    expect(member.body).toMatchObject({ object: 'member', id: stranger.userId, role: 'edit', disabled: false, sso: false, joinedAt: '2026-04-02T12:34:56.789Z' });
    expect(member.body.user.email).toBe(stranger.email);
    // The newcomer now sees the organization with the permissions of its role, and the invite as redundant.
    const org = await stranger.get(orgPath());
    expect(org.status).toBe(200);
    expect(org.body.permissions).toMatchObject({ view: true, admin: false, createContent: false, listMembers: true });
    expect((await stranger.get('/v1/orgs')).body.items.map((item: any) => item.id)).toContain(h().organizationId);
    expect((await stranger.get(invitePath(invite.id))).body.redundant).toBe(true);
  });

  it('makes a newcomer a guest with a guest invite, and an admin with an admin invite', async () => {
    const guestInvite = await createInvite(null);
    const adminInvite = await createInvite('admin');
    const guest = await outsider();
    const admin = await outsider();
    expect((await guest.post(joinPath(guestInvite.id))).status).toBe(200);
    expect((await admin.post(joinPath(adminInvite.id))).status).toBe(200);
    expect((await memberOf(guest.userId)).body.role).toBeNull();
    expect((await memberOf(admin.userId)).body.role).toBe('admin');
    expect((await guest.get(orgPath())).body.permissions.listMembers).toBe(false);
    expect((await admin.patch(orgPath(), { title: 'Joined Admin' })).status).toBe(200);
  });

  it('is idempotent: joining twice changes nothing the second time', async () => {
    const invite = await createInvite('comment');
    const stranger = await outsider();
    const before = await memberCount();
    expect((await stranger.post(joinPath(invite.id))).status).toBe(200);
    const first = (await memberOf(stranger.userId)).body;
    h().clock.advance(86_400_000);
    const again = await stranger.post(joinPath(invite.id));
    expect(again.status).toBe(200);
    expect(again.body).toEqual({});
    expect(await memberCount()).toBe(before + 1);
    expect((await memberOf(stranger.userId)).body).toEqual(first);
    expect(first.joinedAt).toBe(START);
  });

  it('raises a member with a lower role to the invite’s role and never lowers one', async () => {
    const invite = await createInvite('edit');
    const cases: [MemberRole | null, MemberRole | null][] = [
      [null, 'edit'],
      ['read', 'edit'],
      ['comment', 'edit'],
      ['edit', 'edit'],
      ['review', 'review'],
      ['create', 'create'],
      ['admin', 'admin'],
    ];
    for (const [role, after] of cases) {
      const member = await h().user(role);
      const joinedAt = (await memberOf(member.userId)).body.joinedAt;
      const count = await memberCount();
      h().clock.advance(1000);
      expect((await member.post(joinPath(invite.id))).status, String(role)).toBe(200);
      const now = (await memberOf(member.userId)).body;
      expect(now.role, String(role)).toBe(after);
      // A member keeps its place: same join time, no new membership.
      expect(now.joinedAt).toBe(joinedAt);
      expect(await memberCount()).toBe(count);
    }
    // The owner joining with a read invite is still the admin it was.
    const readInvite = await createInvite('read');
    expect((await h().owner.post(joinPath(readInvite.id))).status).toBe(200);
    expect((await memberOf(h().owner.userId)).body.role).toBe('admin');
  });

  it('grants the role the invite has when joining: a changed role applies to later joins only', async () => {
    const invite = await createInvite('read');
    const early = await outsider();
    await early.post(joinPath(invite.id));
    await h().owner.patch(invitePath(invite.id), { role: 'review' });
    const late = await outsider();
    await late.post(joinPath(invite.id));
    expect((await memberOf(early.userId)).body.role).toBe('read');
    expect((await memberOf(late.userId)).body.role).toBe('review');
  });

  it('refuses a deleted or unknown invite with 404 and adds nobody; members who joined stay', async () => {
    const invite = await createInvite('edit');
    const joined = await outsider();
    await joined.post(joinPath(invite.id));
    expect((await h().owner.delete(invitePath(invite.id))).status).toBe(205);
    const count = await memberCount();
    const late = await outsider();
    const response = await late.post(joinPath(invite.id));
    expect(response.status).toBe(404);
    expect((await late.post(joinPath('no-such-invite'))).status).toBe(404);
    expect(await memberCount()).toBe(count);
    expect((await memberOf(late.userId)).status).toBe(404);
    expect((await late.get(orgPath())).status).toBe(404);
    expect((await memberOf(joined.userId)).body.role).toBe('edit');
  });

  it('refuses an invite used under another organization’s path (404), and joins nothing', async () => {
    const other = await h().organization();
    const foreign = await other.owner.post(`/v1/orgs/${other.organizationId}/link-invites`, { role: 'admin' });
    const stranger = await outsider();
    const count = await memberCount();
    expect((await stranger.post(joinPath(foreign.body.id))).status).toBe(404);
    expect(await memberCount()).toBe(count);
    expect((await stranger.get(orgPath())).status).toBe(404);
    expect((await stranger.get(`/v1/orgs/${other.organizationId}`)).status).toBe(404);
    expect((await stranger.post(joinPath(foreign.body.id, 'no-such-org'))).status).toBe(404);
  });

  it('refuses to join while invite links are turned off (404), and works again once they are on', async () => {
    const invite = await createInvite('read');
    const stranger = await outsider();
    const count = await memberCount();
    await h().owner.patch(orgPath(), { inviteLinks: false });
    expect((await stranger.post(joinPath(invite.id))).status).toBe(404);
    expect(await memberCount()).toBe(count);
    await h().owner.patch(orgPath(), { inviteLinks: true });
    expect((await stranger.post(joinPath(invite.id))).status).toBe(200);
    expect(await memberCount()).toBe(count + 1);
  });

  it('lets a member who left join again, as a new member', async () => {
    const invite = await createInvite('comment');
    const reader = await h().user('read');
    expect((await reader.delete(`${orgPath()}/members/${reader.userId}`)).status).toBe(204);
    const count = await memberCount();
    h().clock.set('2026-06-01T00:00:00.000Z');
    expect((await reader.post(joinPath(invite.id))).status).toBe(200);
    expect(await memberCount()).toBe(count + 1);
    expect((await memberOf(reader.userId)).body).toMatchObject({ role: 'comment', joinedAt: '2026-06-01T00:00:00.000Z' });
  });

  it('refuses a disabled member (403): an invite link does not re-enable a membership', async () => {
    const invite = await createInvite('admin');
    const reader = await h().user('read');
    const id = `${h().organizationId}/${reader.userId}`;
    await h().platform.store.write(async (tx) => {
      await tx.put(TABLES.members, { ...(await tx.get(TABLES.members, id))!, disabled: true });
    });
    const response = await reader.post(joinPath(invite.id));
    expect(response.status).toBe(403);
    expect(response.body.error.message).toMatch(/disabled/);
    const stored = await h().platform.store.read((tx) => tx.get(TABLES.members, id));
    expect(stored).toMatchObject({ role: 'read', disabled: true });
  });

  it('wants a token to join', async () => {
    const invite = await createInvite('read');
    const response = await h().request('POST', joinPath(invite.id));
    expect(response.status).toBe(401);
    const anonymous = await h().request('GET', invitePath(invite.id));
    expect(anonymous.status).toBe(401);
  });
});
