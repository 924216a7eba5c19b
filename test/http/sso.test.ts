import { expect, it } from 'vitest';
import { createFetchHandler } from '../../src/adapters/fetch/index.js';
import { createPlatform } from '../../src/core/platform.js';
import { MAX_SAML_PROVIDERS } from '../../src/core/sso/write.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { expectRefusals, type Refusal } from './bad-input.js';
import { expectSettingsRoleMatrix } from './settings-roles.js';
import { httpSuite, walkPages, type Caller } from './harness.js';

/** The SAML provider and SSO sign-in endpoints: fields, limits, service URLs, who may do what. */

const PROVIDER_KEYS = ['certificate', 'createdAt', 'defaultRole', 'entityID', 'id', 'label', 'object', 'service', 'ssoURL', 'status', 'urls'];
const CERTIFICATE = '-----BEGIN CERTIFICATE-----\nMIIC8DCCAdigAwIBAgIQ\n-----END CERTIFICATE-----';
const CONNECTION = { ssoURL: 'https://idp.example.com/sso/saml', entityID: 'https://idp.example.com/entity', certificate: CERTIFICATE };

httpSuite('sso', (h) => {
  const org = () => `/v1/orgs/${h().organizationId}`;
  const providers = () => `${org()}/saml`;
  const provider = (id: string) => `${org()}/saml/${id}`;

  /** Creates a provider as the owner, one second after the previous one so createdAt orders them. */
  async function create(body: Record<string, unknown>) {
    h().clock.advance(1000);
    const response = await h().owner.post(providers(), body);
    expect(response.status, response.text).toBe(201);
    return response.body;
  }

  async function createTeam(title: string) {
    const response = await h().owner.put(`${org()}/teams`, { title });
    expect(response.status).toBe(201);
    return response.body;
  }

  /** Every provider as the owner sees it, through the list. */
  async function stored(caller: Caller = h().owner) {
    const response = await caller.get(providers());
    expect(response.status).toBe(200);
    return response.body.items;
  }

  /** The service URLs a provider must carry, on the origin the API answered from. */
  function expectedService(body: { id: string; urls: { location: string } }) {
    const origin = new URL(body.urls.location).origin;
    const base = `${origin}/app/saml/${h().organizationId}/${body.id}`;
    return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: base };
  }

  it('creates a provider from a label alone: 201, pending, the organization default role, service URLs, Location', async () => {
    h().clock.advance(60_000);
    const created = await h().owner.post(providers(), { label: 'Okta' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      object: 'saml-provider',
      id: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
      label: 'Okta',
      defaultRole: 'read',
      createdAt: '2026-03-01T10:01:00.000Z',
      status: 'pending',
      service: expectedService(created.body),
      urls: { location: expect.stringMatching(new RegExp(`/v1/orgs/${h().organizationId}/saml/${created.body.id}$`)) },
    });
    expect(created.headers.get('location')).toBe(created.body.urls.location);
    const read = await h().owner.get(provider(created.body.id));
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    // The organization's default role at creation time is the provider's default.
    expect((await h().owner.patch(org(), { defaultRole: 'comment' })).status).toBe(200);
    expect((await create({ label: 'Second' })).defaultRole).toBe('comment');
    expect((await h().owner.get(provider(created.body.id))).body.defaultRole).toBe('read');
  });

  it('creates a complete provider: active, with its default team as a team object and the certificate for admins', async () => {
    const team = await createTeam('SSO people');
    const created = await create({ label: 'Azure AD', ...CONNECTION, defaultTeam: team.id, defaultRole: 'edit' });
    expect(Object.keys(created).sort()).toEqual([...PROVIDER_KEYS, 'defaultTeam'].sort());
    expect(created).toMatchObject({ ...CONNECTION, label: 'Azure AD', defaultRole: 'edit', status: 'active' });
    expect(created.defaultTeam).toEqual(team);
    expect(created.service).toEqual(expectedService(created));
    const guest = await create({ label: 'Guests', defaultRole: null });
    expect(guest.defaultRole).toBeNull();
    expect((await h().owner.get(provider(guest.id))).body.defaultRole).toBeNull();
  });

  it('is active only once it has its sign-in URL, entity id and certificate', async () => {
    const { id } = await create({ label: 'Building' });
    const steps: [Record<string, unknown>, string][] = [
      [{ ssoURL: CONNECTION.ssoURL }, 'pending'],
      [{ entityID: CONNECTION.entityID }, 'pending'],
      [{ certificate: CERTIFICATE }, 'active'],
    ];
    for (const [body, status] of steps) {
      const response = await h().owner.patch(provider(id), body);
      expect(response.status).toBe(200);
      expect(response.body.status).toBe(status);
    }
  });

  it('accepts the limits exactly: label 1 and 30, ssoURL 2048, entityID 1024, certificate 10000 characters', async () => {
    const url = `https://idp.example.com/${'a'.repeat(2048 - 'https://idp.example.com/'.length)}`;
    expect(url).toHaveLength(2048);
    const created = await create({ label: 'x'.repeat(30), ssoURL: url, entityID: 'e'.repeat(1024), certificate: 'c'.repeat(10000) });
    expect(created).toMatchObject({ label: 'x'.repeat(30), ssoURL: url, entityID: 'e'.repeat(1024), certificate: 'c'.repeat(10000) });
    expect((await create({ label: 'y', ssoURL: 'http://idp.internal:8443/saml' })).label).toBe('y');
    expect((await stored()).length).toBe(2);
  });

  it('refuses a bad create with 400 naming the field, and stores nothing', async () => {
    const other = await h().organization();
    const foreignTeam = await other.owner.put(`/v1/orgs/${other.organizationId}/teams`, { title: 'Theirs' });
    const cases: Refusal[] = [
      [{}, /^label: is required$/],
      [{ label: '' }, /^label: must be 1 to 30 characters$/],
      [{ label: 'x'.repeat(31) }, /^label: must be 1 to 30 characters$/],
      [{ label: 5 }, /^label: must be string/],
      [{ label: 'L', ssoURL: 'not a url' }, /^ssoURL: must be an absolute URL$/],
      [{ label: 'L', ssoURL: '/relative/path' }, /^ssoURL: must be an absolute URL$/],
      [{ label: 'L', ssoURL: 'javascript:alert(1)' }, /^ssoURL: must be an http or https URL$/],
      [{ label: 'L', ssoURL: `https://idp.example.com/${'a'.repeat(2025)}` }, /^ssoURL: must be at most 2048 characters$/],
      [{ label: 'L', entityID: '' }, /^entityID: must be 1 to 1024 characters$/],
      [{ label: 'L', entityID: 'e'.repeat(1025) }, /^entityID: must be 1 to 1024 characters$/],
      [{ label: 'L', certificate: '' }, /^certificate: must be 1 to 10000 characters$/],
      [{ label: 'L', certificate: 'c'.repeat(10001) }, /^certificate: must be 1 to 10000 characters$/],
      [{ label: 'L', defaultRole: 'owner' }, /^defaultRole: /],
      [{ label: 'L', defaultTeam: 42 }, /^defaultTeam: /],
      [{ label: 'L', defaultTeam: '' }, /^defaultTeam: /],
      [{ label: 'L', defaultTeam: 'no-such-team' }, /^defaultTeam: no team no-such-team in this organization$/],
      [{ label: 'L', defaultTeam: foreignTeam.body.id }, /^defaultTeam: no team .* in this organization$/],
    ];
    await expectRefusals((body) => h().owner.post(providers(), body), cases);
    expect(await stored()).toEqual([]);
    expect((await h().owner.get(`${org()}/sso`)).body.items).toEqual([]);
  });

  it('lets only admins write; members with a role read providers without the certificate; guests get 403; nothing changes on a refusal', async () => {
    const team = await createTeam('Default');
    const existing = await create({ label: 'Kept', ...CONNECTION, defaultTeam: team.id });
    const { certificate, ...withoutCertificate } = existing;
    expect(certificate).toBe(CERTIFICATE);
    const admin = await h().user('admin');
    h().clock.advance(1000);
    const byAdmin = await admin.post(providers(), { label: 'By admin' });
    expect(byAdmin.status).toBe(201);
    expect((await admin.get(provider(existing.id))).body.certificate).toBe(CERTIFICATE);
    await expectSettingsRoleMatrix(h(), {
      writes: (caller) => [
        () => caller.post(providers(), { label: 'Mine' }),
        () => caller.patch(provider(existing.id), { label: 'Mine' }),
        () => caller.delete(provider(existing.id)),
      ],
      reads: (caller) => [() => caller.get(provider(existing.id)), () => caller.get(providers())],
      checkReads([read, list]) {
        // The team object carries the caller's own team permissions.
        expect(read.body).toEqual({ ...withoutCertificate, defaultTeam: { ...team, permissions: { admin: false, view: true } } });
        expect(list.body.items).toHaveLength(2);
        expect(list.body.items[0]).toEqual(read.body);
        expect(list.text).not.toContain('BEGIN CERTIFICATE');
      },
    });
    const after = await stored();
    expect(after.map((item: any) => item.label)).toEqual(['Kept', 'By admin']);
    expect(after[0]).toEqual(existing);
    expect((await admin.patch(provider(existing.id), { label: 'Renamed' })).status).toBe(200);
    expect((await admin.delete(provider(byAdmin.body.id))).status).toBe(204);
  });

  it('answers 404 to a non-member for every provider endpoint, and for unknown or foreign providers', async () => {
    const created = await create({ label: 'Hidden' });
    const other = await h().organization();
    const stranger = other.owner;
    const attempts = [
      () => stranger.get(providers()),
      () => stranger.post(providers(), { label: 'Mine' }),
      () => stranger.get(provider(created.id)),
      () => stranger.patch(provider(created.id), { label: 'Mine' }),
      () => stranger.delete(provider(created.id)),
    ];
    for (const attempt of attempts) expect((await attempt()).status).toBe(404);
    expect((await h().owner.get('/v1/orgs/no-such-org/saml')).status).toBe(404);
    expect((await h().owner.post('/v1/orgs/no-such-org/saml', { label: 'L' })).status).toBe(404);
    const foreign = await stranger.post(`/v1/orgs/${other.organizationId}/saml`, { label: 'Theirs' });
    for (const id of ['no-such-provider', foreign.body.id]) {
      expect((await h().owner.get(provider(id))).status).toBe(404);
      expect((await h().owner.patch(provider(id), { label: 'Taken' })).status).toBe(404);
      expect((await h().owner.delete(provider(id))).status).toBe(404);
    }
    expect((await stranger.get(`/v1/orgs/${other.organizationId}/saml/${foreign.body.id}`)).body.label).toBe('Theirs');
    expect(await stored()).toEqual([created]);
  });

  it('asks for a token on every endpoint (401)', async () => {
    const created = await create({ label: 'Any' });
    for (const [method, path] of [
      ['GET', providers()],
      ['POST', providers()],
      ['GET', provider(created.id)],
      ['PATCH', provider(created.id)],
      ['DELETE', provider(created.id)],
      ['GET', `${org()}/sso`],
    ]) {
      const response = await h().request(method, path, { body: method === 'GET' || method === 'DELETE' ? undefined : { label: 'X' } });
      expect(response.status, `${method} ${path}`).toBe(401);
    }
    expect(await stored()).toEqual([created]);
  });

  it('updates only the fields given, keeps the others, and removes the default team with null', async () => {
    const first = await createTeam('First');
    const second = await createTeam('Second');
    const created = await create({ label: 'Before', ...CONNECTION, defaultTeam: first.id, defaultRole: 'edit' });
    const renamed = await h().owner.patch(provider(created.id), { label: 'After' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...created, label: 'After' });
    const moved = await h().owner.patch(provider(created.id), { defaultTeam: second.id, defaultRole: null, ssoURL: 'https://other.example.com/x' });
    expect(moved.body).toEqual({ ...created, label: 'After', defaultTeam: second, defaultRole: null, ssoURL: 'https://other.example.com/x' });
    const cleared = await h().owner.patch(provider(created.id), { defaultTeam: null });
    expect(cleared.body).not.toHaveProperty('defaultTeam');
    expect((await h().owner.get(provider(created.id))).body).toEqual(cleared.body);
    const untouched = await h().owner.patch(provider(created.id), {});
    expect(untouched.status).toBe(200);
    expect(untouched.body).toEqual(cleared.body);
    // createdAt and the service URLs never change.
    expect(cleared.body.createdAt).toBe(created.createdAt);
    expect(cleared.body.service).toEqual(created.service);
  });

  it('refuses a bad PATCH with 400 naming the field, and changes nothing', async () => {
    const team = await createTeam('Kept team');
    const created = await create({ label: 'Stable', ...CONNECTION, defaultTeam: team.id });
    const cases: Refusal[] = [
      [{ label: '' }, /^label: must be 1 to 30 characters$/],
      [{ label: 'x'.repeat(31) }, /^label: must be 1 to 30 characters$/],
      [{ label: null }, /^label: /],
      [{ ssoURL: 'ftp://idp.example.com/x' }, /^ssoURL: must be an http or https URL$/],
      [{ ssoURL: null }, /^ssoURL: /],
      [{ entityID: 'e'.repeat(1025) }, /^entityID: /],
      [{ certificate: 'c'.repeat(10001) }, /^certificate: /],
      [{ defaultRole: 'boss' }, /^defaultRole: /],
      [{ label: 'Fine', defaultTeam: 'no-such-team' }, /^defaultTeam: no team no-such-team in this organization$/],
    ];
    await expectRefusals((body) => h().owner.patch(provider(created.id), body), cases);
    expect((await h().owner.get(provider(created.id))).body).toEqual(created);
  });

  it('deletes a provider with 204: then 404, off the list and off the sign-in options', async () => {
    const keep = await create({ label: 'Keep', ...CONNECTION });
    const gone = await create({ label: 'Gone', ...CONNECTION });
    const deleted = await h().owner.delete(provider(gone.id));
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await h().owner.get(provider(gone.id))).status).toBe(404);
    expect((await h().owner.patch(provider(gone.id), { label: 'Back' })).status).toBe(404);
    expect((await h().owner.delete(provider(gone.id))).status).toBe(404);
    expect((await stored()).map((item: any) => item.id)).toEqual([keep.id]);
    expect((await h().owner.get(`${org()}/sso`)).body.items.map((item: any) => item.id)).toEqual([keep.id]);
  });

  it('lists providers oldest first, pages through them, and refuses a bad query', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create({ label: `P${i}` })).id);
    const first = await h().owner.get(`${providers()}?limit=2`);
    expect(first.body.count).toBe(5);
    expect(first.body.items.map((item: any) => item.id)).toEqual(ids.slice(0, 2));
    expect(first.body.next.page).toEqual(expect.any(String));
    for (const limit of [1, 2, 5, 1000]) {
      expect((await walkPages(h().owner, providers(), limit)).map((item) => item.id), `limit ${limit}`).toEqual(ids);
    }
    expect((await h().owner.get(`${providers()}?limit=5`)).body.next).toBeUndefined();
    for (const query of ['limit=0', 'limit=1001', 'limit=x', 'page=garbage']) {
      expect((await h().owner.get(`${providers()}?${query}`)).status, query).toBe(400);
    }
  });

  it(`refuses a provider beyond ${MAX_SAML_PROVIDERS} with 409`, async () => {
    for (let i = 0; i < MAX_SAML_PROVIDERS; i++) await h().owner.post(providers(), { label: `P${i}` });
    const refused = await h().owner.post(providers(), { label: 'One more' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/at most 20 SAML providers/);
    expect((await h().owner.get(providers())).body.count).toBe(MAX_SAML_PROVIDERS);
  });

  it('refuses (409) to delete a team that is a default team, until the provider lets it go', async () => {
    const team = await createTeam('Onboarding');
    const created = await create({ label: 'Okta', defaultTeam: team.id });
    const lead = await h().user('read');
    expect((await h().owner.put(`${org()}/teams/${team.id}/members/${lead.userId}`, { role: 'owner' })).status).toBe(204);
    for (const caller of [h().owner, lead]) {
      const refused = await caller.delete(`${org()}/teams/${team.id}`);
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toContain('Okta');
    }
    expect((await h().owner.get(`${org()}/teams/${team.id}`)).body.members).toBe(1);
    expect((await h().owner.get(provider(created.id))).body.defaultTeam.id).toBe(team.id);
    expect((await h().owner.patch(provider(created.id), { defaultTeam: null })).status).toBe(200);
    expect((await lead.delete(`${org()}/teams/${team.id}`)).status).toBe(204);
  });

  it('lists the sign-in options: active providers only, id, label and start URL, without an envelope', async () => {
    const pending = await create({ label: 'Not ready', ssoURL: CONNECTION.ssoURL });
    const okta = await create({ label: 'Okta', ...CONNECTION });
    const azure = await create({ label: 'Azure', ...CONNECTION, defaultRole: 'edit' });
    const response = await h().owner.get(`${org()}/sso`);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['items']);
    expect(response.body.items).toEqual([
      { id: okta.id, label: 'Okta', startURL: okta.service.startURL },
      { id: azure.id, label: 'Azure', startURL: azure.service.startURL },
    ]);
    expect(response.text).not.toContain('CERTIFICATE');
    await h().owner.patch(provider(pending.id), { entityID: 'x', certificate: 'y' });
    const after = await h().owner.get(`${org()}/sso`);
    expect(after.body.items.map((item: any) => item.id)).toEqual([pending.id, okta.id, azure.id]);
  });

  it('shows the sign-in options to anyone signed in, members or not (SSO is how they join); 404 for an unknown organization', async () => {
    const okta = await create({ label: 'Okta', ...CONNECTION });
    const expected = [{ id: okta.id, label: 'Okta', startURL: okta.service.startURL }];
    const guest = await h().user(null);
    const stranger = (await h().organization()).owner;
    for (const caller of [guest, stranger]) {
      const response = await caller.get(`${org()}/sso`);
      expect(response.status).toBe(200);
      expect(response.body.items).toEqual(expected);
    }
    expect((await stranger.get('/v1/orgs/no-such-org/sso')).status).toBe(404);
  });
});

it('derives the service URLs from the configured public base URL (library and Fetch handler)', async () => {
  const platform = createPlatform({ store: createMemoryStore(), baseUrl: 'https://docs.example.com/', signingKey: 'k' });
  const { organizationId, userId, token } = await platform.initialize({ title: 'Based', email: 'a@based.test' });
  const created = await platform.as(userId).createSamlProvider({ organizationId, label: 'Okta' });
  const base = `https://docs.example.com/app/saml/${organizationId}/${created.id}`;
  expect(created.service).toEqual({ acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: base });
  expect(created.urls.location).toBe(`https://docs.example.com/v1/orgs/${organizationId}/saml/${created.id}`);
  // Over HTTP the configured base wins over the host the request came to.
  const handle = createFetchHandler(platform);
  const response = await handle(
    new Request(`http://127.0.0.1:9/v1/orgs/${organizationId}/saml/${created.id}`, { headers: { authorization: `Bearer ${token}` } }),
  );
  expect((await response.json()).service.acsURL).toBe(`${base}/acs`);
  await platform.close();
});
