import { expect, it } from 'vitest';
import { MAX_CUSTOM_FIELDS } from '../../src/core/custom-fields/fields.js';
import { CUSTOM_FIELD_TYPES } from '../../src/core/custom-fields/schemas.js';
import { INDEXES, TABLES } from '../../src/core/records.js';
import type { MemberRole } from '../../src/core/roles.js';
import { expectRefusals, type Refusal } from './bad-input.js';
import { expectSettingsRoleMatrix } from './settings-roles.js';
import { httpSuite, walkPages, type Caller, type Harness } from './harness.js';

/** An organization's custom fields: name rules, types, options, limits, order, paging, who may do what. */

const FIELD_KEYS = ['createdAt', 'description', 'id', 'name', 'permissions', 'placeholder', 'title', 'type', 'updatedAt', 'urls'];

httpSuite('custom fields', (h) => {
  const org = () => `/v1/orgs/${h().organizationId}`;
  const fields = () => `${org()}/custom-fields`;
  const field = (name: string) => `${org()}/custom-fields/${encodeURIComponent(name)}`;

  /** Creates a field as the owner, one second after the previous one so createdAt orders them. */
  async function create(body: Record<string, unknown>) {
    h().clock.advance(1000);
    const response = await h().owner.post(fields(), body);
    expect(response.status, response.text).toBe(201);
    return response.body;
  }

  async function stored(caller: Caller = h().owner) {
    const response = await caller.get(`${fields()}?limit=1000`);
    expect(response.status).toBe(200);
    return response.body.items;
  }

  it('creates a field with 201 and every field of the table (empty texts by default), and reads it back by name', async () => {
    h().clock.advance(60_000);
    const created = await h().owner.post(fields(), { name: 'audience', type: 'text' });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(FIELD_KEYS);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
      name: 'audience',
      title: '',
      description: '',
      placeholder: '',
      type: 'text',
      createdAt: '2026-03-01T10:01:00.000Z',
      updatedAt: '2026-03-01T10:01:00.000Z',
      urls: { location: expect.stringMatching(new RegExp(`/v1/orgs/${h().organizationId}/custom-fields/audience$`)) },
      permissions: { view: true, edit: true },
    });
    expect(created.headers.get('location')).toBe(created.body.urls.location);
    const read = await h().owner.get(field('audience'));
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const full = await create({ name: 'tier', type: 'select:single', title: 'Tier', description: 'Plan', placeholder: 'Pick', options: ['free', 'pro'] });
    expect(full).toMatchObject({ name: 'tier', type: 'select:single', title: 'Tier', description: 'Plan', placeholder: 'Pick', options: ['free', 'pro'] });
    expect(Object.keys(full).sort()).toEqual([...FIELD_KEYS, 'options'].sort());
  });

  it('takes every type of the public API, options only for select types', async () => {
    for (const type of CUSTOM_FIELD_TYPES) {
      const select = type.startsWith('select:');
      const created = await create({ name: `f-${type.replace(':', '_')}`, type, ...(select && { options: ['a'] }) });
      expect(created.type).toBe(type);
      expect(created.options).toEqual(select ? ['a'] : undefined);
    }
    expect((await stored()).map((item: any) => item.type)).toEqual([...CUSTOM_FIELD_TYPES]);
  });

  it('accepts the limits exactly: name 1 and 50 characters of a-z 0-9 _ -, title 100, description 200, placeholder 100, 50 options of 40', async () => {
    const options = Array.from({ length: 50 }, (_, i) => `${String(i).padStart(2, '0')}${'o'.repeat(38)}`);
    const created = await create({
      name: 'a'.repeat(50),
      type: 'select:multi',
      title: 't'.repeat(100),
      description: 'd'.repeat(200),
      placeholder: 'p'.repeat(100),
      options,
    });
    expect(created).toMatchObject({ name: 'a'.repeat(50), title: 't'.repeat(100), description: 'd'.repeat(200), placeholder: 'p'.repeat(100), options });
    expect((await create({ name: 'z', type: 'number' })).name).toBe('z');
    expect((await create({ name: 'a_b-c_0-9', type: 'boolean' })).name).toBe('a_b-c_0-9');
    expect((await create({ name: '-', type: 'text', options: undefined })).name).toBe('-');
    expect((await h().owner.get(field('a_b-c_0-9'))).status).toBe(200);
  });

  it('refuses a bad create with 400 naming the field, and stores nothing', async () => {
    const cases: Refusal[] = [
      [{ type: 'text' }, /^name: is required$/],
      [{ name: 'n' }, /^type: is required$/],
      [{ name: '', type: 'text' }, /^name: must be 1 to 50 characters$/],
      [{ name: 'a'.repeat(51), type: 'text' }, /^name: must be 1 to 50 characters$/],
      [{ name: 'Upper', type: 'text' }, /^name: must be lower-case letters, digits, _ and - only$/],
      [{ name: 'with space', type: 'text' }, /^name: must be lower-case letters/],
      [{ name: 'dot.ted', type: 'text' }, /^name: must be lower-case letters/],
      [{ name: 'slash/ed', type: 'text' }, /^name: must be lower-case letters/],
      [{ name: 'ünï', type: 'text' }, /^name: must be lower-case letters/],
      [{ name: 7, type: 'text' }, /^name: must be string/],
      [{ name: 'n', type: 'date' }, /^type: must be .*"select:single".*, not "date"$/],
      [{ name: 'n', type: 'select' }, /^type: /],
      [{ name: 'n', type: 'text', title: 't'.repeat(101) }, /^title: must be at most 100 characters$/],
      [{ name: 'n', type: 'text', description: 'd'.repeat(201) }, /^description: must be at most 200 characters$/],
      [{ name: 'n', type: 'text', placeholder: 'p'.repeat(101) }, /^placeholder: must be at most 100 characters$/],
      [{ name: 'n', type: 'select:single', options: [] }, /^options: must have 1 to 50 options$/],
      [{ name: 'n', type: 'select:single', options: Array.from({ length: 51 }, (_, i) => `o${i}`) }, /^options: must have 1 to 50 options$/],
      [{ name: 'n', type: 'select:single', options: ['ok', ''] }, /^options\.1: must be 1 to 40 characters$/],
      [{ name: 'n', type: 'select:single', options: ['o'.repeat(41)] }, /^options\.0: must be 1 to 40 characters$/],
      [{ name: 'n', type: 'select:single', options: ['a', 'b', 'a'] }, /^options: must not repeat an option$/],
      [{ name: 'n', type: 'select:single', options: 'a' }, /^options: /],
      [{ name: 'n', type: 'select:single' }, /^options: are required for a select:single field$/],
      [{ name: 'n', type: 'select:multi' }, /^options: are required for a select:multi field$/],
      [{ name: 'n', type: 'text', options: ['a'] }, /^options: only select:single and select:multi fields have options, not text$/],
      [{ name: 'n', type: 'tags', options: ['a'] }, /^options: only select/],
    ];
    await expectRefusals((body) => h().owner.post(fields(), body), cases);
    expect(await stored()).toEqual([]);
  });

  it('keeps names unique in an organization (409), but not across organizations', async () => {
    const first = await create({ name: 'owner', type: 'text', title: 'First' });
    const again = await h().owner.post(fields(), { name: 'owner', type: 'number' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('name: a custom field named owner exists in this organization');
    expect(await stored()).toEqual([first]);
    const other = await h().organization();
    const elsewhere = await other.owner.post(`/v1/orgs/${other.organizationId}/custom-fields`, { name: 'owner', type: 'boolean' });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.id).not.toBe(first.id);
    expect((await h().owner.get(field('owner'))).body).toEqual(first);
  });

  it(`refuses a field beyond ${MAX_CUSTOM_FIELDS} with 409`, async () => {
    for (let i = 0; i < MAX_CUSTOM_FIELDS; i++) expect((await h().owner.post(fields(), { name: `f${i}`, type: 'text' })).status).toBe(201);
    const refused = await h().owner.post(fields(), { name: 'one-more', type: 'text' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/at most 100 custom fields/);
    expect((await h().owner.get(fields())).body.count).toBe(MAX_CUSTOM_FIELDS);
    expect((await h().owner.delete(field('f0'))).status).toBe(204);
    expect((await h().owner.post(fields(), { name: 'one-more', type: 'text' })).status).toBe(201);
  });

  it('lets only admins create, change and delete fields; members with a role read with edit: false; guests get 403', async () => {
    const existing = await create({ name: 'kept', type: 'select:single', options: ['x'] });
    const admin = await h().user('admin');
    h().clock.advance(1000);
    expect((await admin.post(fields(), { name: 'by-admin', type: 'text' })).status).toBe(201);
    await expectSettingsRoleMatrix(h(), {
      writes: (caller) => [
        () => caller.post(fields(), { name: 'mine', type: 'text' }),
        () => caller.patch(field('kept'), { title: 'Mine' }),
        () => caller.delete(field('kept')),
      ],
      reads: (caller) => [() => caller.get(field('kept')), () => caller.get(fields())],
      checkReads([read, list]) {
        expect(read.body).toEqual({ ...existing, permissions: { view: true, edit: false } });
        expect(list.body.count).toBe(2);
      },
    });
    const after = await stored();
    expect(after.map((item: any) => item.name)).toEqual(['kept', 'by-admin']);
    expect(after[0]).toEqual(existing);
    expect((await admin.patch(field('kept'), { title: 'Renamed' })).status).toBe(200);
    expect((await admin.delete(field('by-admin'))).status).toBe(204);
  });

  it('answers 404 to a non-member for every field endpoint, and for unknown or foreign fields; 401 without a token', async () => {
    const created = await create({ name: 'hidden', type: 'text' });
    const other = await h().organization();
    const stranger = other.owner;
    const attempts = [
      () => stranger.get(fields()),
      () => stranger.post(fields(), { name: 'mine', type: 'text' }),
      () => stranger.get(field('hidden')),
      () => stranger.patch(field('hidden'), { title: 'Mine' }),
      () => stranger.delete(field('hidden')),
    ];
    for (const attempt of attempts) expect((await attempt()).status).toBe(404);
    expect((await h().owner.get('/v1/orgs/no-such-org/custom-fields')).status).toBe(404);
    expect((await h().owner.post('/v1/orgs/no-such-org/custom-fields', { name: 'n', type: 'text' })).status).toBe(404);
    expect((await stranger.post(`/v1/orgs/${other.organizationId}/custom-fields`, { name: 'theirs', type: 'text' })).status).toBe(201);
    for (const name of ['no-such-field', 'theirs', 'HIDDEN', created.id]) {
      expect((await h().owner.get(field(name))).status, name).toBe(404);
      expect((await h().owner.patch(field(name), { title: 'Taken' })).status, name).toBe(404);
      expect((await h().owner.delete(field(name))).status, name).toBe(404);
    }
    for (const [method, path] of [
      ['GET', fields()],
      ['POST', fields()],
      ['GET', field('hidden')],
      ['PATCH', field('hidden')],
      ['DELETE', field('hidden')],
    ]) {
      const body = method === 'POST' ? { name: 'x', type: 'text' } : method === 'PATCH' ? { title: 'x' } : undefined;
      expect((await h().request(method, path, { body })).status, `${method} ${path}`).toBe(401);
    }
    expect(await stored()).toEqual([created]);
  });

  it('updates title, description, placeholder and options, keeps the rest, and moves updatedAt only on a change', async () => {
    const created = await create({ name: 'stage', type: 'select:single', options: ['draft', 'final'] });
    h().clock.advance(5000);
    const updated = await h().owner.patch(field('stage'), { title: 'Stage', description: 'Where it is', placeholder: 'Choose', options: ['draft', 'review', 'final'] });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({
      ...created,
      title: 'Stage',
      description: 'Where it is',
      placeholder: 'Choose',
      options: ['draft', 'review', 'final'],
      updatedAt: '2026-03-01T10:00:06.000Z',
    });
    expect((await h().owner.get(field('stage'))).body).toEqual(updated.body);
    h().clock.advance(5000);
    const same = await h().owner.patch(field('stage'), { title: 'Stage' });
    expect(same.body).toEqual(updated.body);
    const none = await h().owner.patch(field('stage'), {});
    expect(none.body).toEqual(updated.body);
    const cleared = await h().owner.patch(field('stage'), { title: '', description: '' });
    expect(cleared.body).toMatchObject({ title: '', description: '', placeholder: 'Choose', updatedAt: '2026-03-01T10:00:11.000Z' });
  });

  it('refuses a bad PATCH with 400 naming the field (name and type cannot change), and changes nothing', async () => {
    const created = await create({ name: 'fixed', type: 'select:multi', title: 'Fixed', options: ['a', 'b'] });
    const text = await create({ name: 'plain', type: 'text' });
    h().clock.advance(1000);
    const cases: Refusal<[string, unknown]>[] = [
      [['fixed', { name: 'renamed' }], /^name: cannot be changed after the field is created$/],
      [['fixed', { name: 'fixed' }], /^name: cannot be changed after the field is created$/],
      [['fixed', { type: 'text' }], /^type: cannot be changed after the field is created$/],
      [['fixed', { title: 't'.repeat(101) }], /^title: must be at most 100 characters$/],
      [['fixed', { description: 'd'.repeat(201) }], /^description: must be at most 200 characters$/],
      [['fixed', { placeholder: 'p'.repeat(101) }], /^placeholder: must be at most 100 characters$/],
      [['fixed', { options: [] }], /^options: must have 1 to 50 options$/],
      [['fixed', { options: Array.from({ length: 51 }, (_, i) => `o${i}`) }], /^options: must have 1 to 50 options$/],
      [['fixed', { options: ['a', 'a'] }], /^options: must not repeat an option$/],
      [['fixed', { options: ['o'.repeat(41)] }], /^options\.0: /],
      [['fixed', { title: 'Fine', options: null }], /^options: /],
      [['plain', { options: ['a'] }], /^options: only select:single and select:multi fields have options, not text$/],
      [['plain', { title: 5 }], /^title: must be string/],
    ];
    await expectRefusals(([name, body]) => h().owner.patch(field(name), body), cases);
    expect(await stored()).toEqual([created, text]);
  });

  it('deletes a field with 204: then 404, off the list, and its name can be used again', async () => {
    const keep = await create({ name: 'keep', type: 'text' });
    const gone = await create({ name: 'gone', type: 'number' });
    const deleted = await h().owner.delete(field('gone'));
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await h().owner.get(field('gone'))).status).toBe(404);
    expect((await h().owner.patch(field('gone'), { title: 'Back' })).status).toBe(404);
    expect((await h().owner.delete(field('gone'))).status).toBe(404);
    expect((await stored()).map((item: any) => item.name)).toEqual(['keep']);
    const reborn = await create({ name: 'gone', type: 'boolean' });
    expect(reborn.id).not.toBe(gone.id);
    expect(reborn.type).toBe('boolean');
    expect((await stored()).map((item: any) => item.id)).toEqual([keep.id, reborn.id]);
  });

  it('lists fields oldest first with an exact count, pages through every field once, and refuses a bad query', async () => {
    const names = ['zeta', 'alpha', 'mid', 'beta', 'omega'];
    for (const name of names) await create({ name, type: 'text' });
    const first = await h().owner.get(`${fields()}?limit=2`);
    expect(first.body.count).toBe(5);
    expect(first.body.items.map((item: any) => item.name)).toEqual(names.slice(0, 2));
    for (const limit of [1, 2, 5, 1000]) {
      expect((await walkPages(h().owner, fields(), limit)).map((item) => item.name), `limit ${limit}`).toEqual(names);
    }
    expect((await h().owner.get(`${fields()}?limit=5`)).body.next).toBeUndefined();
    for (const query of ['limit=0', 'limit=1001', 'limit=-1', 'page=garbage']) {
      expect((await h().owner.get(`${fields()}?${query}`)).status, query).toBe(400);
    }
  });
});

