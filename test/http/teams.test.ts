import { expect, it } from 'vitest';
import type { MemberRole } from '../../src/core/roles.js';
import { INDEXES, TABLES } from '../../src/core/records.js';
import { httpSuite, walkPages, type Caller } from './harness.js';

/** The team endpoints: fields and counts, filters, order, paging, validation and who may do what. */

const ROLES_BELOW_ADMIN: (MemberRole | null)[] = ['create', 'review', 'edit', 'comment', 'read', null];
const ALL_ROLES: (MemberRole | null)[] = ['admin', ...ROLES_BELOW_ADMIN];
const TEAM_KEYS = ['createdAt', 'id', 'members', 'object', 'permissions', 'spaces', 'title'];

httpSuite('teams', (h) => {
  const org = () => `/v1/orgs/${h().organizationId}`;
  const teams = () => `${org()}/teams`;
  const team = (id: string) => `${org()}/teams/${id}`;

  /** Creates a team as the owner, one second after the previous one so createdAt orders them. */
  async function createTeam(title: string, members?: string[]) {
    h().clock.advance(1000);
    const response = await h().owner.put(teams(), members === undefined ? { title } : { title, members });
    expect(response.status, response.text).toBe(201);
    return response.body as { id: string; title: string; createdAt: string; members: number };
  }

  async function teamCount(caller: Caller = h().owner) {
    const response = await caller.get(teams());
    expect(response.status).toBe(200);
    return response.body.count as number;
  }

  async function memberTeams(userId: string) {
    const response = await h().owner.get(`${org()}/members/${userId}`);
    expect(response.status).toBe(200);
    return response.body.teams as number;
  }

  async function setTeamRole(teamId: string, userId: string, role: 'owner' | 'member') {
    const response = await h().owner.put(`${team(teamId)}/members/${userId}`, { role });
    expect(response.status, response.text).toBe(204);
  }

  it('creates a team with 201 and every field of the Team table, and reads it back', async () => {
    h().clock.advance(60_000);
    const created = await h().owner.put(teams(), { title: 'Writers' });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(TEAM_KEYS);
    expect(created.body).toEqual({
      object: 'team',
      id: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
      title: 'Writers',
      members: 0,
      spaces: 0,
      createdAt: '2026-03-01T10:01:00.000Z',
      permissions: { admin: true, view: true },
    });
    const read = await h().owner.get(team(created.body.id));
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const other = await h().owner.put(teams(), { title: 'Writers' });
    expect(other.body.id).not.toBe(created.body.id);
  });

  it('creates a team with members (ids and e-mails, repeats counted once) as plain members', async () => {
    const a = await h().user('read');
    const b = await h().user(null, { email: 'Bea@Acme.test' });
    const created = await createTeam('Crew', [a.userId, b.userId, a.userId, 'BEA@acme.TEST']);
    expect(created.members).toBe(2);
    const list = await h().owner.get(`${team(created.id)}/members`);
    expect(list.body.count).toBe(2);
    expect(list.body.items.map((entry: any) => [entry.organization.id, entry.team.role]).sort()).toEqual(
      [
        [a.userId, 'member'],
        [b.userId, 'member'],
      ].sort(),
    );
    expect(await memberTeams(a.userId)).toBe(1);
    expect(await memberTeams(b.userId)).toBe(1);
    // The creator is not put in the team.
    expect(await memberTeams(h().owner.userId)).toBe(0);
  });

  it('refuses a bad create with 400 naming the field, and stores nothing', async () => {
    const cases: [unknown, RegExp][] = [
      [{ title: '' }, /^title: must be 1 to 64 characters$/],
      [{ title: 'x'.repeat(65) }, /^title: must be 1 to 64 characters$/],
      [{}, /^title: is required$/],
      [{ title: 7 }, /^title: must be string/],
      [{ title: null }, /^title: /],
      [{ title: 'Ok', members: 'nope' }, /^members: /],
      [{ title: 'Ok', members: [42] }, /^members\.0: /],
      [{ title: 'Ok', members: ['no-such-user'] }, /^members: "no-such-user" is not a member of the organization$/],
    ];
    for (const [body, message] of cases) {
      const response = await h().owner.put(teams(), body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.message).toMatch(message);
    }
    // A valid member next to a bad one: the team is not created and the member joins nothing.
    const member = await h().user('edit');
    const outsider = (await h().organization()).owner;
    for (const bad of [outsider.userId, outsider.email, 'nobody@acme.test']) {
      const response = await h().owner.put(teams(), { title: 'Half', members: [member.userId, bad] });
      expect(response.status).toBe(400);
      expect(response.body.error.message).toContain(JSON.stringify(bad));
      expect(response.body.error.message).toMatch(/^members: /);
    }
    expect(await teamCount()).toBe(0);
    expect(await memberTeams(member.userId)).toBe(0);
  });

  it('accepts titles of exactly 1 and 64 characters', async () => {
    expect((await createTeam('x')).title).toBe('x');
    expect((await createTeam('y'.repeat(64))).title).toBe('y'.repeat(64));
    expect(await teamCount()).toBe(2);
  });

  it('lets only admins create teams', async () => {
    const admin = await h().user('admin');
    expect((await admin.put(teams(), { title: 'By admin' })).status).toBe(201);
    for (const role of ROLES_BELOW_ADMIN) {
      const caller = await h().user(role);
      const response = await caller.put(teams(), { title: `By ${role}` });
      expect(response.status, `role ${role}`).toBe(403);
    }
    expect(await teamCount()).toBe(1);
  });

  it('answers 404 to a non-member for every team endpoint, and for an unknown organization', async () => {
    const id = (await createTeam('Hidden')).id;
    const stranger = (await h().organization()).owner;
    const attempts = [
      () => stranger.get(teams()),
      () => stranger.put(teams(), { title: 'Mine' }),
      () => stranger.get(team(id)),
      () => stranger.patch(team(id), { title: 'Mine' }),
      () => stranger.delete(team(id)),
    ];
    for (const attempt of attempts) expect((await attempt()).status).toBe(404);
    expect((await h().owner.get('/v1/orgs/no-such-org/teams')).status).toBe(404);
    expect((await h().owner.put('/v1/orgs/no-such-org/teams', { title: 'T' })).status).toBe(404);
    const read = await h().owner.get(team(id));
    expect(read.body.title).toBe('Hidden');
    expect(await teamCount()).toBe(1);
  });

  it('answers 404 for an unknown team and for a team of another organization', async () => {
    const other = await h().organization();
    const foreign = await other.owner.put(`/v1/orgs/${other.organizationId}/teams`, { title: 'Theirs' });
    expect(foreign.status).toBe(201);
    for (const id of ['no-such-team', foreign.body.id]) {
      expect((await h().owner.get(team(id))).status).toBe(404);
      expect((await h().owner.patch(team(id), { title: 'Taken' })).status).toBe(404);
      expect((await h().owner.delete(team(id))).status).toBe(404);
    }
    const still = await other.owner.get(`/v1/orgs/${other.organizationId}/teams/${foreign.body.id}`);
    expect(still.body.title).toBe('Theirs');
  });

  it('lists teams oldest first with an exact count', async () => {
    const titles = ['Charlie', 'alpha', 'Bravo', 'delta'];
    const ids = [];
    for (const title of titles) ids.push((await createTeam(title)).id);
    const list = await h().owner.get(teams());
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(4);
    expect(list.body.next).toBeUndefined();
    expect(list.body.items.map((item: any) => item.id)).toEqual(ids);
    expect(list.body.items.map((item: any) => item.title)).toEqual(titles);
    const times = list.body.items.map((item: any) => item.createdAt);
    expect([...times].sort()).toEqual(times);
    expect(new Set(times).size).toBe(4);
    for (const item of list.body.items) expect(Object.keys(item).sort()).toEqual(TEAM_KEYS);
  });

  it('filters by title: a case-insensitive substring, with the count of matches', async () => {
    const writers = await createTeam('Writers');
    const backend = await createTeam('Backend WRITERS');
    await createTeam('Reviewers');
    const ops = await createTeam('ops');
    const titles = async (query: string) => {
      const response = await h().owner.get(`${teams()}?title=${encodeURIComponent(query)}`);
      expect(response.status, response.text).toBe(200);
      expect(response.body.count).toBe(response.body.items.length);
      return response.body.items.map((item: any) => item.id);
    };
    expect(await titles('writer')).toEqual([writers.id, backend.id]);
    expect(await titles('WRITERS')).toEqual([writers.id, backend.id]);
    expect(await titles('end wr')).toEqual([backend.id]);
    expect(await titles('OPS')).toEqual([ops.id]);
    expect(await titles('ers')).toHaveLength(3);
    expect(await titles('Writers ')).toEqual([]);
    expect(await titles('zzz')).toEqual([]);
    expect(await titles('')).toHaveLength(4);
  });

  it('filters by owner: every team for an admin, the owned ones for others, none for a stranger', async () => {
    const lead = await h().user('read');
    const plain = await h().user('edit');
    const admin = await h().user('admin');
    const a = await createTeam('Alpha');
    const b = await createTeam('Beta');
    const c = await createTeam('Gamma');
    await setTeamRole(a.id, lead.userId, 'owner');
    await setTeamRole(c.id, lead.userId, 'owner');
    await setTeamRole(b.id, lead.userId, 'member');
    await setTeamRole(a.id, plain.userId, 'member');
    const owned = async (userId: string, extra = '') => {
      const response = await h().owner.get(`${teams()}?owner=${encodeURIComponent(userId)}${extra}`);
      expect(response.status, response.text).toBe(200);
      expect(response.body.count).toBe(response.body.items.length);
      return response.body.items.map((item: any) => item.id);
    };
    expect(await owned(lead.userId)).toEqual([a.id, c.id]);
    expect(await owned(plain.userId)).toEqual([]);
    expect(await owned(admin.userId)).toEqual([a.id, b.id, c.id]);
    expect(await owned(h().owner.userId)).toEqual([a.id, b.id, c.id]);
    expect(await owned('no-such-user')).toEqual([]);
    const outsider = (await h().organization()).owner;
    expect(await owned(outsider.userId)).toEqual([]);
    expect(await owned(lead.userId, '&title=GAM')).toEqual([c.id]);
    expect(await owned(admin.userId, '&title=ta')).toEqual([b.id]);
    // Demoting the owner takes the team off its list.
    await setTeamRole(a.id, lead.userId, 'member');
    expect(await owned(lead.userId)).toEqual([c.id]);
    // Any member with a role may ask about someone else.
    const response = await plain.get(`${teams()}?owner=${lead.userId}`);
    expect(response.body.items.map((item: any) => item.id)).toEqual([c.id]);
  });

  it('pages through the teams: every team exactly once, in order, with the full count on each page', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await createTeam(i % 2 === 0 ? `Even ${i}` : `Odd ${i}`)).id);
    const first = await h().owner.get(`${teams()}?limit=3`);
    expect(first.body.items).toHaveLength(3);
    expect(first.body.count).toBe(7);
    expect(first.body.next.page).toEqual(expect.any(String));
    const second = await h().owner.get(`${teams()}?limit=3&page=${encodeURIComponent(first.body.next.page)}`);
    expect(second.body.count).toBe(7);
    expect(second.body.items.map((item: any) => item.id)).toEqual(ids.slice(3, 6));
    for (const limit of [1, 2, 3, 7, 1000]) {
      const all = await walkPages(h().owner, teams(), limit);
      expect(all.map((item) => item.id), `limit ${limit}`).toEqual(ids);
    }
    const exact = await h().owner.get(`${teams()}?limit=7`);
    expect(exact.body.next).toBeUndefined();
    const evens = await walkPages(h().owner, `${teams()}?title=even`, 2);
    expect(evens.map((item) => item.id)).toEqual([ids[0], ids[2], ids[4], ids[6]]);
    const page = await h().owner.get(`${teams()}?title=even&limit=2`);
    expect(page.body.count).toBe(4);
  });

  it('refuses a bad query with 400 naming the parameter', async () => {
    await createTeam('Some');
    const cases: [string, RegExp][] = [
      ['limit=0', /^limit: must be at least 1$/],
      ['limit=1001', /^limit: must be at most 1000$/],
      ['limit=two', /^limit: must be a whole number$/],
      ['limit=1.5', /^limit: /],
      ['page=garbage', /^page: /],
      ['page=', /^page: /],
      ['owner=', /^owner: /],
      [`title=${'t'.repeat(65)}`, /^title: /],
    ];
    for (const [query, message] of cases) {
      const response = await h().owner.get(`${teams()}?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.error.message).toMatch(message);
    }
  });

  it('lets every member with a role list teams; guests get 403', async () => {
    await createTeam('Visible');
    for (const role of ALL_ROLES) {
      const caller = await h().user(role);
      const response = await caller.get(teams());
      if (role === null) {
        expect(response.status).toBe(403);
      } else {
        expect(response.status, `role ${role}`).toBe(200);
        expect(response.body.count).toBe(1);
        expect(response.body.items[0].permissions).toEqual({ admin: role === 'admin', view: true });
      }
    }
  });

  it('computes permissions for the caller, and they match what the caller can do', async () => {
    const probe = await createTeam('Probe');
    const cases: { role: MemberRole | null; teamRole?: 'owner' | 'member'; admin: boolean; view: boolean }[] = [
      { role: 'admin', admin: true, view: true },
      ...(['create', 'review', 'edit', 'comment', 'read'] as const).map((role) => ({ role, admin: false, view: true })),
      { role: 'read', teamRole: 'owner', admin: true, view: true },
      { role: 'edit', teamRole: 'member', admin: false, view: true },
      { role: null, admin: false, view: false },
      { role: null, teamRole: 'member', admin: false, view: true },
      { role: null, teamRole: 'owner', admin: true, view: true },
    ];
    let title = 'Probe';
    for (const { role, teamRole, admin, view } of cases) {
      const label = `${role}/${teamRole ?? 'none'}`;
      const caller = await h().user(role);
      if (teamRole) await setTeamRole(probe.id, caller.userId, teamRole);
      const read = await caller.get(team(probe.id));
      expect(read.status, label).toBe(view ? 200 : 403);
      if (view) expect(read.body.permissions, label).toEqual({ admin, view });
      const members = await caller.get(`${team(probe.id)}/members`);
      expect(members.status, label).toBe(view ? 200 : 403);
      const renamed = await caller.patch(team(probe.id), { title: `Probe ${label}` });
      expect(renamed.status, label).toBe(admin ? 200 : 403);
      if (admin) expect(renamed.body.permissions).toEqual({ admin, view });
      const managing = await caller.put(`${team(probe.id)}/members`, {});
      expect(managing.status, label).toBe(admin ? 204 : 403);
      if (admin) title = `Probe ${label}`;
      expect((await h().owner.get(team(probe.id))).body.title, label).toBe(title);
    }
  });

  it('renames a team with PATCH and keeps everything else', async () => {
    const a = await h().user('read');
    const created = await createTeam('Old name', [a.userId]);
    h().clock.advance(5000);
    const renamed = await h().owner.patch(team(created.id), { title: 'New name' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...created, title: 'New name' });
    expect((await h().owner.get(team(created.id))).body).toEqual(renamed.body);
    const list = await h().owner.get(`${teams()}?title=new`);
    expect(list.body.items.map((item: any) => item.id)).toEqual([created.id]);
    expect((await h().owner.get(`${teams()}?title=old`)).body.count).toBe(0);
    expect((await h().owner.patch(team(created.id), { title: 'z'.repeat(64) })).body.title).toBe('z'.repeat(64));
  });

  it('refuses a bad PATCH with 400 naming the field, and changes nothing', async () => {
    const created = await createTeam('Stable');
    const cases: [unknown, RegExp][] = [
      [{ title: '' }, /^title: must be 1 to 64 characters$/],
      [{ title: 'x'.repeat(65) }, /^title: must be 1 to 64 characters$/],
      [{}, /^title: is required$/],
      [{ title: false }, /^title: must be string/],
    ];
    for (const [body, message] of cases) {
      const response = await h().owner.patch(team(created.id), body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.message).toMatch(message);
    }
    expect((await h().owner.get(team(created.id))).body).toEqual(created);
  });

  it('deletes a team with 204: then 404, off the list, and off its members\' team counts', async () => {
    const a = await h().user('read');
    const b = await h().user('edit');
    const keep = await createTeam('Keep', [a.userId]);
    const gone = await createTeam('Gone', [a.userId, b.userId]);
    expect(await memberTeams(a.userId)).toBe(2);
    expect(await memberTeams(b.userId)).toBe(1);
    const deleted = await h().owner.delete(team(gone.id));
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await h().owner.get(team(gone.id))).status).toBe(404);
    expect((await h().owner.get(`${team(gone.id)}/members`)).status).toBe(404);
    expect((await h().owner.delete(team(gone.id))).status).toBe(404);
    expect((await h().owner.patch(team(gone.id), { title: 'Back' })).status).toBe(404);
    const list = await h().owner.get(teams());
    expect(list.body.count).toBe(1);
    expect(list.body.items.map((item: any) => item.id)).toEqual([keep.id]);
    expect(await memberTeams(a.userId)).toBe(1);
    expect(await memberTeams(b.userId)).toBe(0);
    const aTeams = await h().owner.get(`${org()}/members/${a.userId}/teams`);
    expect(aTeams.body.items.map((entry: any) => entry.team.id)).toEqual([keep.id]);
    // The members stay in the organization.
    expect((await h().owner.get(`${org()}/members/${b.userId}`)).status).toBe(200);
    expect((await h().owner.get(team(keep.id))).body.members).toBe(1);
  });

  it('lets admins and the team\'s owners delete it, nobody else', async () => {
    const target = await createTeam('Target');
    for (const role of ROLES_BELOW_ADMIN) {
      const caller = await h().user(role);
      await setTeamRole(target.id, caller.userId, 'member');
      expect((await caller.delete(team(target.id))).status, `role ${role}`).toBe(403);
    }
    expect((await h().owner.get(team(target.id))).body.members).toBe(6);
    const lead = await h().user('comment');
    await setTeamRole(target.id, lead.userId, 'owner');
    expect((await lead.delete(team(target.id))).status).toBe(204);
    expect(await teamCount()).toBe(0);
    const other = await createTeam('Other');
    const admin = await h().user('admin');
    expect((await admin.delete(team(other.id))).status).toBe(204);
  });

  it('counts the spaces granted to the team, and drops the grants with the team', async () => {
    const created = await createTeam('Granted');
    const store = h().platform.store;
    await store.write(async (tx) => {
      for (const n of [1, 2]) {
        await tx.insert(TABLES.spaceGrants, { id: `grant-${n}`, teamId: created.id, spaceId: `space-${n}`, role: 'edit', createdAt: created.createdAt });
      }
      await tx.insert(TABLES.spaceGrants, { id: 'grant-other', teamId: 'another-team', spaceId: 'space-3', role: 'read', createdAt: created.createdAt });
    });
    expect((await h().owner.get(team(created.id))).body.spaces).toBe(2);
    expect((await h().owner.get(teams())).body.items[0].spaces).toBe(2);
    expect((await h().owner.delete(team(created.id))).status).toBe(204);
    const left = await store.read(async (tx) => (await tx.list(TABLES.spaceGrants, { index: INDEXES.spaceGrantsByTeam, value: created.id })).count);
    expect(left).toBe(0);
    expect(await store.read((tx) => tx.get(TABLES.spaceGrants, 'grant-other'))).toBeDefined();
  });

  it('reports ownTeam on the organization for team owners only', async () => {
    const lead = await h().user('read');
    const created = await createTeam('Led');
    const ownTeam = async (caller: Caller) => (await caller.get(org())).body.permissions.ownTeam;
    expect(await ownTeam(lead)).toBe(false);
    await setTeamRole(created.id, lead.userId, 'member');
    expect(await ownTeam(lead)).toBe(false);
    await setTeamRole(created.id, lead.userId, 'owner');
    expect(await ownTeam(lead)).toBe(true);
    await h().owner.delete(team(created.id));
    expect(await ownTeam(lead)).toBe(false);
  });
});
