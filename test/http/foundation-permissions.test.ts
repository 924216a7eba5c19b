import { expect, it } from 'vitest';
import type { MemberRole } from '../../src/core/roles.js';
import { INDEXES, TABLES } from '../../src/core/records.js';
import { httpSuite, type Caller, type Harness, type TestResponse } from './harness.js';

/**
 * Who may do what with the foundation endpoints (Part 1: organizations, invite links, members, teams,
 * team members): every role, a guest and someone outside the organization, each also as the owner of a
 * team, against every endpoint, asserting the exact status of each cell and that a refused request
 * changed nothing stored. The expectations are the "Who may do what" rules of docs/api-notes.md written out below
 * as one row per endpoint; nothing here asks the code under test what is allowed.
 */

/** A caller: an organization role, a guest (no role), or a signed-in user who is not a member. */
type Who = MemberRole | 'guest' | 'outsider';
const WHO: Who[] = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest', 'outsider'];

// The sets of callers of docs/api-notes.md, literally.
const EVERYONE: Who[] = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest', 'outsider'];
const MEMBERS: Who[] = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest'];
const WITH_A_ROLE: Who[] = ['admin', 'create', 'review', 'edit', 'comment', 'read'];
const ADMINS: Who[] = ['admin'];

/** What each request of a row may use: the caller and fresh targets made by the organization's owner. */
interface Fixture {
  caller: Caller;
  /** Another member (role `read`), in `team`. */
  victim: Caller;
  /** A team with `victim` as a member, and the caller as its owner when the caller owns a team. */
  team: string;
  /** An invite link granting `read`. */
  invite: string;
  /** A member who is in no team yet. */
  newcomer: Caller;
}

interface Row {
  /** The route, as the route table writes it (with what the path names). */
  endpoint: string;
  /** Who may: the rule of docs/api-notes.md. Everyone else gets 403 as a member, 404 from outside. */
  allowed: Who[];
  /** The team's owners may too, whatever their organization role ("A team is also managed by its owners"). */
  teamOwners?: true;
  /** The success status. */
  status: number;
  /** For lists that answer everyone: `allowed` says who finds the organization in it. */
  finds?: (response: TestResponse, organizationId: string) => boolean;
  /** For a write, who of the allowed changes something (default: all): joining with a role one has is a no-op. */
  changes?: Who[];
  /** Puts the caller in the team first (leaving a team needs being in it). */
  callerInTeam?: true;
  send(fx: Fixture, org: string): Promise<TestResponse>;
}

const inList = (response: TestResponse, organizationId: string) =>
  (response.body.items ?? response.body.organizations).some((organization: { id: string }) => organization.id === organizationId);

