import { expect, it } from 'vitest';
import type { MemberRole } from '../../src/core/roles.js';
import { httpSuite, walkPages, type Caller } from './harness.js';

/** A team's members: the bulk update, adding and removing one, and the teams of a member. */

const ROLES_BELOW_ADMIN: (MemberRole | null)[] = ['create', 'review', 'edit', 'comment', 'read', null];

httpSuite('team members', (h) => {
  const org = () => `/v1/orgs/${h().organizationId}`;
  const team = (id: string) => `${org()}/teams/${id}`;
  const members = (id: string) => `${org()}/teams/${id}/members`;

  async function createTeam(title: string) {
    h().clock.advance(1000);
    const response = await h().owner.put(`${org()}/teams`, { title });
    expect(response.status, response.text).toBe(201);
    return response.body.id as string;
  }

  /** A bulk update by the owner, one second after the previous request so addedAt orders them. */
  async function bulk(teamId: string, body: unknown, caller: Caller = h().owner) {
    h().clock.advance(1000);
    return caller.put(members(teamId), body);
  }

  async function bulkOk(teamId: string, body: unknown) {
    const response = await bulk(teamId, body);
    expect(response.status, response.text).toBe(204);
    expect(response.text).toBe('');
  }

  /** The team's members as [userId, team role] in list order, checked against team.members. */
  async function roster(teamId: string): Promise<[string, string][]> {
    const response = await h().owner.get(members(teamId));
    expect(response.status).toBe(200);
    expect(response.body.next).toBeUndefined();
    expect(response.body.count).toBe(response.body.items.length);
    const count = (await h().owner.get(team(teamId))).body.members;
    expect(count).toBe(response.body.count);
    return response.body.items.map((entry: any) => [entry.organization.id, entry.team.role]);
  }

  async function teamsOf(userId: string) {
    const response = await h().owner.get(`${org()}/members/${userId}`);
    expect(response.status).toBe(200);
    return response.body.teams as number;
  }

  it('lists an empty team as an empty page', async () => {
    const id = await createTeam('Empty');
    const response = await h().owner.get(members(id));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ items: [], count: 0 });
  });

  it('adds by user id and by e-mail in any case; lists members in the order they were added, with every field', async () => {
    const id = await createTeam('Writers');
    const ann = await h().user('edit', { email: 'ann@acme.test', name: 'Ann' });
    const bob = await h().user('read', { email: 'Bob.Smith@Acme.test', name: 'Bob' });
    const cat = await h().user(null, { email: 'cat@acme.test', name: 'Cat' });
    await bulkOk(id, { add: [bob.userId] });
    await bulkOk(id, { add: ['ANN@ACME.TEST'] });
    await bulkOk(id, { add: ['bob.smith@acme.test', 'Cat@Acme.Test'] });
    expect(await roster(id)).toEqual([
      [bob.userId, 'member'],
      [ann.userId, 'member'],
      [cat.userId, 'member'],
    ]);
    const list = await h().owner.get(members(id));
    const first = list.body.items[0];
    expect(Object.keys(first).sort()).toEqual(['organization', 'permissions', 'team']);
    expect(first.permissions).toEqual({ view: true });
    expect(first.team).toEqual({ role: 'member' });
    expect(first.organization).toMatchObject({
      object: 'member',
      id: bob.userId,
      role: 'read',
      teams: 1,
      disabled: false,
      user: { object: 'user', id: bob.userId, displayName: 'Bob', email: 'bob.smith@acme.test' },
    });
    expect(list.body.items[2].organization.role).toBeNull();
    for (const user of [ann, bob, cat]) expect(await teamsOf(user.userId)).toBe(1);
    expect(await teamsOf(h().owner.userId)).toBe(0);
  });

  it('keeps counts exact through adds, removes, role changes and removal from the organization', async () => {
    const a = await createTeam('A');
    const b = await createTeam('B');
    const [u1, u2, u3] = [await h().user('read'), await h().user('edit'), await h().user('comment')];
    const counts = async () => ({
      a: (await h().owner.get(team(a))).body.members,
      b: (await h().owner.get(team(b))).body.members,
      u1: await teamsOf(u1.userId),
      u2: await teamsOf(u2.userId),
      u3: await teamsOf(u3.userId),
    });
    await bulkOk(a, { add: [u1.userId, u2.userId, u3.userId] });
    expect(await counts()).toEqual({ a: 3, b: 0, u1: 1, u2: 1, u3: 1 });
    await bulkOk(b, { add: [u1.userId], memberships: { [u2.userId]: { role: 'owner' } } });
    expect(await counts()).toEqual({ a: 3, b: 2, u1: 2, u2: 2, u3: 1 });
    await bulkOk(a, { add: [u1.userId], remove: [u3.userId] });
    expect(await counts()).toEqual({ a: 2, b: 2, u1: 2, u2: 2, u3: 0 });
    await bulkOk(b, { memberships: { [u1.userId]: { role: 'owner' } } });
    expect(await counts()).toEqual({ a: 2, b: 2, u1: 2, u2: 2, u3: 0 });
    expect((await h().owner.put(`${members(b)}/${u3.userId}`)).status).toBe(204);
    expect(await counts()).toEqual({ a: 2, b: 3, u1: 2, u2: 2, u3: 1 });
    expect((await h().owner.delete(`${members(a)}/${u2.userId}`)).status).toBe(204);
    expect(await counts()).toEqual({ a: 1, b: 3, u1: 2, u2: 1, u3: 1 });
    // Leaving the organization leaves its teams.
    expect((await h().owner.delete(`${org()}/members/${u1.userId}`)).status).toBe(204);
    expect((await h().owner.get(team(a))).body.members).toBe(0);
    expect((await h().owner.get(team(b))).body.members).toBe(2);
    expect(await roster(a)).toEqual([]);
    expect((await roster(b)).map(([userId]) => userId)).toEqual([u2.userId, u3.userId]);
    // Teams listed with their counts agree with each team.
    const list = await h().owner.get(`${org()}/teams`);
    expect(list.body.items.map((item: any) => item.members)).toEqual([0, 2]);
  });

  it('sets team roles with memberships, for members and newcomers; a plain add keeps a role', async () => {
    const id = await createTeam('Roles');
    const [u1, u2, u3] = [await h().user('read'), await h().user('edit'), await h().user(null, { email: 'guest@acme.test' })];
    await bulkOk(id, { add: [u1.userId] });
    await bulkOk(id, { memberships: { [u1.userId]: { role: 'owner' }, [u2.userId]: { role: 'owner' } } });
    await bulkOk(id, { memberships: { 'GUEST@acme.test': { role: 'member' } } });
    expect(await roster(id)).toEqual([
      [u1.userId, 'owner'],
      [u2.userId, 'owner'],
      [u3.userId, 'member'],
    ]);
    await bulkOk(id, { add: [u1.userId, u3.userId] });
    await bulkOk(id, { add: [u2.userId], memberships: { [u2.userId]: { role: 'member' } } });
    expect(await roster(id)).toEqual([
      [u1.userId, 'owner'],
      [u2.userId, 'member'],
      [u3.userId, 'member'],
    ]);
    const entries = await h().owner.get(`${org()}/members/${u1.userId}/teams`);
    expect(entries.body.items).toEqual([{ team: expect.objectContaining({ id, members: 3 }), member: { role: 'owner' } }]);
  });

  it('removes by id and by e-mail; removing someone not in the team changes nothing', async () => {
    const id = await createTeam('Shrinking');
    const [u1, u2, u3] = [await h().user('read'), await h().user('edit', { email: 'Two@Acme.test' }), await h().user('comment')];
    await bulkOk(id, { add: [u1.userId, u2.userId] });
    await bulkOk(id, { remove: ['TWO@acme.test', u3.userId] });
    expect(await roster(id)).toEqual([[u1.userId, 'member']]);
    await bulkOk(id, { remove: [u1.userId, u1.userId] });
    expect(await roster(id)).toEqual([]);
    expect(await teamsOf(u1.userId)).toBe(0);
  });

  it('removes a user named in both add and remove, however each names it', async () => {
    const id = await createTeam('Both');
    const [inTeam, outside, roled, mixed] = [
      await h().user('read'),
      await h().user('edit'),
      await h().user('comment'),
      await h().user('review', { email: 'mixed@acme.test' }),
    ];
    const keep = await h().user('read');
    await bulkOk(id, { add: [inTeam.userId, roled.userId, mixed.userId, keep.userId] });
    await bulkOk(id, {
      add: [inTeam.userId, outside.userId, 'MIXED@acme.test'],
      remove: [inTeam.userId, outside.email.toUpperCase(), roled.userId, mixed.userId],
      memberships: { [roled.userId]: { role: 'owner' }, [keep.userId]: { role: 'owner' } },
    });
    expect(await roster(id)).toEqual([[keep.userId, 'owner']]);
    for (const user of [inTeam, outside, roled, mixed]) expect(await teamsOf(user.userId)).toBe(0);
  });

  it('accepts an empty update as a no-op', async () => {
    const id = await createTeam('Idle');
    const u1 = await h().user('read');
    await bulkOk(id, { add: [u1.userId] });
    for (const body of [{}, { add: [], remove: [], memberships: {} }, undefined]) await bulkOk(id, body);
    expect(await roster(id)).toEqual([[u1.userId, 'member']]);
  });

  it('refuses a bad entry with 400 naming it and applies nothing of the request', async () => {
    const id = await createTeam('Strict');
    const [inTeam, newcomer] = [await h().user('read'), await h().user('edit')];
    const outsider = (await h().organization({ email: 'out@elsewhere.test' })).owner;
    await bulkOk(id, { add: [inTeam.userId] });
    const before = await roster(id);
    const cases: [unknown, RegExp][] = [
      [{ add: [newcomer.userId, 'no-such-user'], remove: [inTeam.userId] }, /^add: "no-such-user" is not a member of the organization$/],
      [{ add: [newcomer.userId, outsider.userId] }, new RegExp(`^add: "${outsider.userId}" is not a member`)],
      [{ add: [newcomer.userId, 'out@elsewhere.test'] }, /^add: "out@elsewhere.test" is not a member/],
      [{ add: ['nobody@acme.test'], remove: [inTeam.userId] }, /^add: "nobody@acme.test" is not a member/],
      [{ add: [newcomer.userId, 'ann@'] }, /^add: "ann@" /],
      [{ add: [newcomer.userId, 'not an e-mail'] }, /^add: "not an e-mail" /],
      [{ add: [newcomer.userId, ''] }, /^add\.1: /],
      [{ add: [newcomer.userId, 5] }, /^add\.1: /],
      [{ add: newcomer.userId }, /^add: /],
      [{ add: [newcomer.userId], remove: [inTeam.userId, 'ghost'] }, /^remove: "ghost" is not a member/],
      [{ add: [newcomer.userId], remove: [outsider.email] }, /^remove: "out@elsewhere.test" is not a member/],
      [{ remove: [inTeam.userId], memberships: { ghost: { role: 'owner' } } }, /^memberships: "ghost" is not a member/],
      [{ memberships: { [newcomer.userId]: { role: 'boss' } } }, new RegExp(`^memberships\\.${newcomer.userId}\\.role: `)],
      [{ memberships: { [newcomer.userId]: {} } }, new RegExp(`^memberships\\.${newcomer.userId}\\.role: is required$`)],
      [{ memberships: [newcomer.userId] }, /^memberships\b/],
      [{ memberships: 'owner' }, /^memberships: /],
      [{ remove: [inTeam.userId], memberships: { [newcomer.userId]: 'owner' } }, new RegExp(`^memberships\\.${newcomer.userId}: `)],
    ];
    for (const [body, message] of cases) {
      const response = await bulk(id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.message, JSON.stringify(body)).toMatch(message);
      expect(await roster(id), JSON.stringify(body)).toEqual(before);
    }
    expect(await teamsOf(newcomer.userId)).toBe(0);
    expect(await teamsOf(inTeam.userId)).toBe(1);
  });

  it('refuses a member who left the organization as a bad entry', async () => {
    const id = await createTeam('Leavers');
    const leaver = await h().user('read');
    const stayer = await h().user('read');
    expect((await leaver.delete(`${org()}/members/${leaver.userId}`)).status).toBe(204);
    const response = await bulk(id, { add: [stayer.userId, leaver.email] });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toContain(JSON.stringify(leaver.email));
    expect(await roster(id)).toEqual([]);
  });

  it('lets admins and the team\'s owners change its members; others get 403, strangers 404', async () => {
    const id = await createTeam('Guarded');
    const target = await h().user('read');
    for (const role of ROLES_BELOW_ADMIN) {
      const caller = await h().user(role);
      expect((await bulk(id, { add: [caller.userId, target.userId] }, caller)).status, `role ${role}`).toBe(403);
      expect((await caller.put(`${members(id)}/${target.userId}`, { role: 'owner' })).status, `role ${role}`).toBe(403);
    }
    expect(await roster(id)).toEqual([]);
    const plain = await h().user('create');
    await bulkOk(id, { add: [plain.userId] });
    expect((await bulk(id, { add: [target.userId] }, plain)).status).toBe(403);
    expect((await plain.put(`${members(id)}/${target.userId}`)).status).toBe(403);
    expect((await plain.delete(`${members(id)}/${h().owner.userId}`)).status).toBe(403);
    const lead = await h().user(null);
    await bulkOk(id, { memberships: { [lead.userId]: { role: 'owner' } } });
    expect((await bulk(id, { add: [target.userId], memberships: { [plain.userId]: { role: 'owner' } } }, lead)).status).toBe(204);
    const admin = await h().user('admin');
    expect((await bulk(id, { remove: [plain.userId] }, admin)).status).toBe(204);
    expect(await roster(id)).toEqual([
      [lead.userId, 'owner'],
      [target.userId, 'member'],
    ]);
    const stranger = (await h().organization()).owner;
    expect((await bulk(id, { add: [target.userId] }, stranger)).status).toBe(404);
    expect((await stranger.get(members(id))).status).toBe(404);
    expect((await stranger.put(`${members(id)}/${target.userId}`)).status).toBe(404);
    expect((await stranger.delete(`${members(id)}/${target.userId}`)).status).toBe(404);
    expect((await bulk('no-such-team', { add: [target.userId] })).status).toBe(404);
    expect((await h().owner.get(members('no-such-team'))).status).toBe(404);
    expect((await h().owner.put(`${members('no-such-team')}/${target.userId}`)).status).toBe(404);
    expect((await h().owner.delete(`${members('no-such-team')}/${target.userId}`)).status).toBe(404);
    expect((await roster(id)).length).toBe(2);
  });

  it('lists members for anyone who can view the team; a guest outside it gets 403', async () => {
    const id = await createTeam('Viewed');
    const guest = await h().user(null);
    const reader = await h().user('read');
    expect((await guest.get(members(id))).status).toBe(403);
    expect((await reader.get(members(id))).status).toBe(200);
    await bulkOk(id, { add: [guest.userId] });
    const seen = await guest.get(members(id));
    expect(seen.status).toBe(200);
    expect(seen.body.items.map((entry: any) => entry.organization.id)).toEqual([guest.userId]);
  });

  it('pages through a team\'s members in the order they were added', async () => {
    const id = await createTeam('Big');
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const user = await h().user('read');
      ids.push(user.userId);
      expect((await h().owner.put(`${members(id)}/${user.userId}`)).status).toBe(204);
      h().clock.advance(1000);
    }
    // Re-adding and re-roling does not move anyone.
    await bulkOk(id, { add: [ids[0]], memberships: { [ids[1]]: { role: 'owner' } } });
    for (const limit of [1, 3, 7, 50]) {
      const all = await walkPages(h().owner, members(id), limit);
      expect(all.map((entry) => entry.organization.id), `limit ${limit}`).toEqual(ids);
    }
    const page = await h().owner.get(`${members(id)}?limit=3`);
    expect(page.body.count).toBe(7);
    expect(page.body.items).toHaveLength(3);
    for (const query of ['limit=0', 'limit=1001', 'limit=x', 'page=garbage']) {
      const response = await h().owner.get(`${members(id)}?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.error.message).toMatch(new RegExp(`^${query.split('=')[0]}: `));
    }
  });

  it('adds one member with PUT, idempotently, and changes its role', async () => {
    const id = await createTeam('One');
    const u1 = await h().user('read', { email: 'one@acme.test' });
    const u2 = await h().user('edit');
    const put = (userId: string, body?: unknown) => h().owner.put(`${members(id)}/${userId}`, body);
    const first = await put(u1.userId);
    expect(first.status).toBe(204);
    expect(first.text).toBe('');
    expect((await put(u1.userId, {})).status).toBe(204);
    expect(await roster(id)).toEqual([[u1.userId, 'member']]);
    expect(await teamsOf(u1.userId)).toBe(1);
    h().clock.advance(1000);
    expect((await put(u2.userId, { role: 'owner' })).status).toBe(204);
    expect((await put(u1.userId, { role: 'owner' })).status).toBe(204);
    expect((await put(u1.userId)).status).toBe(204);
    expect(await roster(id)).toEqual([
      [u1.userId, 'owner'],
      [u2.userId, 'owner'],
    ]);
    expect((await put(u2.userId, { role: 'member' })).status).toBe(204);
    expect(await roster(id)).toEqual([
      [u1.userId, 'owner'],
      [u2.userId, 'member'],
    ]);
    const bad = await put(u2.userId, { role: 'admin' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^role: /);
    const outsider = (await h().organization()).owner;
    for (const userId of ['no-such-user', outsider.userId]) {
      const response = await put(userId);
      expect(response.status).toBe(404);
      expect(response.body.error.message).toContain(userId);
    }
    expect(await roster(id)).toEqual([
      [u1.userId, 'owner'],
      [u2.userId, 'member'],
    ]);
  });

  it('removes one member with DELETE: 204, then 404; 404 for anyone not in the team', async () => {
    const id = await createTeam('Exit');
    const [u1, u2, u3] = [await h().user('read'), await h().user('edit'), await h().user('comment')];
    await bulkOk(id, { add: [u1.userId, u2.userId] });
    const removed = await h().owner.delete(`${members(id)}/${u1.userId}`);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect(await roster(id)).toEqual([[u2.userId, 'member']]);
    expect((await h().owner.delete(`${members(id)}/${u1.userId}`)).status).toBe(404);
    expect((await h().owner.delete(`${members(id)}/${u3.userId}`)).status).toBe(404);
    expect((await h().owner.delete(`${members(id)}/no-such-user`)).status).toBe(404);
    expect(await roster(id)).toEqual([[u2.userId, 'member']]);
    expect(await teamsOf(u1.userId)).toBe(0);
    expect(await teamsOf(u2.userId)).toBe(1);
  });

  it('lets any member leave a team, but only managers remove others', async () => {
    const id = await createTeam('Door');
    const [guest, reader, lead] = [await h().user(null), await h().user('read'), await h().user('comment')];
    await bulkOk(id, { add: [guest.userId, reader.userId], memberships: { [lead.userId]: { role: 'owner' } } });
    expect((await reader.delete(`${members(id)}/${guest.userId}`)).status).toBe(403);
    expect((await guest.delete(`${members(id)}/${reader.userId}`)).status).toBe(403);
    expect((await reader.delete(`${members(id)}/${reader.userId}`)).status).toBe(204);
    expect((await reader.delete(`${members(id)}/${reader.userId}`)).status).toBe(404);
    expect((await guest.delete(`${members(id)}/${guest.userId}`)).status).toBe(204);
    expect(await roster(id)).toEqual([[lead.userId, 'owner']]);
    await bulkOk(id, { add: [reader.userId] });
    expect((await lead.delete(`${members(id)}/${reader.userId}`)).status).toBe(204);
    expect((await lead.delete(`${members(id)}/${lead.userId}`)).status).toBe(204);
    expect(await roster(id)).toEqual([]);
  });

  it('lists a member\'s teams with its role in each, in the order it joined them', async () => {
    const ids = [await createTeam('Docs Writers'), await createTeam('API'), await createTeam('writers-guild')];
    const user = await h().user('read');
    await bulkOk(ids[2], { add: [user.userId] });
    await bulkOk(ids[0], { memberships: { [user.userId]: { role: 'owner' } } });
    await bulkOk(ids[1], { add: [user.userId, h().owner.userId] });
    const path = `${org()}/members/${user.userId}/teams`;
    const list = await h().owner.get(path);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(3);
    expect(list.body.items.map((entry: any) => [entry.team.id, entry.member.role])).toEqual([
      [ids[2], 'member'],
      [ids[0], 'owner'],
      [ids[1], 'member'],
    ]);
    // The title filter keeps that order (the member joined writers-guild before Docs Writers).
    const filtered = await h().owner.get(`${path}?title=WRITERS`);
    expect(filtered.body.items.map((item: any) => item.team.id)).toEqual([ids[2], ids[0]]);
    expect(filtered.body.count).toBe(2);
    const walked = await walkPages(h().owner, `${path}?title=writers`, 1);
    expect(walked.map((item) => item.team.id)).toEqual([ids[2], ids[0]]);
    const entry = list.body.items[2];
    expect(Object.keys(entry).sort()).toEqual(['member', 'team']);
    expect(entry.team).toEqual((await h().owner.get(team(ids[1]))).body);
    expect(entry.team.members).toBe(2);
    // permissions in the entries are the caller's, not the listed member's.
    const own = await user.get(path);
    expect(own.body.items.map((item: any) => item.team.permissions)).toEqual([
      { admin: false, view: true },
      { admin: true, view: true },
      { admin: false, view: true },
    ]);
    expect((await h().owner.get(`${org()}/members/${h().owner.userId}/teams`)).body.count).toBe(1);
    const other = await h().user('edit');
    expect((await h().owner.get(`${org()}/members/${other.userId}/teams`)).body).toEqual({ items: [], count: 0 });
  });

  it('filters a member\'s teams by title, a case-insensitive substring, with count and paging', async () => {
    const user = await h().user('read');
    const titles = ['Docs Writers', 'API', 'writers-guild', 'Reviewers', 'WRITERS room', 'Ops'];
    const ids: string[] = [];
    for (const title of titles) {
      const id = await createTeam(title);
      ids.push(id);
      await bulkOk(id, { add: [user.userId] });
    }
    await createTeam('Writers elsewhere'); // a team the member is not in
    const path = `${org()}/members/${user.userId}/teams`;
    const filtered = async (title: string) => {
      const response = await h().owner.get(`${path}?title=${encodeURIComponent(title)}`);
      expect(response.status).toBe(200);
      expect(response.body.count).toBe(response.body.items.length);
      return response.body.items.map((entry: any) => entry.team.id);
    };
    expect(await filtered('writers')).toEqual([ids[0], ids[2], ids[4]]);
    expect(await filtered('WrItErS')).toEqual([ids[0], ids[2], ids[4]]);
    expect(await filtered('s r')).toEqual([ids[4]]);
    expect(await filtered('CS W')).toEqual([ids[0]]);
    expect(await filtered('api')).toEqual([ids[1]]);
    expect(await filtered('nothing')).toEqual([]);
    const page = await h().owner.get(`${path}?title=ERS&limit=2`);
    expect(page.body.count).toBe(4);
    expect(page.body.items).toHaveLength(2);
    expect(page.body.next).toBeDefined();
    for (const limit of [1, 2, 3, 4]) {
      const all = await walkPages(h().owner, `${path}?title=ers`, limit);
      expect(all.map((entry) => entry.team.id), `limit ${limit}`).toEqual([ids[0], ids[2], ids[3], ids[4]]);
    }
    const everything = await walkPages(h().owner, path, 4);
    expect(everything.map((entry) => entry.team.id)).toEqual(ids);
    // Renaming a team moves it in or out of the filter.
    expect((await h().owner.patch(team(ids[1]), { title: 'API writers' })).status).toBe(200);
    expect(await filtered('writers')).toEqual([ids[0], ids[1], ids[2], ids[4]]);
    for (const query of [`title=${'w'.repeat(65)}`, 'limit=0', 'limit=1001', 'page=garbage']) {
      const response = await h().owner.get(`${path}?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.error.message).toMatch(new RegExp(`^${query.split('=')[0]}: `));
    }
  });

  it('shows a member\'s teams to members with a role and to the member itself; 404 for unknown users', async () => {
    const id = await createTeam('Seen');
    const guest = await h().user(null);
    const reader = await h().user('read');
    await bulkOk(id, { add: [guest.userId, reader.userId] });
    const own = await guest.get(`${org()}/members/${guest.userId}/teams`);
    expect(own.status).toBe(200);
    expect(own.body.items.map((entry: any) => entry.team.id)).toEqual([id]);
    expect(own.body.items[0].team.permissions).toEqual({ admin: false, view: true });
    expect((await guest.get(`${org()}/members/${reader.userId}/teams`)).status).toBe(403);
    expect((await reader.get(`${org()}/members/${guest.userId}/teams`)).status).toBe(200);
    expect((await h().owner.get(`${org()}/members/no-such-user/teams`)).status).toBe(404);
    const outsider = (await h().organization()).owner;
    expect((await h().owner.get(`${org()}/members/${outsider.userId}/teams`)).status).toBe(404);
    expect((await outsider.get(`${org()}/members/${outsider.userId}/teams`)).status).toBe(404);
    expect((await outsider.get(`${org()}/members/${reader.userId}/teams`)).status).toBe(404);
  });
});
