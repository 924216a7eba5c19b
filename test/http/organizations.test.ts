import { expect, it } from 'vitest';
import type { MemberRole } from '../../src/core/roles.js';
import { TABLES } from '../../src/core/records.js';
import { httpSuite, walkPages, type Caller } from './harness.js';

/**
 * The organization endpoints: GET /v1/orgs, GET and PATCH /v1/orgs/{organizationId}, and
 * GET /v1/email-domains/{emailDomain}/orgs. Every field, limit and rule of the seed's Organization
 * table and PATCH row, and the access rules of docs/api-notes.md (404 for non-members, 403 for
 * members without the role).
 */

const START = '2026-03-01T10:00:00.000Z';
const HOUR = 3_600_000;

/** The organization `permissions` each role gets (docs/api-notes.md, "Who may do what"); no team owned. */
const PERMISSIONS: Record<string, Record<string, boolean>> = {
  admin: { view: true, admin: true, ownTeam: false, createContent: true, createOpenAPISpec: true, viewBilling: true, listMembers: true, listTeams: true, listIntegrations: true },
  create: { view: true, admin: false, ownTeam: false, createContent: true, createOpenAPISpec: true, viewBilling: false, listMembers: true, listTeams: true, listIntegrations: true },
  review: { view: true, admin: false, ownTeam: false, createContent: false, createOpenAPISpec: false, viewBilling: false, listMembers: true, listTeams: true, listIntegrations: true },
  edit: { view: true, admin: false, ownTeam: false, createContent: false, createOpenAPISpec: false, viewBilling: false, listMembers: true, listTeams: true, listIntegrations: true },
  comment: { view: true, admin: false, ownTeam: false, createContent: false, createOpenAPISpec: false, viewBilling: false, listMembers: true, listTeams: true, listIntegrations: true },
  read: { view: true, admin: false, ownTeam: false, createContent: false, createOpenAPISpec: false, viewBilling: false, listMembers: true, listTeams: true, listIntegrations: true },
  guest: { view: true, admin: false, ownTeam: false, createContent: false, createOpenAPISpec: false, viewBilling: false, listMembers: false, listTeams: false, listIntegrations: false },
};
const NOTHING = Object.fromEntries(Object.keys(PERMISSIONS.admin).map((key) => [key, false]));
const ROLES: (MemberRole | null)[] = ['admin', 'create', 'review', 'edit', 'comment', 'read', null];
const NON_ADMIN_ROLES: (MemberRole | null)[] = ['create', 'review', 'edit', 'comment', 'read', null];