/** The rules of docs/api-notes.md, one row per endpoint of Part 1's foundation. */
const ROWS: Row[] = [
  // Organizations: any member (guests too) views it; only admins change it.
  { endpoint: 'GET /v1/orgs (lists it)', allowed: MEMBERS, status: 200, finds: inList, send: ({ caller }) => caller.get('/v1/orgs') },
  { endpoint: 'GET /v1/orgs/{organizationId}', allowed: MEMBERS, status: 200, send: ({ caller }, org) => caller.get(org) },
  // Any member searches (only the spaces they can read: test/http/search.test.ts).
  { endpoint: 'GET /v1/orgs/{organizationId}/search', allowed: MEMBERS, status: 200, send: ({ caller }, org) => caller.get(`${org}/search?query=guide`) },
  {
    endpoint: 'PATCH /v1/orgs/{organizationId}',
    allowed: ADMINS,
    status: 200,
    send: ({ caller }, org) => caller.patch(org, { title: `Renamed ${caller.userId}` }),
  },
  // Members, or people whose own address is on the domain (the caller here is not): see the last test.
  {
    endpoint: 'GET /v1/email-domains/{emailDomain}/orgs (lists it)',
    allowed: MEMBERS,
    status: 200,
    finds: inList,
    send: ({ caller }) => caller.get('/v1/email-domains/claimed.test/orgs'),
  },
  // Invite links: admins create, list, change and delete them; anyone signed in with the id reads it and joins.
  {
    endpoint: 'POST /v1/orgs/{organizationId}/link-invites',
    allowed: ADMINS,
    status: 201,
    send: ({ caller }, org) => caller.post(`${org}/link-invites`, { role: 'edit' }),
  },
  {
    endpoint: 'GET /v1/orgs/{organizationId}/link-invites',
    allowed: ADMINS,
    status: 200,
    send: ({ caller }, org) => caller.get(`${org}/link-invites`),
  },
  {
    endpoint: 'GET /v1/orgs/{organizationId}/link-invites/{inviteId}',
    allowed: EVERYONE,
    status: 200,
    send: ({ caller, invite }, org) => caller.get(`${org}/link-invites/${invite}`),
  },
  {
    endpoint: 'PATCH /v1/orgs/{organizationId}/link-invites/{inviteId}',
    allowed: ADMINS,
    status: 200,
    send: ({ caller, invite }, org) => caller.patch(`${org}/link-invites/${invite}`, { role: 'edit' }),
  },
  {
    endpoint: 'DELETE /v1/orgs/{organizationId}/link-invites/{inviteId}',
    allowed: ADMINS,
    status: 205,
    send: ({ caller, invite }, org) => caller.delete(`${org}/link-invites/${invite}`),
  },
  {
    endpoint: 'POST /v1/orgs/{organizationId}/invites/{inviteId} (join)',
    allowed: EVERYONE,
    status: 200,
    // The link grants `read`: only who has less is raised (or joins).
    changes: ['guest', 'outsider'],
    send: ({ caller, invite }, org) => caller.post(`${org}/invites/${invite}`),
  },
  // Members: members with a role list and read them; admins change roles, SSO and remove others; anyone leaves.
  {
    endpoint: 'GET /v1/orgs/{organizationId}/members',
    allowed: WITH_A_ROLE,
    status: 200,
    send: ({ caller }, org) => caller.get(`${org}/members`),
  },
  {
    endpoint: 'GET /v1/orgs/{organizationId}/members/{other}',
    allowed: WITH_A_ROLE,
    status: 200,
    send: ({ caller, victim }, org) => caller.get(`${org}/members/${victim.userId}`),
  },
  // README silent on a guest reading itself: the code lets every member see its own membership (as GET /v1/user).
  {
    endpoint: 'GET /v1/orgs/{organizationId}/members/{self}',
    allowed: MEMBERS,
    status: 200,
    send: ({ caller }, org) => caller.get(`${org}/members/${caller.userId}`),
  },
  {
    endpoint: 'PATCH /v1/orgs/{organizationId}/members/{other}',
    allowed: ADMINS,
    status: 200,
    send: ({ caller, victim }, org) => caller.patch(`${org}/members/${victim.userId}`, { role: 'edit' }),
  },
  {
    endpoint: 'DELETE /v1/orgs/{organizationId}/members/{other}',
    allowed: ADMINS,
    status: 204,
    send: ({ caller, victim }, org) => caller.delete(`${org}/members/${victim.userId}`),
  },
  {
    endpoint: 'DELETE /v1/orgs/{organizationId}/members/{self} (leave)',
    allowed: MEMBERS,
    status: 204,
    send: ({ caller }, org) => caller.delete(`${org}/members/${caller.userId}`),
  },
  { endpoint: 'POST /v1/orgs/{organizationId}/ping', allowed: MEMBERS, status: 200, send: ({ caller }, org) => caller.post(`${org}/ping`) },
  {
    endpoint: 'POST /v1/orgs/{organizationId}/members/{other}/sso',
    allowed: ADMINS,
    status: 200,
    send: ({ caller, victim }, org) => caller.post(`${org}/members/${victim.userId}/sso`),
  },
  {
    endpoint: 'GET /v1/orgs/{organizationId}/members/{other}/teams',
    allowed: WITH_A_ROLE,
    status: 200,
    send: ({ caller, victim }, org) => caller.get(`${org}/members/${victim.userId}/teams`),
  },
  // README silent on a guest listing its own teams: the code lets every member list its own.
  {
    endpoint: 'GET /v1/orgs/{organizationId}/members/{self}/teams',
    allowed: MEMBERS,
    status: 200,
    send: ({ caller }, org) => caller.get(`${org}/members/${caller.userId}/teams`),
  },
  // Teams: members with a role list and read them; admins create them; admins and the team's owners manage one.
  {
    endpoint: 'GET /v1/orgs/{organizationId}/teams',
    allowed: WITH_A_ROLE,
    status: 200,
    send: ({ caller }, org) => caller.get(`${org}/teams`),
  },
  {
    endpoint: 'PUT /v1/orgs/{organizationId}/teams',
    allowed: ADMINS,
    status: 201,
    send: ({ caller }, org) => caller.put(`${org}/teams`, { title: 'New team' }),
  },
  {
    endpoint: 'GET /v1/orgs/{organizationId}/teams/{teamId}',
    allowed: WITH_A_ROLE,
    teamOwners: true,
    status: 200,
    send: ({ caller, team }, org) => caller.get(`${org}/teams/${team}`),
  },
  {
    endpoint: 'PATCH /v1/orgs/{organizationId}/teams/{teamId}',
    allowed: ADMINS,
    teamOwners: true,
    status: 200,
    send: ({ caller, team }, org) => caller.patch(`${org}/teams/${team}`, { title: 'Renamed team' }),
  },
  {
    endpoint: 'DELETE /v1/orgs/{organizationId}/teams/{teamId}',
    allowed: ADMINS,
    teamOwners: true,
    status: 204,
    send: ({ caller, team }, org) => caller.delete(`${org}/teams/${team}`),
  },
  // Team members.
  {
    endpoint: 'GET /v1/orgs/{organizationId}/teams/{teamId}/members',
    allowed: WITH_A_ROLE,
    teamOwners: true,
    status: 200,
    send: ({ caller, team }, org) => caller.get(`${org}/teams/${team}/members`),
  },
  {
    endpoint: 'PUT /v1/orgs/{organizationId}/teams/{teamId}/members',
    allowed: ADMINS,
    teamOwners: true,
    status: 204,
    send: ({ caller, team, newcomer }, org) => caller.put(`${org}/teams/${team}/members`, { add: [newcomer.userId] }),
  },
  {
    endpoint: 'PUT /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}',
    allowed: ADMINS,
    teamOwners: true,
    status: 204,
    send: ({ caller, team, newcomer }, org) => caller.put(`${org}/teams/${team}/members/${newcomer.userId}`, {}),
  },
  {
    endpoint: 'DELETE /v1/orgs/{organizationId}/teams/{teamId}/members/{other}',
    allowed: ADMINS,
    teamOwners: true,
    status: 204,
    send: ({ caller, team, victim }, org) => caller.delete(`${org}/teams/${team}/members/${victim.userId}`),
  },
  {
    endpoint: 'DELETE /v1/orgs/{organizationId}/teams/{teamId}/members/{self} (leave)',
    allowed: MEMBERS,
    status: 204,
    callerInTeam: true,
    send: ({ caller, team }, org) => caller.delete(`${org}/teams/${team}/members/${caller.userId}`),
  },
];

