import { expect, it } from 'vitest';
import type { MemberRole } from '../../src/core/roles.js';
import { TABLES } from '../../src/core/records.js';
import { httpSuite, walkPages, type Caller } from './harness.js';

/** The harness's clock starts here: the owner joined the organization at this instant. */
const START = '2026-03-01T10:00:00.000Z';
const MINUTE = 60_000;
const ROLES: MemberRole[] = ['admin', 'create', 'review', 'edit', 'comment', 'read'];
const NON_ADMIN: (MemberRole | null)[] = ['create', 'review', 'edit', 'comment', 'read', null];

/** The payload of a JWT, decoded without checking its signature. */
function jwtPart(token: string, index: 0 | 1): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[index], 'base64url').toString('utf8'));
}

httpSuite('members', (h) => {
  const org = () => `/v1/orgs/${h().organizationId}`;
  const list = (query = '', caller: Caller = h().owner) => caller.get(`${org()}/members${query}`);
  const ids = (response: { body: { items: { id: string }[] } }) => response.body.items.map((member) => member.id);
  const now = () => h().clock.now().toISOString();

  /** Adds a member one minute after the previous one, so every joinedAt differs. */
  async function join(role: MemberRole | null, options?: { email?: string; name?: string }): Promise<Caller> {
    h().clock.advance(MINUTE);
    return h().user(role, options);
  }

  /** One member per role (and a guest), joined in this order after the owner. */
  async function onePerRole() {
    const byRole = new Map<MemberRole | 'guest', Caller>();
    for (const role of [...ROLES, null]) byRole.set(role ?? 'guest', await join(role));
    return byRole;
  }

  async function createTeam(title: string): Promise<string> {
    const response = await h().owner.put(`${org()}/teams`, { title });
    expect(response.status).toBe(201);
    return response.body.id;
  }

  const member = async (userId: string) => {
    const response = await h().owner.get(`${org()}/members/${userId}`);
    expect(response.status).toBe(200);
    return response.body;
  };

  it('presents every field of a member', async () => {
    h().clock.advance(5 * MINUTE);
    const joinedAt = now();
    const ann = await h().user('edit', { email: 'Ann.Lee@Acme.TEST', name: 'Ann Lee' });
    const response = await h().owner.get(`${org()}/members/${ann.userId}`);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['disabled', 'id', 'joinedAt', 'object', 'role', 'spaces', 'sso', 'teams', 'user']);
    expect(response.body).toMatchObject({
      object: 'member',
      id: ann.userId,
      role: 'edit',
      disabled: false,
      joinedAt,
      sso: false,
      spaces: 0,
      teams: 0,
    });
    const { user } = response.body;
    expect(Object.keys(user).sort()).toEqual(['displayName', 'email', 'id', 'object', 'urls']);
    expect(user).toMatchObject({ object: 'user', id: ann.userId, displayName: 'Ann Lee', email: 'ann.lee@acme.test' });
    expect(user.urls.location).toMatch(new RegExp(`^https?://[^/]+/v1/users/${ann.userId}$`));
    // The owner joined when the organization was created; the list shows the same object.
    expect((await member(h().owner.userId)).joinedAt).toBe(START);
    const listed = (await list()).body.items.find((item: { id: string }) => item.id === ann.userId);
    expect(listed).toEqual(response.body);
    // A guest's role is null.
    const guest = await join(null);
    expect((await member(guest.userId)).role).toBeNull();
  });

  it('counts the teams of a member exactly as they change', async () => {
    const bob = await join('read');
    const alpha = await createTeam('Alpha');
    const beta = await createTeam('Beta');
    const addTo = async (team: string, body: object = {}) =>
      expect((await h().owner.put(`${org()}/teams/${team}/members/${bob.userId}`, body)).status).toBe(204);
    await addTo(alpha);
    expect((await member(bob.userId)).teams).toBe(1);
    await addTo(beta);
    expect((await member(bob.userId)).teams).toBe(2);
    // Changing the role in a team it already belongs to adds no team.
    await addTo(alpha, { role: 'owner' });
    expect((await member(bob.userId)).teams).toBe(2);
    // The owner's count is untouched by bob's teams; the list shows the same counts.
    const listed = (await list()).body.items;
    expect(listed.find((item: { id: string }) => item.id === bob.userId).teams).toBe(2);
    expect(listed.find((item: { id: string }) => item.id === h().owner.userId).teams).toBe(0);
    expect((await h().owner.put(`${org()}/teams/${beta}/members`, { remove: [bob.email] })).status).toBe(204);
    expect((await member(bob.userId)).teams).toBe(1);
    expect((await h().owner.delete(`${org()}/teams/${alpha}`)).status).toBe(204);
    expect((await member(bob.userId)).teams).toBe(0);
    await addTo(beta);
    expect((await member(bob.userId)).teams).toBe(1);
    expect((await h().owner.delete(`${org()}/teams/${beta}/members/${bob.userId}`)).status).toBe(204);
    expect((await member(bob.userId)).teams).toBe(0);
  });

  it("counts the organization's live spaces for members with a role, none for guests", async () => {
    const reader = await join('read');
    const guest = await join(null);
    // No endpoint of part 1 creates spaces: put space records in the store the way the spaces area keeps them.
    const other = await h().organization();
    await h().platform.store.write(async (tx) => {
      const space = (id: string, organizationId: string, extra: object = {}) =>
        tx.put(TABLES.spaces, { id, organizationId, createdAt: now(), ...extra });
      await space('s1', h().organizationId);
      await space('s2', h().organizationId);
      await space('s3', h().organizationId, { deletedAt: now() });
      await space('s4', other.organizationId);
    });
    expect((await member(reader.userId)).spaces).toBe(2);
    expect((await member(h().owner.userId)).spaces).toBe(2);
    expect((await member(guest.userId)).spaces).toBe(0);
  });

  it('lists newest first by default; order=asc reverses it exactly', async () => {
    const joined = [h().owner];
    for (let i = 0; i < 4; i++) joined.push(await join('read'));
    const expected = joined.map((caller) => caller.userId).reverse();
    const byDefault = await list();
    expect(byDefault.status).toBe(200);
    expect(ids(byDefault)).toEqual(expected);
    expect(byDefault.body.count).toBe(5);
    expect(byDefault.body.next).toBeUndefined();
    expect(ids(await list('?order=desc'))).toEqual(expected);
    expect(ids(await list('?order=asc'))).toEqual([...expected].reverse());
    expect(ids(await list('?sort=joinedAt&order=asc'))).toEqual([...expected].reverse());
  });

  it('breaks joinedAt ties by id, the same way in both orders', async () => {
    const same = [await join('read'), await h().user('read'), await h().user('read')];
    const desc = ids(await list());
    const asc = ids(await list('?order=asc'));
    expect(asc).toEqual([...desc].reverse());
    expect(desc.at(-1)).toBe(h().owner.userId);
    expect(desc.slice(0, 3)).toEqual(same.map((caller) => caller.userId).sort().reverse());
  });

  it('filters by each role, and role=guest lists the members without one', async () => {
    const byRole = await onePerRole();
    const secondAdmin = await join('admin');
    for (const role of ROLES) {
      const response = await list(`?role=${role}`);
      expect(response.status).toBe(200);
      const expected = role === 'admin' ? [secondAdmin.userId, byRole.get('admin')!.userId, h().owner.userId] : [byRole.get(role)!.userId];
      expect(ids(response), role).toEqual(expected);
      expect(response.body.count, role).toBe(expected.length);
      expect(response.body.items.every((item: { role: string }) => item.role === role)).toBe(true);
    }
    const guests = await list('?role=guest');
    expect(ids(guests)).toEqual([byRole.get('guest')!.userId]);
    expect(guests.body.items[0].role).toBeNull();
    expect(guests.body.count).toBe(1);
    expect((await list()).body.count).toBe(9);
  });

  it('searches names and e-mail addresses, case-insensitively', async () => {
    const ann = await join('read', { name: 'Ann Lee', email: 'ann@acme.test' });
    const joanna = await join('edit', { name: 'Joanna Smith', email: 'js@acme.test' });
    const zed = await join('read', { name: 'Zed', email: 'Zed.Hanna@Example.ORG' });
    await join('read', { name: 'Bob', email: 'bob@acme.test' });
    // "ann" is in two names and one e-mail address.
    expect(ids(await list('?search=ANN'))).toEqual([zed.userId, joanna.userId, ann.userId]);
    expect(ids(await list('?search=aNn'))).toEqual([zed.userId, joanna.userId, ann.userId]);
    // Only in an e-mail address, asked for in another case.
    const byEmail = await list(`?search=${encodeURIComponent('ZED.HANNA@EXAMPLE')}`);
    expect(ids(byEmail)).toEqual([zed.userId]);
    expect(ids(await list('?search=example.org'))).toEqual([zed.userId]);
    // Only in a name.
    expect(ids(await list('?search=smith'))).toEqual([joanna.userId]);
    expect(ids(await list(`?search=${encodeURIComponent('lee')}`))).toEqual([ann.userId]);
    // A space inside a name, and nothing.
    expect(ids(await list(`?search=${encodeURIComponent('n l')}`))).toEqual([ann.userId]);
    const none = await list('?search=nobody');
    expect(none.body).toEqual({ items: [], count: 0 });
    // The owner matches its name and its e-mail address.
    expect(ids(await list('?search=olive'))).toEqual([h().owner.userId]);
    expect(ids(await list('?search=owner@'))).toEqual([h().owner.userId]);
    expect((await list('?search=acme.test')).body.count).toBe(4);
  });

  it('combines role, search, order and paging', async () => {
    const a = await join('read', { name: 'Team Alpha' });
    await join('edit', { name: 'Team Beta' });
    const c = await join('read', { name: 'Team Gamma' });
    await join('read', { name: 'Solo' });
    const d = await join('read', { name: 'team delta' });
    const desc = await list('?role=read&search=team');
    expect(ids(desc)).toEqual([d.userId, c.userId, a.userId]);
    expect(desc.body.count).toBe(3);
    const asc = await list('?role=read&search=team&order=asc');
    expect(ids(asc)).toEqual([a.userId, c.userId, d.userId]);
    const first = await list('?role=read&search=TEAM&order=asc&limit=2');
    expect(ids(first)).toEqual([a.userId, c.userId]);
    expect(first.body.count).toBe(3);
    expect(first.body.next.page).toEqual(expect.any(String));
    const second = await list(`?role=read&search=TEAM&order=asc&limit=2&page=${encodeURIComponent(first.body.next.page)}`);
    expect(ids(second)).toEqual([d.userId]);
    expect(second.body.count).toBe(3);
    expect(second.body.next).toBeUndefined();
    expect((await list('?role=edit&search=alpha')).body).toEqual({ items: [], count: 0 });
  });

  it('sort=lastSeenAt lists only members who were seen, by when they were last seen', async () => {
    const a = await join('read', { name: 'Seen A' });
    const b = await join('edit', { name: 'Seen B' });
    const c = await join('read', { name: 'Seen C' });
    await join('read', { name: 'Never Seen' });
    const ping = async (caller: Caller) => {
      h().clock.advance(MINUTE);
      expect((await caller.post(`${org()}/ping`)).status).toBe(200);
    };
    expect((await list('?sort=lastSeenAt')).body).toEqual({ items: [], count: 0 });
    // Seen in an order unlike the joining order; b is seen twice, the second time last.
    await ping(c);
    await ping(b);
    await ping(a);
    await ping(b);
    const seen = await list('?sort=lastSeenAt');
    expect(ids(seen)).toEqual([b.userId, a.userId, c.userId]);
    expect(seen.body.count).toBe(3);
    expect(seen.body.items.map((item: { lastSeenAt: string }) => item.lastSeenAt)).toEqual([
      '2026-03-01T10:08:00.000Z',
      '2026-03-01T10:07:00.000Z',
      '2026-03-01T10:05:00.000Z',
    ]);
    expect(ids(await list('?sort=lastSeenAt&order=asc'))).toEqual([c.userId, a.userId, b.userId]);
    // Combined with the other filters, and through the search path.
    expect(ids(await list('?sort=lastSeenAt&role=read'))).toEqual([a.userId, c.userId]);
    expect((await list('?sort=lastSeenAt&role=read')).body.count).toBe(2);
    expect(ids(await list('?sort=lastSeenAt&search=seen'))).toEqual([b.userId, a.userId, c.userId]);
    expect((await list('?sort=lastSeenAt&search=seen')).body.count).toBe(3);
    expect(ids(await list('?sort=lastSeenAt&search=seen&order=asc&role=read'))).toEqual([c.userId, a.userId]);
    // Paging by lastSeenAt, with and without search.
    expect((await walkPages(h().owner, `${org()}/members?sort=lastSeenAt`, 1)).map((item) => item.id)).toEqual([b.userId, a.userId, c.userId]);
    expect((await walkPages(h().owner, `${org()}/members?sort=lastSeenAt&search=SEEN&order=asc`, 2)).map((item) => item.id)).toEqual([
      c.userId,
      a.userId,
      b.userId,
    ]);
    // The default sort still lists everyone.
    expect((await list()).body.count).toBe(5);
  });

  it('counts every match, not the page', async () => {
    for (let i = 0; i < 6; i++) await join(i % 2 === 0 ? 'read' : 'edit');
    const first = await list('?limit=2');
    expect(first.body.items).toHaveLength(2);
    expect(first.body.count).toBe(7);
    expect(first.body.next).toBeDefined();
    const reads = await list('?limit=1&role=read');
    expect(reads.body.items).toHaveLength(1);
    expect(reads.body.count).toBe(3);
    const exact = await list('?limit=7');
    expect(exact.body.items).toHaveLength(7);
    expect(exact.body.next).toBeUndefined();
    const searched = await list('?limit=1&search=acme.test');
    expect(searched.body.items).toHaveLength(1);
    expect(searched.body.count).toBe(7);
  });

  it('pages 50 members without a limit, up to 1000 with one', async () => {
    const joined = [h().owner.userId];
    for (let i = 0; i < 51; i++) joined.push((await join('read')).userId);
    const first = await list();
    expect(ids(first)).toEqual([...joined].reverse().slice(0, 50));
    expect(first.body.count).toBe(52);
    const second = await list(`?page=${encodeURIComponent(first.body.next.page)}`);
    expect(ids(second)).toEqual([joined[1], joined[0]]);
    expect(second.body.next).toBeUndefined();
    const all = await list('?limit=1000');
    expect(all.body.items).toHaveLength(52);
    expect(all.body.next).toBeUndefined();
  });

  it('walks every member exactly once with limit 2, in the listing order', async () => {
    for (let i = 0; i < 6; i++) await join(ROLES[i]);
    const all = ids(await list('?limit=1000'));
    expect(all).toHaveLength(7);
    const walked = (await walkPages(h().owner, `${org()}/members`, 2)).map((item) => item.id);
    expect(walked).toEqual(all);
    const ascending = (await walkPages(h().owner, `${org()}/members?order=asc`, 2)).map((item) => item.id);
    expect(ascending).toEqual([...all].reverse());
    const searched = (await walkPages(h().owner, `${org()}/members?search=ACME`, 2)).map((item) => item.id);
    expect(searched).toEqual(all);
  });

  it('keeps walking correctly while members join', async () => {
    const before = [h().owner.userId];
    for (let i = 0; i < 4; i++) before.push((await join('read')).userId);
    // Ascending: a member joining during the walk comes after the cursor and is listed at the end.
    const walked: string[] = [];
    let page: string | undefined;
    let newcomer: Caller | undefined;
    do {
      const response = await list(`?order=asc&limit=2${page ? `&page=${encodeURIComponent(page)}` : ''}`);
      expect(response.body.count).toBe(before.length + (newcomer ? 1 : 0));
      walked.push(...ids(response));
      page = response.body.next?.page;
      newcomer ??= await join('read');
    } while (page);
    expect(walked).toEqual([...before, newcomer!.userId]);
    // Descending: the newcomer is before the cursor and not listed; nobody is listed twice or skipped.
    const descending: string[] = [];
    page = undefined;
    let late: Caller | undefined;
    do {
      const response = await list(`?limit=2${page ? `&page=${encodeURIComponent(page)}` : ''}`);
      descending.push(...ids(response));
      page = response.body.next?.page;
      late ??= await join('read');
    } while (page);
    expect(descending).toEqual([...before, newcomer!.userId].reverse());
    expect(descending).not.toContain(late!.userId);
  });

  it('refuses bad query values with a 400 naming the field', async () => {
    const cases: [string, string][] = [
      ['order=up', 'order'],
      ['order=ASC', 'order'],
      ['role=owner', 'role'],
      ['role=Admin', 'role'],
      ['role=', 'role'],
      ['sort=name', 'sort'],
      ['sort=createdAt', 'sort'],
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=2.5', 'limit'],
      ['limit=ten', 'limit'],
      ['page=not-a-cursor', 'page'],
      [`page=${Buffer.from('{"a":1}').toString('base64url')}`, 'page'],
      [`search=${'x'.repeat(513)}`, 'search'],
    ];
    for (const [query, field] of cases) {
      const response = await list(`?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.error.message, query).toMatch(new RegExp(`^${field}: `));
    }
    expect((await list(`?search=${'x'.repeat(512)}`)).status).toBe(200);
    expect((await list('?limit=1000')).status).toBe(200);
  });

  it('hides the members from non-members (404) and from guests (403)', async () => {
    const reader = await join('read');
    const guest = await join(null);
    const stranger = (await h().organization()).owner;
    expect((await list('', stranger)).status).toBe(404);
    expect((await stranger.get(`${org()}/members/${reader.userId}`)).status).toBe(404);
    expect((await stranger.get(`${org()}/members/${stranger.userId}`)).status).toBe(404);
    // A member with a role lists and reads anyone; a guest only itself.
    expect((await list('', reader)).body.count).toBe(3);
    expect((await reader.get(`${org()}/members/${h().owner.userId}`)).status).toBe(200);
    expect((await list('', guest)).status).toBe(403);
    expect((await guest.get(`${org()}/members/${reader.userId}`)).status).toBe(403);
    const self = await guest.get(`${org()}/members/${guest.userId}`);
    expect(self.status).toBe(200);
    expect(self.body.id).toBe(guest.userId);
    // A user who is not a member of this organization is not found in it; nor is an unknown organization.
    expect((await h().owner.get(`${org()}/members/${stranger.userId}`)).status).toBe(404);
    expect((await h().owner.get(`${org()}/members/nobody`)).status).toBe(404);
    expect((await h().owner.get('/v1/orgs/nothing/members')).status).toBe(404);
  });

  it('treats a disabled member as no member: no access, and not an admin that counts', async () => {
    const second = await join('admin');
    expect((await h().owner.patch(`${org()}/members/${h().owner.userId}`, { role: 'read' })).status).toBe(200);
    expect((await second.patch(`${org()}/members/${h().owner.userId}`, { role: 'admin' })).status).toBe(200);
    // Nothing in part 1 disables a member: set the flag in the store.
    await h().platform.store.write(async (tx) => {
      const id = `${h().organizationId}/${second.userId}`;
      await tx.put(TABLES.members, { ...(await tx.get(TABLES.members, id))!, disabled: true });
    });
    expect((await second.get(org())).status).toBe(404);
    expect((await list('', second)).status).toBe(404);
    expect((await second.post(`${org()}/ping`)).status).toBe(404);
    const demote = await h().owner.patch(`${org()}/members/${h().owner.userId}`, { role: 'read' });
    expect(demote.status).toBe(409);
    expect((await h().owner.delete(`${org()}/members/${h().owner.userId}`)).status).toBe(409);
  });

  it('lets only admins change roles (403 for every other role, nothing changed)', async () => {
    const target = await join('read');
    for (const role of NON_ADMIN) {
      const caller = await join(role);
      const response = await caller.patch(`${org()}/members/${target.userId}`, { role: 'create' });
      expect(response.status, String(role)).toBe(403);
      // Not even its own role.
      expect((await caller.patch(`${org()}/members/${caller.userId}`, { role: 'admin' })).status, String(role)).toBe(403);
      expect((await member(caller.userId)).role).toBe(role);
    }
    expect((await member(target.userId)).role).toBe('read');
    const stranger = (await h().organization()).owner;
    expect((await stranger.patch(`${org()}/members/${target.userId}`, { role: 'admin' })).status).toBe(404);
    expect((await member(target.userId)).role).toBe('read');
  });

  it('lets an admin set every role, and null for a guest', async () => {
    const target = await join('read');
    const secondAdmin = await join('admin');
    for (const role of [...ROLES, null, 'read'] as (MemberRole | null)[]) {
      const response = await secondAdmin.patch(`${org()}/members/${target.userId}`, { role });
      expect(response.status, String(role)).toBe(200);
      expect(response.body.id).toBe(target.userId);
      expect(response.body.role).toBe(role);
      expect((await member(target.userId)).role).toBe(role);
    }
    // A guest is listed as one.
    await h().owner.patch(`${org()}/members/${target.userId}`, { role: null });
    expect(ids(await list('?role=guest'))).toEqual([target.userId]);
    expect((await list('', target)).status).toBe(403);
    // No role in the body changes nothing.
    const same = await h().owner.patch(`${org()}/members/${target.userId}`, {});
    expect(same.status).toBe(200);
    expect(same.body.role).toBeNull();
  });

  it('refuses an invalid role with a 400 naming the field, and changes nothing', async () => {
    const target = await join('edit');
    for (const role of ['owner', 'Admin', 'guest', '', 3, true, ['read'], { role: 'read' }]) {
      const response = await h().owner.patch(`${org()}/members/${target.userId}`, { role });
      expect(response.status, JSON.stringify(role)).toBe(400);
      expect(response.body.error.message).toMatch(/^role: /);
    }
    expect((await member(target.userId)).role).toBe('edit');
    expect((await h().owner.patch(`${org()}/members/nobody`, { role: 'read' })).status).toBe(404);
  });

  it('never demotes the last admin (409), but demotes one of two', async () => {
    const ownerPath = `${org()}/members/${h().owner.userId}`;
    for (const role of [...ROLES.slice(1), null]) {
      const response = await h().owner.patch(ownerPath, { role });
      expect(response.status, String(role)).toBe(409);
      expect(response.body.error.message).toMatch(/admin/);
    }
    // Keeping the admin role is no change.
    expect((await h().owner.patch(ownerPath, { role: 'admin' })).status).toBe(200);
    expect((await member(h().owner.userId)).role).toBe('admin');
    const second = await join('read');
    expect((await h().owner.patch(`${org()}/members/${second.userId}`, { role: 'admin' })).status).toBe(200);
    const demoted = await h().owner.patch(ownerPath, { role: 'read' });
    expect(demoted.status).toBe(200);
    expect(demoted.body.role).toBe('read');
    // Now the second is the last admin.
    expect((await second.patch(`${org()}/members/${second.userId}`, { role: 'create' })).status).toBe(409);
    expect((await member(second.userId)).role).toBe('admin');
    expect(ids(await list('?role=admin'))).toEqual([second.userId]);
  });

  it('keeps one admin when 16 admins each give up the role at once, or leave at once', async () => {
    // Each admin changes its own membership, so that no caller loses the right to before its request runs.
    const reader = await join('read');
    const admins = [h().owner, ...(await Promise.all(Array.from({ length: 15 }, () => join('admin'))))];
    const demoted = await Promise.all(admins.map((admin) => admin.patch(`${org()}/members/${admin.userId}`, { role: 'edit' })));
    expect(demoted.map((response) => response.status).sort()).toEqual([...Array.from({ length: 15 }, () => 200), 409]);
    const [kept, ...others] = ids(await list('?role=admin', reader));
    expect(others).toEqual([]);
    const again = [...(await Promise.all(Array.from({ length: 15 }, () => join('admin')))), admins.find((admin) => admin.userId === kept)!];
    const left = await Promise.all(again.map((admin) => admin.delete(`${org()}/members/${admin.userId}`)));
    expect(left.map((response) => response.status).sort()).toEqual([...Array.from({ length: 15 }, () => 204), 409]);
    expect(ids(await list('?role=admin', reader))).toHaveLength(1);
  });

  it('lets only admins remove others (403 for every other role)', async () => {
    const target = await join('read');
    for (const role of NON_ADMIN) {
      const caller = await join(role);
      expect((await caller.delete(`${org()}/members/${target.userId}`)).status, String(role)).toBe(403);
    }
    expect((await member(target.userId)).role).toBe('read');
    expect((await list()).body.count).toBe(8);
    const stranger = (await h().organization()).owner;
    expect((await stranger.delete(`${org()}/members/${target.userId}`)).status).toBe(404);
    expect((await member(target.userId)).role).toBe('read');
  });

  it('removes a member (204): gone from the list, its teams, and the organization', async () => {
    const target = await join('edit');
    const team = await createTeam('Writers');
    expect((await h().owner.put(`${org()}/teams/${team}/members/${target.userId}`, {})).status).toBe(204);
    expect((await h().owner.put(`${org()}/teams/${team}/members/${h().owner.userId}`, {})).status).toBe(204);
    expect((await h().owner.get(`${org()}/teams/${team}`)).body.members).toBe(2);
    const removed = await h().owner.delete(`${org()}/members/${target.userId}`);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect((await h().owner.get(`${org()}/members/${target.userId}`)).status).toBe(404);
    const left = await list();
    expect(ids(left)).toEqual([h().owner.userId]);
    expect(left.body.count).toBe(1);
    expect((await h().owner.get(`${org()}/teams/${team}`)).body.members).toBe(1);
    const teamMembers = await h().owner.get(`${org()}/teams/${team}/members`);
    expect(teamMembers.body.items.map((entry: { organization: { id: string } }) => entry.organization.id)).toEqual([h().owner.userId]);
    // The removed user can no longer read the organization or anything in it.
    expect((await target.get(org())).status).toBe(404);
    expect((await list('', target)).status).toBe(404);
    expect((await target.get(`${org()}/members/${target.userId}`)).status).toBe(404);
    expect((await target.post(`${org()}/ping`)).status).toBe(404);
    expect((await target.get(`${org()}/teams/${team}`)).status).toBe(404);
    // Removing it again, or anyone unknown, is a 404.
    expect((await h().owner.delete(`${org()}/members/${target.userId}`)).status).toBe(404);
    expect((await h().owner.delete(`${org()}/members/nobody`)).status).toBe(404);
  });

  it('lets every member leave, except the last admin (409)', async () => {
    for (const role of NON_ADMIN) {
      const caller = await join(role);
      expect((await caller.delete(`${org()}/members/${caller.userId}`)).status, String(role)).toBe(204);
      expect((await caller.get(org())).status).toBe(404);
    }
    expect((await list()).body.count).toBe(1);
    const last = await h().owner.delete(`${org()}/members/${h().owner.userId}`);
    expect(last.status).toBe(409);
    expect(last.body.error.message).toMatch(/admin/);
    expect((await member(h().owner.userId)).role).toBe('admin');
    // With a second admin, one admin may leave or remove the other; then the rest is the last one.
    const second = await join('admin');
    expect((await second.delete(`${org()}/members/${h().owner.userId}`)).status).toBe(204);
    expect((await second.delete(`${org()}/members/${second.userId}`)).status).toBe(409);
    expect(ids(await list('', second))).toEqual([second.userId]);
  });

  it('ping sets lastSeenAt to now and returns signed visitor claims valid for an hour', async () => {
    const reader = await join('review', { email: 'Rita@Acme.test' });
    h().clock.advance(3 * MINUTE + 250);
    const pingedAt = h().clock.now();
    const response = await reader.post(`${org()}/ping`);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['serviceVisitorClaims']);
    const token: string = response.body.serviceVisitorClaims;
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(jwtPart(token, 0)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const iat = Math.floor(pingedAt.getTime() / 1000);
    expect(jwtPart(token, 1)).toEqual({
      organization: h().organizationId,
      role: 'review',
      email: 'rita@acme.test',
      sub: reader.userId,
      iss: 'docs-platform',
      iat,
      exp: iat + 3600,
    });
    // The signature is the platform's.
    const verified = await h().platform.secrets.verifyVisitorClaims(token, pingedAt);
    expect(verified.sub).toBe(reader.userId);
    await expect(h().platform.secrets.verifyVisitorClaims(token, new Date(pingedAt.getTime() + 3601_000))).rejects.toThrow();
    const tampered = `${token.split('.')[0]}.${Buffer.from(JSON.stringify({ ...jwtPart(token, 1), role: 'admin' })).toString('base64url')}.${token.split('.')[2]}`;
    await expect(h().platform.secrets.verifyVisitorClaims(tampered, pingedAt)).rejects.toThrow();
    // lastSeenAt is the clock's time, for this member only.
    expect((await member(reader.userId)).lastSeenAt).toBe(pingedAt.toISOString());
    expect((await member(h().owner.userId)).lastSeenAt).toBeUndefined();
    h().clock.advance(MINUTE);
    expect((await reader.post(`${org()}/ping`)).status).toBe(200);
    expect((await member(reader.userId)).lastSeenAt).toBe(now());
  });

  it('lets guests ping, carrying a null role, and strangers not (404)', async () => {
    const guest = await join(null);
    const response = await guest.post(`${org()}/ping`);
    expect(response.status).toBe(200);
    expect(jwtPart(response.body.serviceVisitorClaims, 1)).toMatchObject({ role: null, sub: guest.userId, organization: h().organizationId });
    expect((await member(guest.userId)).lastSeenAt).toBe(now());
    const stranger = (await h().organization()).owner;
    expect((await stranger.post(`${org()}/ping`)).status).toBe(404);
    expect((await h().owner.post('/v1/orgs/nothing/ping')).status).toBe(404);
    expect((await list('?sort=lastSeenAt')).body.count).toBe(1);
  });

  it('marks a member as an SSO member (admins only), idempotently', async () => {
    const target = await join('edit');
    const sso = `${org()}/members/${target.userId}/sso`;
    for (const role of NON_ADMIN) {
      const caller = await join(role);
      expect((await caller.post(sso)).status, String(role)).toBe(403);
    }
    expect((await member(target.userId)).sso).toBe(false);
    const stranger = (await h().organization()).owner;
    expect((await stranger.post(sso)).status).toBe(404);
    const marked = await h().owner.post(sso);
    expect(marked.status).toBe(200);
    const before = await member(target.userId);
    expect(marked.body).toEqual(before);
    expect(marked.body).toMatchObject({ object: 'member', id: target.userId, role: 'edit', sso: true });
    const again = await h().owner.post(sso);
    expect(again.status).toBe(200);
    expect(again.body.sso).toBe(true);
    // Only that member.
    expect((await member(h().owner.userId)).sso).toBe(false);
    expect((await h().owner.post(`${org()}/members/nobody/sso`)).status).toBe(404);
    expect((await h().owner.post(`${org()}/members/${stranger.userId}/sso`)).status).toBe(404);
  });
});