httpSuite('organizations', (h) => {
  const orgPath = () => `/v1/orgs/${h().organizationId}`;

  /** Makes `caller`'s user a member of a new organization (created at the current clock) with a role. */
  async function secondMembership(caller: Caller, role: MemberRole | null, title = 'Other Org') {
    const other = await h().organization({ title });
    await h().user(role, { organizationId: other.organizationId, email: caller.email });
    return other;
  }

  /** The organization as the owner sees it now. */
  const current = async (path = orgPath(), caller: Caller = h().owner) => (await caller.get(path)).body;

  /** Asserts a PATCH by the owner fails with 400 naming `field`, and that nothing changed. */
  async function rejects(body: unknown, field: string) {
    const before = await current();
    const response = await h().owner.patch(orgPath(), body);
    expect(response.status, JSON.stringify(body)).toBe(400);
    // The message names the field, or a part of it (`emailDomains.0: ...`).
    expect(response.body.error.message).toMatch(new RegExp(`^${field}[.:]`));
    expect(await current()).toEqual(before);
    return response.body.error.message as string;
  }

  // ---------------------------------------------------------------- the Organization object

  it('returns every field of the Organization object with its value', async () => {
    const response = await h().owner.get(orgPath());
    expect(response.status).toBe(200);
    const org = response.body;
    expect(org).toEqual({
      object: 'organization',
      id: h().organizationId,
      title: 'Acme Docs',
      createdAt: START,
      emailDomains: [],
      type: 'business',
      defaultRole: 'read',
      sso: false,
      ai: false,
      inviteLinks: true,
      plan: 'free_2024',
      urls: { location: expect.any(String), app: expect.any(String) },
      trial: { status: 'notapplicable', count: 0 },
      internal_isOnNewTrial: true,
      permissions: PERMISSIONS.admin,
    });
    // Optional fields the organization has no value for are absent, not null.
    for (const field of ['hostname', 'defaultContent', 'useCase', 'communityType', 'customHostname', 'blocked', 'billing']) {
      expect(org, field).not.toHaveProperty(field);
    }
    const location = new URL(org.urls.location);
    expect(location.pathname).toBe(`/v1/orgs/${h().organizationId}`);
    const app = new URL(org.urls.app);
    expect(app.pathname).toContain(h().organizationId);
    expect(org.urls).not.toHaveProperty('logo');
    // urls.location is the API address of the organization: following it gives the same object.
    expect((await h().owner.get(location.pathname)).body).toEqual(org);
  });

  it('gives an organization the creation time of the clock and an id of its own', async () => {
    h().clock.set('2026-05-17T08:30:15.250Z');
    const other = await h().organization({ title: 'Later Org' });
    const org = await current(`/v1/orgs/${other.organizationId}`, other.owner);
    expect(org.createdAt).toBe('2026-05-17T08:30:15.250Z');
    expect(org.title).toBe('Later Org');
    expect(org.id).toBe(other.organizationId);
    expect(org.id).not.toBe(h().organizationId);
    expect(org.id).toMatch(/^[A-Za-z0-9_-]+$/);
    // Creating another organization does not touch the first one.
    expect((await current()).createdAt).toBe(START);
  });

  // ---------------------------------------------------------------- GET /v1/orgs/{organizationId}

  it('shows the organization to every role, with the permissions of that role', async () => {
    for (const role of ROLES) {
      const caller = await h().user(role);
      const response = await caller.get(orgPath());
      expect(response.status, String(role)).toBe(200);
      expect(response.body.id).toBe(h().organizationId);
      expect(response.body.permissions, String(role)).toEqual(PERMISSIONS[role ?? 'guest']);
    }
  });

  it('reports ownTeam for a member who owns a team of the organization', async () => {
    const reader = await h().user('read');
    expect((await current(orgPath(), reader)).permissions.ownTeam).toBe(false);
    const team = await h().owner.put(`${orgPath()}/teams`, { title: 'Writers', members: [reader.userId] });
    expect(team.status).toBe(201);
    expect((await current(orgPath(), reader)).permissions.ownTeam).toBe(false);
    const owner = await h().owner.put(`${orgPath()}/teams/${team.body.id}/members/${reader.userId}`, { role: 'owner' });
    expect(owner.status).toBe(204);
    expect((await current(orgPath(), reader)).permissions).toEqual({ ...PERMISSIONS.read, ownTeam: true });
    // Owning a team grants nothing else.
    expect((await reader.patch(orgPath(), { title: 'Mine now' })).status).toBe(403);
  });

  it('answers 404 to a signed-in user who is not a member, and for an unknown id', async () => {
    const other = await h().organization();
    const response = await other.owner.get(orgPath());
    expect(response.status).toBe(404);
    expect(response.body.error.message).toContain(h().organizationId);
    expect((await h().owner.get(`/v1/orgs/${other.organizationId}`)).status).toBe(404);
    expect((await h().owner.get('/v1/orgs/no-such-org')).status).toBe(404);
  });

  it('answers 404 to a member who left the organization', async () => {
    const editor = await h().user('edit');
    expect((await editor.get(orgPath())).status).toBe(200);
    expect((await editor.delete(`${orgPath()}/members/${editor.userId}`)).status).toBe(204);
    expect((await editor.get(orgPath())).status).toBe(404);
  });

  it('treats a disabled membership as no membership', async () => {
    const editor = await h().user('edit');
    await h().platform.store.write(async (tx) => {
      const id = `${h().organizationId}/${editor.userId}`;
      const member = await tx.get(TABLES.members, id);
      await tx.put(TABLES.members, { ...member!, disabled: true });
    });
    expect((await editor.get(orgPath())).status).toBe(404);
    const list = await editor.get('/v1/orgs');
    expect(list.body).toEqual({ items: [], count: 0 });
  });

  // ---------------------------------------------------------------- GET /v1/orgs

  it('lists only the organizations of the caller', async () => {
    await h().organization({ title: 'Not Mine' });
    const response = await h().owner.get('/v1/orgs');
    expect(response.status).toBe(200);
    expect(response.body.count).toBe(1);
    expect(response.body.items.map((org: any) => org.id)).toEqual([h().organizationId]);
    expect(response.body).not.toHaveProperty('next');
    // The list item is the same object GET returns, permissions included.
    expect(response.body.items[0]).toEqual(await current());
  });

  it('lists every organization a user is a member of, oldest membership first, with its role per organization', async () => {
    h().clock.advance(HOUR);
    const second = await secondMembership(h().owner, 'read', 'Second Org');
    h().clock.advance(HOUR);
    const third = await secondMembership(h().owner, null, 'Third Org');
    const response = await h().owner.get('/v1/orgs');
    expect(response.body.count).toBe(3);
    expect(response.body.items.map((org: any) => org.id)).toEqual([h().organizationId, second.organizationId, third.organizationId]);
    expect(response.body.items.map((org: any) => org.title)).toEqual(['Acme Docs', 'Second Org', 'Third Org']);
    expect(response.body.items.map((org: any) => org.permissions)).toEqual([PERMISSIONS.admin, PERMISSIONS.read, PERMISSIONS.guest]);
    expect(response.body.items.map((org: any) => org.createdAt)).toEqual([
      START,
      new Date(Date.parse(START) + HOUR).toISOString(),
      new Date(Date.parse(START) + 2 * HOUR).toISOString(),
    ]);
    // Each other owner still sees only its own organization.
    const seen = await second.owner.get('/v1/orgs');
    expect(seen.body.count).toBe(1);
    expect(seen.body.items.map((org: any) => org.id)).toEqual([second.organizationId]);
  });

  it('drops an organization from the list when the caller leaves it', async () => {
    const reader = await h().user('read');
    const other = await secondMembership(reader, 'edit');
    expect((await reader.get('/v1/orgs')).body.count).toBe(2);
    expect((await reader.delete(`${orgPath()}/members/${reader.userId}`)).status).toBe(204);
    const after = await reader.get('/v1/orgs');
    expect(after.body.count).toBe(1);
    expect(after.body.items.map((org: any) => org.id)).toEqual([other.organizationId]);
    expect((await reader.delete(`/v1/orgs/${other.organizationId}/members/${reader.userId}`)).status).toBe(204);
    expect((await reader.get('/v1/orgs')).body).toEqual({ items: [], count: 0 });
  });

  it('pages the list: limit 1 walks every organization once, in the order of the full list', async () => {
    for (let i = 0; i < 4; i++) {
      h().clock.advance(1000);
      await secondMembership(h().owner, 'read', `Org ${i}`);
    }
    const full = await h().owner.get('/v1/orgs');
    expect(full.body.count).toBe(5);
    expect(full.body.items).toHaveLength(5);
    for (const limit of [1, 2, 4, 5]) {
      const walked = await walkPages(h().owner, '/v1/orgs', limit);
      expect(walked.map((org) => org.id), `limit ${limit}`).toEqual(full.body.items.map((org: any) => org.id));
    }
    const first = await h().owner.get('/v1/orgs?limit=2');
    expect(first.body.items).toHaveLength(2);
    expect(first.body.count).toBe(5);
    expect(typeof first.body.next.page).toBe('string');
    const second = await h().owner.get(`/v1/orgs?limit=2&page=${encodeURIComponent(first.body.next.page)}`);
    expect(second.body.count).toBe(5);
    expect(second.body.items.map((org: any) => org.id)).toEqual(full.body.items.slice(2, 4).map((org: any) => org.id));
    const exact = await h().owner.get('/v1/orgs?limit=5');
    expect(exact.body.items).toHaveLength(5);
    expect(exact.body).not.toHaveProperty('next');
    expect((await h().owner.get('/v1/orgs?limit=1000')).body.items).toHaveLength(5);
  });

  it('refuses a limit outside 1 to 1000 or not a whole number, naming limit', async () => {
    const cases: [string, string][] = [
      ['0', 'limit: must be at least 1'],
      ['1001', 'limit: must be at most 1000'],
      ['-1', 'limit: must be at least 1'],
      ['1.5', 'limit: must be a whole number'],
      ['ten', 'limit: must be a whole number'],
      ['', 'limit: must be a whole number'],
    ];
    for (const [limit, message] of cases) {
      const response = await h().owner.get(`/v1/orgs?limit=${limit}`);
      expect(response.status, limit).toBe(400);
      expect(response.body.error.message, limit).toBe(message);
    }
    const page = await h().owner.get('/v1/orgs?page=not-a-cursor');
    expect(page.status).toBe(400);
    expect(page.body.error.message).toMatch(/^page:/);
  });

  // ---------------------------------------------------------------- PATCH /v1/orgs/{organizationId}

  it('updates the title within 2 to 255 characters', async () => {
    for (const title of ['Ab', 'x'.repeat(255), 'Acme Documentation']) {
      const response = await h().owner.patch(orgPath(), { title });
      expect(response.status).toBe(200);
      expect(response.body.title).toBe(title);
      expect((await current()).title).toBe(title);
    }
  });

  it('refuses a title that is too short, too long, blank-edged or not a string', async () => {
    expect(await rejects({ title: 'A' }, 'title')).toBe('title: must be 2 to 255 characters');
    expect(await rejects({ title: '' }, 'title')).toBe('title: must be 2 to 255 characters');
    expect(await rejects({ title: 'x'.repeat(256) }, 'title')).toBe('title: must be 2 to 255 characters');
    await rejects({ title: ' Acme' }, 'title');
    await rejects({ title: 'Acme ' }, 'title');
    await rejects({ title: 42 }, 'title');
    await rejects({ title: null }, 'title');
  });

  it('updates the hostname within 3 to 32 characters, and keeps it across other updates', async () => {
    for (const hostname of ['abc', 'a'.repeat(32), 'acme-docs-2']) {
      const response = await h().owner.patch(orgPath(), { hostname });
      expect(response.status, hostname).toBe(200);
      expect(response.body.hostname).toBe(hostname);
    }
    expect((await h().owner.patch(orgPath(), { title: 'Renamed' })).body.hostname).toBe('acme-docs-2');
    // Setting the hostname it already has is not a conflict with itself.
    expect((await h().owner.patch(orgPath(), { hostname: 'acme-docs-2' })).status).toBe(200);
  });

  it('refuses a hostname that is too short, too long or not a DNS label', async () => {
    expect(await rejects({ hostname: 'ab' }, 'hostname')).toBe('hostname: must be 3 to 32 characters');
    expect(await rejects({ hostname: 'a'.repeat(33) }, 'hostname')).toBe('hostname: must be 3 to 32 characters');
    for (const hostname of ['Acme', 'acme docs', '-acme', 'acme-', 'acme.docs', 'ac_me']) {
      await rejects({ hostname }, 'hostname');
    }
    await rejects({ hostname: 123 }, 'hostname');
    await rejects({ hostname: null }, 'hostname');
  });

  it('keeps hostnames unique across organizations: 409, nothing changes, and a freed hostname can be taken', async () => {
    const other = await h().organization();
    const otherPath = `/v1/orgs/${other.organizationId}`;
    expect((await h().owner.patch(orgPath(), { hostname: 'acme' })).status).toBe(200);
    const before = await current(otherPath, other.owner);
    const taken = await other.owner.patch(otherPath, { hostname: 'acme', title: 'Should Not Stick' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toMatch(/^hostname:/);
    expect(await current(otherPath, other.owner)).toEqual(before);
    expect((await current()).hostname).toBe('acme');
    // Once the first organization moves to another hostname, the old one is free.
    expect((await h().owner.patch(orgPath(), { hostname: 'acme-old' })).status).toBe(200);
    const moved = await other.owner.patch(otherPath, { hostname: 'acme' });
    expect(moved.status).toBe(200);
    expect(moved.body.hostname).toBe('acme');
    expect((await h().owner.patch(orgPath(), { hostname: 'acme' })).status).toBe(409);
    expect((await current()).hostname).toBe('acme-old');
  });

  it('updates emailDomains: lower-cased, without duplicates, replaced as a whole, emptied with []', async () => {
    const set = await h().owner.patch(orgPath(), { emailDomains: ['Acme.test', 'acme.test', 'docs.acme.test'] });
    expect(set.status).toBe(200);
    expect(set.body.emailDomains).toEqual(['acme.test', 'docs.acme.test']);
    const replaced = await h().owner.patch(orgPath(), { emailDomains: ['example.org'] });
    expect(replaced.body.emailDomains).toEqual(['example.org']);
    expect((await current()).emailDomains).toEqual(['example.org']);
    const cleared = await h().owner.patch(orgPath(), { emailDomains: [] });
    expect(cleared.body.emailDomains).toEqual([]);
  });

  it('refuses emailDomains that are not a list of domain names, or more than 100', async () => {
    await h().owner.patch(orgPath(), { emailDomains: ['acme.test'] });
    await rejects({ emailDomains: 'acme.test' }, 'emailDomains');
    await rejects({ emailDomains: ['not a domain'] }, 'emailDomains');
    await rejects({ emailDomains: ['acme.test', 'user@acme.test'] }, 'emailDomains');
    await rejects({ emailDomains: ['localhost'] }, 'emailDomains');
    await rejects({ emailDomains: [42] }, 'emailDomains');
    await rejects({ emailDomains: null }, 'emailDomains');
    const many = Array.from({ length: 101 }, (_, i) => `d${i}.test`);
    await rejects({ emailDomains: many }, 'emailDomains');
    expect((await h().owner.patch(orgPath(), { emailDomains: many.slice(0, 100) })).body.emailDomains).toHaveLength(100);
  });

  it('updates defaultRole to every role and to null (guests)', async () => {
    for (const defaultRole of [...ROLES, 'read']) {
      const response = await h().owner.patch(orgPath(), { defaultRole });
      expect(response.status, String(defaultRole)).toBe(200);
      expect(response.body.defaultRole).toBe(defaultRole);
      expect((await current()).defaultRole).toBe(defaultRole);
    }
    await rejects({ defaultRole: 'owner' }, 'defaultRole');
    await rejects({ defaultRole: 'guest' }, 'defaultRole');
    await rejects({ defaultRole: 3 }, 'defaultRole');
  });

  it('sets defaultContent only to a site of the organization, and clears it with null', async () => {
    const other = await h().organization();
    await h().platform.store.write(async (tx) => {
      await tx.insert(TABLES.sites, { id: 'site-here', organizationId: h().organizationId, title: 'Here' });
      await tx.insert(TABLES.sites, { id: 'site-there', organizationId: other.organizationId, title: 'There' });
    });
    const unknown = await rejects({ defaultContent: { type: 'site', site: 'no-such-site' } }, 'defaultContent');
    expect(unknown).toContain('no-such-site');
    await rejects({ defaultContent: { type: 'site', site: 'site-there' } }, 'defaultContent');
    await rejects({ defaultContent: { type: 'space', site: 'site-here' } }, 'defaultContent');
    await rejects({ defaultContent: { type: 'site' } }, 'defaultContent');
    await rejects({ defaultContent: 'site-here' }, 'defaultContent');
    const set = await h().owner.patch(orgPath(), { defaultContent: { type: 'site', site: 'site-here' } });
    expect(set.status).toBe(200);
    expect(set.body.defaultContent).toEqual({ type: 'site', site: 'site-here' });
    expect((await current()).defaultContent).toEqual({ type: 'site', site: 'site-here' });
    // Absent leaves it; null removes it.
    expect((await h().owner.patch(orgPath(), { title: 'Still Here' })).body.defaultContent).toEqual({ type: 'site', site: 'site-here' });
    const cleared = await h().owner.patch(orgPath(), { defaultContent: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).not.toHaveProperty('defaultContent');
    expect(await current()).not.toHaveProperty('defaultContent');
  });

  it('sets the logo (a URL of at most 2048 characters) as urls.logo, and clears it with null', async () => {
    const logo = 'https://cdn.acme.test/logo.png';
    const set = await h().owner.patch(orgPath(), { logo });
    expect(set.status).toBe(200);
    expect(set.body.urls.logo).toBe(logo);
    expect(set.body).not.toHaveProperty('logo');
    const long = `https://cdn.acme.test/${'a'.repeat(2048 - 'https://cdn.acme.test/'.length)}`;
    expect(long).toHaveLength(2048);
    expect((await h().owner.patch(orgPath(), { logo: long })).body.urls.logo).toBe(long);
    await rejects({ logo: `${long}a` }, 'logo');
    await rejects({ logo: 'not a url' }, 'logo');
    await rejects({ logo: 42 }, 'logo');
    const cleared = await h().owner.patch(orgPath(), { logo: null });
    expect(cleared.body.urls).not.toHaveProperty('logo');
    expect((await current()).urls).not.toHaveProperty('logo');
  });

  it('toggles sso, ai and inviteLinks, and refuses values that are not booleans', async () => {
    for (const field of ['sso', 'ai', 'inviteLinks'] as const) {
      const initial = (await current())[field];
      const flipped = await h().owner.patch(orgPath(), { [field]: !initial });
      expect(flipped.status).toBe(200);
      expect(flipped.body[field]).toBe(!initial);
      expect((await current())[field]).toBe(!initial);
      await rejects({ [field]: 'true' }, field);
      await rejects({ [field]: 1 }, field);
      await rejects({ [field]: null }, field);
      expect((await h().owner.patch(orgPath(), { [field]: initial })).body[field]).toBe(initial);
    }
  });

  it('updates several fields at once and leaves every absent field as it was', async () => {
    const before = await current();
    const response = await h().owner.patch(orgPath(), { title: 'Acme Handbook', hostname: 'handbook', ai: true, defaultRole: 'comment' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...before, title: 'Acme Handbook', hostname: 'handbook', ai: true, defaultRole: 'comment' });
    expect(await current()).toEqual(response.body);
  });

  it('does nothing for an empty body, no body, or read-only fields, and answers the organization', async () => {
    const before = await current();
    const empty = await h().owner.patch(orgPath(), {});
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual(before);
    const none = await h().owner.patch(orgPath());
    expect(none.status).toBe(200);
    expect(none.body).toEqual(before);
    const readOnly = await h().owner.patch(orgPath(), { id: 'hijack', createdAt: '2000-01-01T00:00:00.000Z', plan: 'pro_2024', type: 'community', permissions: {} });
    expect(readOnly.status).toBe(200);
    expect(readOnly.body).toEqual(before);
    expect(await current()).toEqual(before);
  });

  it('refuses one bad field of several as a whole: nothing changes', async () => {
    const before = await current();
    const response = await h().owner.patch(orgPath(), { title: 'Good Title', hostname: 'X' });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(/^hostname:/);
    const late = await h().owner.patch(orgPath(), { title: 'Good Title', emailDomains: ['acme.test'], defaultContent: { type: 'site', site: 'missing' } });
    expect(late.status).toBe(400);
    expect(late.body.error.message).toMatch(/^defaultContent:/);
    expect(await current()).toEqual(before);
    // The refused e-mail domain was not claimed either.
    expect((await h().owner.get('/v1/email-domains/acme.test/orgs')).body).toEqual({ organizations: [] });
  });

  it('lets only admins update: 403 for every other role, 404 for non-members, and nothing changes', async () => {
    const before = await current();
    for (const role of NON_ADMIN_ROLES) {
      const caller = await h().user(role);
      const response = await caller.patch(orgPath(), { title: 'Taken Over', inviteLinks: false });
      expect(response.status, String(role)).toBe(403);
      // An empty update is still an update: the role is checked first.
      expect((await caller.patch(orgPath(), {})).status, String(role)).toBe(403);
    }
    const other = await h().organization();
    expect((await other.owner.patch(orgPath(), { title: 'Taken Over' })).status).toBe(404);
    expect((await h().owner.patch('/v1/orgs/no-such-org', { title: 'Nobody' })).status).toBe(404);
    expect(await current()).toEqual(before);
    // A second admin may update.
    const admin = await h().user('admin');
    expect((await admin.patch(orgPath(), { title: 'Co-admin Title' })).body.title).toBe('Co-admin Title');
  });

  it('shows an update to every member, with each member’s own permissions', async () => {
    const reader = await h().user('read');
    await h().owner.patch(orgPath(), { title: 'Seen By All', hostname: 'seen' });
    const seen = await current(orgPath(), reader);
    expect(seen.title).toBe('Seen By All');
    expect(seen.hostname).toBe('seen');
    expect(seen.permissions).toEqual(PERMISSIONS.read);
  });

  // ---------------------------------------------------------------- GET /v1/email-domains/{emailDomain}/orgs

  it('lists the organizations claiming a domain to members and to callers on that domain, never to others', async () => {
    // The harness owner is owner@acme.test.
    const beta = await h().organization({ email: 'boss@beta.test', title: 'Beta' });
    const gamma = await h().organization({ email: 'chief@gamma.test', title: 'Gamma' });
    await h().owner.patch(orgPath(), { emailDomains: ['acme.test', 'shared.test'] });
    await beta.owner.patch(`/v1/orgs/${beta.organizationId}`, { emailDomains: ['shared.test', 'beta.test'] });
    await gamma.owner.patch(`/v1/orgs/${gamma.organizationId}`, { emailDomains: ['gamma.test'] });

    const ids = (response: any) => response.body.organizations.map((org: any) => org.id).sort();

    // Members see the organizations they belong to.
    const shared = await h().owner.get('/v1/email-domains/shared.test/orgs');
    expect(shared.status).toBe(200);
    expect(Object.keys(shared.body)).toEqual(['organizations']);
    expect(ids(shared)).toEqual([h().organizationId]);
    expect(ids(await beta.owner.get('/v1/email-domains/shared.test/orgs'))).toEqual([beta.organizationId]);

    // Someone whose own address is on the domain sees every organization claiming it.
    const onShared = await h().user('read', { email: 'someone@shared.test' });
    expect(ids(await onShared.get('/v1/email-domains/shared.test/orgs'))).toEqual([h().organizationId, beta.organizationId].sort());
    const outsider = await h().organization({ email: 'new@shared.test' });
    const found = await outsider.owner.get('/v1/email-domains/shared.test/orgs');
    expect(ids(found)).toEqual([h().organizationId, beta.organizationId].sort());
    // ...but not as a member: no permissions, and the organizations themselves stay 404.
    for (const org of found.body.organizations) expect(org.permissions).toEqual(NOTHING);
    expect((await outsider.owner.get(orgPath())).status).toBe(404);

    // Only the exact domain of the caller's address counts: not a subdomain, not a longer name.
    const subdomain = await h().organization({ email: 'dev@eu.shared.test' });
    expect(ids(await subdomain.owner.get('/v1/email-domains/shared.test/orgs'))).toEqual([]);
    const longer = await h().organization({ email: 'dev@notshared.test' });
    expect(ids(await longer.owner.get('/v1/email-domains/shared.test/orgs'))).toEqual([]);

    // The caller's domain matters only for its own domain.
    expect(ids(await h().owner.get('/v1/email-domains/gamma.test/orgs'))).toEqual([]);
    expect(ids(await h().owner.get('/v1/email-domains/beta.test/orgs'))).toEqual([]);
    expect(ids(await gamma.owner.get('/v1/email-domains/gamma.test/orgs'))).toEqual([gamma.organizationId]);
  });

  it('shows the full organization object with the member’s permissions', async () => {
    await h().owner.patch(orgPath(), { emailDomains: ['acme.test'] });
    const reader = await h().user('read', { email: 'reader@elsewhere.test' });
    const response = await reader.get('/v1/email-domains/acme.test/orgs');
    expect(response.body.organizations).toEqual([await current(orgPath(), reader)]);
    expect(response.body.organizations[0].permissions).toEqual(PERMISSIONS.read);
  });

  it('answers an empty list for a domain nobody claims, and matches the domain case-insensitively', async () => {
    expect((await h().owner.get('/v1/email-domains/acme.test/orgs')).body).toEqual({ organizations: [] });
    expect((await h().owner.get('/v1/email-domains/nobody.test/orgs')).body).toEqual({ organizations: [] });
    await h().owner.patch(orgPath(), { emailDomains: ['acme.test'] });
    const upper = await h().owner.get('/v1/email-domains/ACME.Test/orgs');
    expect(upper.body.organizations.map((org: any) => org.id)).toEqual([h().organizationId]);
  });

  it('follows changes of emailDomains: a removed domain no longer lists the organization', async () => {
    await h().owner.patch(orgPath(), { emailDomains: ['acme.test', 'old.test'] });
    expect((await h().owner.get('/v1/email-domains/old.test/orgs')).body.organizations).toHaveLength(1);
    await h().owner.patch(orgPath(), { emailDomains: ['acme.test'] });
    expect((await h().owner.get('/v1/email-domains/old.test/orgs')).body).toEqual({ organizations: [] });
    expect((await h().owner.get('/v1/email-domains/acme.test/orgs')).body.organizations).toHaveLength(1);
    await h().owner.patch(orgPath(), { emailDomains: [] });
    expect((await h().owner.get('/v1/email-domains/acme.test/orgs')).body).toEqual({ organizations: [] });
  });

  it('hides the organizations of a domain from a caller who left them', async () => {
    await h().owner.patch(orgPath(), { emailDomains: ['partner.test'] });
    const reader = await h().user('read', { email: 'reader@elsewhere.test' });
    expect((await reader.get('/v1/email-domains/partner.test/orgs')).body.organizations).toHaveLength(1);
    await reader.delete(`${orgPath()}/members/${reader.userId}`);
    expect((await reader.get('/v1/email-domains/partner.test/orgs')).body).toEqual({ organizations: [] });
  });

  it('refuses something that is not a domain name with 400 naming emailDomain', async () => {
    for (const domain of ['not_a_domain', 'localhost', 'a..b', encodeURIComponent('user@acme.test'), 'x'.repeat(254)]) {
      const response = await h().owner.get(`/v1/email-domains/${domain}/orgs`);
      expect(response.status, domain).toBe(400);
      expect(response.body.error.message, domain).toMatch(/^emailDomain:/);
    }
  });
});