/** Everything of the organization the foundation endpoints can change, read straight from the store. */
async function snapshot(harness: Harness): Promise<unknown> {
  const organizationId = harness.organizationId;
  return harness.platform.store.read(async (tx) => {
    const byOrganization = (table: string, index: (typeof INDEXES)[keyof typeof INDEXES]) =>
      tx.list(table, { index, value: organizationId }).then((result) => result.items);
    const teams = await byOrganization(TABLES.teams, INDEXES.teamsByOrganization);
    const teamMembers = [];
    for (const team of teams) {
      teamMembers.push(...(await tx.list(TABLES.teamMembers, { index: INDEXES.teamMembersByTeam, value: team.id })).items);
    }
    return {
      organization: await tx.get(TABLES.organizations, organizationId),
      domains: (await tx.list(TABLES.organizationDomains, { index: INDEXES.organizationDomainsByDomain, value: 'claimed.test' })).items,
      members: await byOrganization(TABLES.members, INDEXES.membersByOrganization),
      invites: await byOrganization(TABLES.invites, INDEXES.invitesByOrganization),
      teams,
      teamMembers,
    };
  });
}

httpSuite('foundation permissions', (h) => {
  const org = () => `/v1/orgs/${h().organizationId}`;

  /** Invite links on, and a claimed e-mail domain that no caller's own address is on. */
  async function setUp() {
    const response = await h().owner.patch(org(), { inviteLinks: true, emailDomains: ['claimed.test'] });
    expect(response.status, response.text).toBe(200);
  }

  /** A fresh caller and fresh targets for one cell, so that an allowed write never spoils the next cell. */
  async function fixture(who: Who, ownsTeam: boolean, row: Row): Promise<Fixture> {
    const caller = who === 'outsider' ? (await h().organization()).owner : await h().user(who === 'guest' ? null : who);
    const victim = await h().user('read');
    const newcomer = await h().user('read');
    const created = await h().owner.put(`${org()}/teams`, { title: 'Crew', members: [victim.userId] });
    expect(created.status, created.text).toBe(201);
    const team = created.body.id as string;
    // An outsider cannot be put in a team of the organization.
    if (ownsTeam || (row.callerInTeam && who !== 'outsider')) {
      const role = ownsTeam ? 'owner' : 'member';
      expect((await h().owner.put(`${org()}/teams/${team}/members/${caller.userId}`, { role })).status).toBe(204);
    }
    const invite = await h().owner.post(`${org()}/link-invites`, { role: 'read' });
    expect(invite.status, invite.text).toBe(201);
    return { caller, victim, newcomer, team, invite: invite.body.id };
  }

  for (const who of WHO) {
    // An outsider cannot own a team of the organization.
    const variants = who === 'outsider' ? [false] : [false, true];
    it(`every foundation endpoint: ${who}`, async () => {
      await setUp();
      for (const ownsTeam of variants) {
        for (const row of ROWS) {
          const label = `${who}${ownsTeam ? ' (team owner)' : ''} ${row.endpoint}`;
          const allowed = row.allowed.includes(who) || (ownsTeam && row.teamOwners === true);
          const fx = await fixture(who, ownsTeam, row);
          const before = await snapshot(h());
          const response = await row.send(fx, org());
          const after = await snapshot(h());
          if (row.finds) {
            expect(response.status, label).toBe(row.status);
            expect(row.finds(response, h().organizationId), `${label} finds the organization`).toBe(allowed);
            expect(after, `${label} changed nothing`).toEqual(before);
            continue;
          }
          const expected = allowed ? row.status : who === 'outsider' ? 404 : 403;
          expect(response.status, `${label}: ${response.text}`).toBe(expected);
          const read = row.endpoint.startsWith('GET');
          if (!allowed || read) expect(after, `${label} ${read ? 'is a read and' : 'was refused and'} changed nothing`).toEqual(before);
          else if (row.changes === undefined || row.changes.includes(who)) expect(after, `${label} changed something`).not.toEqual(before);
          else expect(after, `${label} had nothing to change`).toEqual(before);
        }
      }
    });
  }

  it('lists the organization for the e-mail domain to an outsider whose own address is on it, and to no other outsider', async () => {
    await setUp();
    const onDomain = (await h().organization({ email: 'someone@claimed.test' })).owner;
    const elsewhere = (await h().organization({ email: 'someone@elsewhere.test' })).owner;
    const found = (caller: Caller) => caller.get('/v1/email-domains/claimed.test/orgs');
    expect(inList(await found(onDomain), h().organizationId)).toBe(true);
    expect(inList(await found(elsewhere), h().organizationId)).toBe(false);
  });
});