/**
 * Spaces for the space-values suite, through the spaces endpoints. No endpoint of the specification
 * grants a space to a team, so `grantSpaceToTeamDirectly` writes that record in the store.
 */
function spaceHelpers(h: () => Harness) {
  return {
    async createSpace(caller: Caller, organizationId = h().organizationId): Promise<string> {
      const response = await caller.post(`/v1/orgs/${organizationId}/spaces`, { title: 'Space' });
      expect(response.status, response.text).toBe(201);
      return response.body.id;
    },
    async patchSpace(spaceId: string, changes: Record<string, unknown>) {
      const response = await h().owner.patch(`/v1/spaces/${spaceId}`, changes);
      expect(response.status, response.text).toBe(200);
    },
    async grantSpaceToTeamDirectly(spaceId: string, teamId: string, role: MemberRole) {
      await h().platform.store.write((tx) => tx.insert(TABLES.spaceGrants, { id: `${spaceId}/${teamId}`, spaceId, teamId, role, createdAt: '2026-03-01T10:00:00.000Z' }));
    },
  };
}

httpSuite('space custom fields', (h) => {
  const { createSpace, patchSpace, grantSpaceToTeamDirectly } = spaceHelpers(h);
  const fields = () => `/v1/orgs/${h().organizationId}/custom-fields`;
  const values = (spaceId: string) => `/v1/spaces/${spaceId}/custom-fields`;

  async function createField(body: Record<string, unknown>) {
    h().clock.advance(1000);
    const response = await h().owner.post(fields(), body);
    expect(response.status, response.text).toBe(201);
    return response.body;
  }

  /** A field of every type, oldest first. */
  async function fieldOfEveryType() {
    return {
      text: await createField({ name: 'owner', type: 'text' }),
      number: await createField({ name: 'priority', type: 'number' }),
      boolean: await createField({ name: 'reviewed', type: 'boolean' }),
      tags: await createField({ name: 'topics', type: 'tags' }),
      single: await createField({ name: 'tier', type: 'select:single', options: ['free', 'pro', 'enterprise'] }),
      multi: await createField({ name: 'platforms', type: 'select:multi', options: ['web', 'ios', 'android'] }),
    };
  }

  /** The space's values by field name, as GET returns them. */
  async function valuesOf(spaceId: string, caller: Caller = h().owner) {
    const response = await caller.get(values(spaceId));
    expect(response.status, response.text).toBe(200);
    return Object.fromEntries(response.body.map((entry: any) => [entry.customField.name, entry.value]));
  }

  async function patch(spaceId: string, body: unknown, caller: Caller = h().owner) {
    return caller.patch(values(spaceId), body);
  }

  it('returns every field of the organization, oldest first, as a bare array; values only where set', async () => {
    const made = await fieldOfEveryType();
    const spaceId = await createSpace(h().owner);
    const empty = await h().owner.get(values(spaceId));
    expect(empty.status).toBe(200);
    expect(Array.isArray(empty.body)).toBe(true);
    expect(empty.body).toEqual(Object.values(made).map((field) => ({ customField: field })));
    const set = await patch(spaceId, { values: { owner: { value: 'Docs team' }, tier: { value: 'pro' } } });
    expect(set.status).toBe(204);
    expect(set.text).toBe('');
    const after = await h().owner.get(values(spaceId));
    expect(after.body).toEqual(
      Object.values(made).map((field) => ({
        customField: field,
        ...(field.name === 'owner' && { value: 'Docs team' }),
        ...(field.name === 'tier' && { value: 'pro' }),
      })),
    );
    expect(after.body.map((entry: any) => Object.keys(entry).sort())).toEqual([
      ['customField', 'value'],
      ['customField'],
      ['customField'],
      ['customField'],
      ['customField', 'value'],
      ['customField'],
    ]);
  });

  it('sets a value of every type, replaces values, removes one with null, and leaves other spaces alone', async () => {
    await fieldOfEveryType();
    const spaceId = await createSpace(h().owner);
    const otherId = await createSpace(h().owner);
    const all = {
      owner: 'x'.repeat(256),
      priority: -2.5,
      reviewed: false,
      topics: ['api', 't'.repeat(256)],
      tier: 'enterprise',
      platforms: ['ios', 'web'],
    };
    const body = { values: Object.fromEntries(Object.entries(all).map(([name, value]) => [name, { value }])) };
    expect((await patch(spaceId, body)).status).toBe(204);
    expect(await valuesOf(spaceId)).toEqual(all);
    expect((await patch(spaceId, { values: { priority: { value: 0 }, reviewed: { value: true }, topics: { value: [] }, owner: { value: '' } } })).status).toBe(204);
    expect(await valuesOf(spaceId)).toEqual({ ...all, priority: 0, reviewed: true, topics: [], owner: '' });
    expect((await patch(spaceId, { values: { tier: { value: null }, platforms: { value: null } } })).status).toBe(204);
    const left = await valuesOf(spaceId);
    expect(left).toEqual({ ...all, priority: 0, reviewed: true, topics: [], owner: '', tier: undefined, platforms: undefined });
    // Removing a value that is not set is a no-op.
    expect((await patch(spaceId, { values: { tier: { value: null } } })).status).toBe(204);
    expect(await valuesOf(spaceId)).toEqual(left);
    expect(Object.values(await valuesOf(otherId)).every((value) => value === undefined)).toBe(true);
    const stored = await h().platform.store.read((tx) => tx.list(TABLES.customFieldValues, { index: INDEXES.customFieldValuesBySpace, value: spaceId }));
    expect(stored.count).toBe(4);
  });

  it('refuses a value that does not fit its field, an unknown field and a malformed body with 400, and changes nothing', async () => {
    await fieldOfEveryType();
    const other = await h().organization();
    expect((await other.owner.post(`/v1/orgs/${other.organizationId}/custom-fields`, { name: 'elsewhere', type: 'text' })).status).toBe(201);
    const spaceId = await createSpace(h().owner);
    const start = { owner: 'Ann', priority: 1, reviewed: true, topics: ['a'], tier: 'free', platforms: ['web'] };
    expect((await patch(spaceId, { values: Object.fromEntries(Object.entries(start).map(([k, value]) => [k, { value }])) })).status).toBe(204);
    const one = (name: string, value: unknown) => ({ values: { [name]: { value } } });
    const cases: Refusal[] = [
      [one('owner', 5), /^values\.owner\.value: must be a string for a text field$/],
      [one('owner', ['a']), /^values\.owner\.value: must be a string for a text field$/],
      [one('owner', 'x'.repeat(257)), /^values\.owner\.value: /],
      [one('priority', '5'), /^values\.priority\.value: must be a number for a number field$/],
      [one('priority', true), /^values\.priority\.value: must be a number/],
      [one('reviewed', 'true'), /^values\.reviewed\.value: must be true or false for a boolean field$/],
      [one('reviewed', 1), /^values\.reviewed\.value: must be true or false/],
      [one('topics', 'api'), /^values\.topics\.value: must be a list of strings for a tags field$/],
      [one('topics', ['a', 'a']), /^values\.topics\.value: must not repeat an entry$/],
      [one('topics', ['']), /^values\.topics\.value: must not hold empty strings$/],
      [one('topics', ['t'.repeat(257)]), /^values\.topics\.value/],
      [one('topics', Array.from({ length: 51 }, (_, i) => `t${i}`)), /^values\.topics\.value/],
      [one('topics', [1]), /^values\.topics\.value/],
      [one('tier', 'gold'), /^values\.tier\.value: must be one of the options of tier: "free", "pro", "enterprise"$/],
      [one('tier', ['pro']), /^values\.tier\.value: must be one of the options of tier/],
      [one('tier', 'PRO'), /^values\.tier\.value: must be one of/],
      [one('platforms', 'web'), /^values\.platforms\.value: must be a list of strings for a select:multi field$/],
      [one('platforms', ['web', 'linux']), /^values\.platforms\.value: must hold only the options of platforms: "web", "ios", "android"$/],
      [one('platforms', ['web', 'web']), /^values\.platforms\.value: must not repeat an entry$/],
      [one('nope', 'x'), /^values\.nope: no custom field named "nope" in this organization$/],
      [one('elsewhere', 'x'), /^values\.elsewhere: no custom field named "elsewhere" in this organization$/],
      [one('owner', { text: 'x' }), /^values\.owner\.value: must be a string, a number, a boolean or a list of strings$/],
      [{ values: { owner: {} } }, /^values\.owner\.value: is required$/],
      [{ values: { owner: 'Ann' } }, /^values\.owner: /],
      [{ values: {} }, /^values: must set 1 to 100 fields$/],
      [{ values: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, { value: 'x' }])) }, /^values: must set 1 to 100 fields$/],
      [{ values: [] }, /^values: /],
      [{}, /^values: is required$/],
      // One bad entry among good ones: none of them is applied.
      [{ values: { owner: { value: 'Bob' }, priority: { value: 9 }, tier: { value: 'gold' } } }, /^values\.tier\.value: /],
      [{ values: { owner: { value: 'Bob' }, unknown: { value: 'x' } } }, /^values\.unknown: /],
    ];
    await expectRefusals((body) => patch(spaceId, body), cases);
    expect(await valuesOf(spaceId)).toEqual(start);
  });

  it('removes a deleted field\'s values from every space, through the field\'s index, and a new field of the same name starts empty', async () => {
    await createField({ name: 'owner', type: 'text' });
    await createField({ name: 'kept', type: 'number' });
    const spaces = [await createSpace(h().owner), await createSpace(h().owner)];
    for (const spaceId of spaces) expect((await patch(spaceId, { values: { owner: { value: spaceId }, kept: { value: 7 } } })).status).toBe(204);
    const oldId = (await h().owner.get(`${fields()}/owner`)).body.id;
    const byField = (fieldId: string) =>
      h().platform.store.read(async (tx) => (await tx.list(TABLES.customFieldValues, { index: INDEXES.customFieldValuesByField, value: fieldId })).count);
    expect(await byField(oldId)).toBe(2);
    expect((await h().owner.delete(`${fields()}/owner`)).status).toBe(204);
    expect(await byField(oldId)).toBe(0);
    for (const spaceId of spaces) expect(await valuesOf(spaceId)).toEqual({ kept: 7 });
    await createField({ name: 'owner', type: 'text' });
    for (const spaceId of spaces) expect(await valuesOf(spaceId)).toEqual({ kept: 7, owner: undefined });
    expect((await patch(spaces[0], { values: { owner: { value: 'new' } } })).status).toBe(204);
    expect(await valuesOf(spaces[0])).toEqual({ kept: 7, owner: 'new' });
  });

  it('takes options an admin removes out of the spaces\' values (a value left empty is removed)', async () => {
    await createField({ name: 'tier', type: 'select:single', options: ['free', 'pro'] });
    await createField({ name: 'platforms', type: 'select:multi', options: ['web', 'ios', 'android'] });
    const [a, b, c] = [await createSpace(h().owner), await createSpace(h().owner), await createSpace(h().owner)];
    await patch(a, { values: { tier: { value: 'free' }, platforms: { value: ['web', 'ios'] } } });
    await patch(b, { values: { tier: { value: 'pro' }, platforms: { value: ['ios'] } } });
    await patch(c, { values: { tier: { value: 'pro' }, platforms: { value: ['android', 'web'] } } });
    expect((await h().owner.patch(`${fields()}/tier`, { options: ['pro', 'team'] })).status).toBe(200);
    expect((await h().owner.patch(`${fields()}/platforms`, { options: ['android', 'web', 'mac'] })).status).toBe(200);
    expect(await valuesOf(a)).toEqual({ tier: undefined, platforms: ['web'] });
    expect(await valuesOf(b)).toEqual({ tier: 'pro', platforms: undefined });
    expect(await valuesOf(c)).toEqual({ tier: 'pro', platforms: ['android', 'web'] });
    expect((await patch(a, { values: { tier: { value: 'team' }, platforms: { value: ['mac'] } } })).status).toBe(204);
    expect((await patch(a, { values: { tier: { value: 'free' } } })).status).toBe(400);
  });

  it('lets members with the read level get values and the edit level set them (matrix); guests without a grant get 403', async () => {
    await createField({ name: 'owner', type: 'text' });
    const spaceId = await createSpace(h().owner);
    await patch(spaceId, { values: { owner: { value: 'start' } } });
    const matrix: [MemberRole | null, number, number][] = [
      ['admin', 200, 204],
      ['create', 200, 204],
      ['review', 200, 204],
      ['edit', 200, 204],
      ['comment', 200, 403],
      ['read', 200, 403],
      [null, 403, 403],
    ];
    let expected = 'start';
    for (const [role, read, write] of matrix) {
      const caller = await h().user(role);
      expect((await caller.get(values(spaceId))).status, `GET as ${role}`).toBe(read);
      const response = await patch(spaceId, { values: { owner: { value: `by ${role}` } } }, caller);
      expect(response.status, `PATCH as ${role}`).toBe(write);
      if (write === 204) expected = `by ${role}`;
      expect((await valuesOf(spaceId)).owner, `after ${role}`).toBe(expected);
    }
  });

  it('follows the space\'s level: a read default level caps editors, a team grant lets a guest in, a locked space still takes values', async () => {
    await createField({ name: 'owner', type: 'text' });
    const spaceId = await createSpace(h().owner);
    const editor = await h().user('edit');
    const guest = await h().user(null);
    await patchSpace(spaceId, { defaultLevel: 'read' });
    expect((await editor.get(values(spaceId))).status).toBe(200);
    expect((await patch(spaceId, { values: { owner: { value: 'editor' } } }, editor)).status).toBe(403);
    await patchSpace(spaceId, { defaultLevel: null });
    expect((await editor.get(values(spaceId))).status).toBe(403);
    const team = await h().owner.put(`/v1/orgs/${h().organizationId}/teams`, { title: 'Guests', members: [guest.userId] });
    await grantSpaceToTeamDirectly(spaceId, team.body.id, 'edit');
    expect((await guest.get(values(spaceId))).status).toBe(200);
    expect((await patch(spaceId, { values: { owner: { value: 'guest' } } }, guest)).status).toBe(204);
    await patchSpace(spaceId, { editMode: 'locked' });
    expect((await patch(spaceId, { values: { owner: { value: 'locked' } } })).status).toBe(204);
    expect((await valuesOf(spaceId)).owner).toBe('locked');
  });

  it('answers 404 for an unknown or deleted space and to a non-member, 401 without a token; nothing changes', async () => {
    await createField({ name: 'owner', type: 'text' });
    const spaceId = await createSpace(h().owner);
    await patch(spaceId, { values: { owner: { value: 'kept' } } });
    const stranger = (await h().organization()).owner;
    expect((await stranger.get(values(spaceId))).status).toBe(404);
    expect((await patch(spaceId, { values: { owner: { value: 'stranger' } } }, stranger)).status).toBe(404);
    expect((await h().owner.get(values('no-such-space'))).status).toBe(404);
    expect((await patch('no-such-space', { values: { owner: { value: 'x' } } })).status).toBe(404);
    expect((await h().request('GET', values(spaceId))).status).toBe(401);
    expect((await h().request('PATCH', values(spaceId), { body: { values: { owner: { value: 'anon' } } } })).status).toBe(401);
    expect(await valuesOf(spaceId)).toEqual({ owner: 'kept' });
    expect((await h().owner.delete(`/v1/spaces/${spaceId}`)).status).toBe(205);
    expect((await h().owner.get(values(spaceId))).status).toBe(404);
    expect((await patch(spaceId, { values: { owner: { value: 'deleted' } } })).status).toBe(404);
    expect((await h().owner.post(`/v1/spaces/${spaceId}/restore`)).status).toBe(200);
    expect(await valuesOf(spaceId)).toEqual({ owner: 'kept' });
  });

  it('copies values to a duplicate, drops them when the space moves to another organization, and purges them with the space', async () => {
    await createField({ name: 'owner', type: 'text' });
    const spaceId = await createSpace(h().owner);
    await patch(spaceId, { values: { owner: { value: 'docs' } } });
    const duplicate = await h().owner.post(`/v1/spaces/${spaceId}/duplicate`);
    expect(duplicate.status).toBe(201);
    expect(await valuesOf(duplicate.body.id)).toEqual({ owner: 'docs' });
    // The copy is the duplicate's own: changing it leaves the original alone.
    await patch(duplicate.body.id, { values: { owner: { value: 'copy' } } });
    expect(await valuesOf(spaceId)).toEqual({ owner: 'docs' });
    const other = await h().organization();
    await other.owner.post(`/v1/orgs/${other.organizationId}/custom-fields`, { name: 'owner', type: 'text' });
    const ownerThere = await h().user('admin', { organizationId: other.organizationId, email: h().owner.email });
    const moved = await ownerThere.post(`/v1/spaces/${spaceId}/transfer`, { organization: other.organizationId });
    expect(moved.status, moved.text).toBe(200);
    expect(await valuesOf(spaceId, ownerThere)).toEqual({ owner: undefined });
    const bySpace = (id: string) =>
      h().platform.store.read(async (tx) => (await tx.list(TABLES.customFieldValues, { index: INDEXES.customFieldValuesBySpace, value: id })).count);
    expect(await bySpace(spaceId)).toBe(0);
    expect(await bySpace(duplicate.body.id)).toBe(1);
    expect((await h().owner.delete(`/v1/spaces/${duplicate.body.id}`)).status).toBe(205);
    h().clock.advance(7 * 24 * 60 * 60 * 1000 + 1);
    expect((await patch(duplicate.body.id, { values: { owner: { value: 'late' } } })).status).toBe(404);
    expect(await bySpace(duplicate.body.id)).toBe(0);
  });

  it('resolves names against the space\'s own organization', async () => {
    const other = await h().organization();
    const otherFields = `/v1/orgs/${other.organizationId}/custom-fields`;
    expect((await other.owner.post(otherFields, { name: 'owner', type: 'number' })).status).toBe(201);
    await createField({ name: 'owner', type: 'text' });
    const ours = await createSpace(h().owner);
    const theirs = await createSpace(other.owner, other.organizationId);
    expect((await patch(ours, { values: { owner: { value: 'text' } } })).status).toBe(204);
    expect((await patch(theirs, { values: { owner: { value: 'text' } } }, other.owner)).status).toBe(400);
    expect((await patch(theirs, { values: { owner: { value: 3 } } }, other.owner)).status).toBe(204);
    expect(await valuesOf(ours)).toEqual({ owner: 'text' });
    expect(await valuesOf(theirs, other.owner)).toEqual({ owner: 3 });
  });
});
