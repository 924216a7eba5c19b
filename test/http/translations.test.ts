import { expect, it } from 'vitest';
import { TRANSLATION_LANGUAGES } from '../../src/core/translations/schemas.js';
import { expectRefusals, type Refusal } from './bad-input.js';
import { expectSettingsRoleMatrix } from './settings-roles.js';
import { httpSuite, walkPages, type Caller } from './harness.js';

/** The translation settings endpoints: fields, title limits, languages, order, paging, who may do what. */

const KEYS = ['createdAt', 'id', 'languages', 'object', 'permissions', 'title', 'updatedAt', 'urls'];

httpSuite('translations', (h) => {
  const org = () => `/v1/orgs/${h().organizationId}`;
  const translations = () => `${org()}/translations`;
  const translation = (id: string) => `${org()}/translations/${id}`;

  /** Creates translation settings as the owner, one second after the previous ones so createdAt orders them. */
  async function create(body: Record<string, unknown>) {
    h().clock.advance(1000);
    const response = await h().owner.post(translations(), body);
    expect(response.status, response.text).toBe(201);
    return response.body;
  }

  async function stored(caller: Caller = h().owner) {
    const response = await caller.get(translations());
    expect(response.status).toBe(200);
    return response.body.items;
  }

  it('creates translation settings with 201 and every field, and reads them back', async () => {
    h().clock.advance(60_000);
    const created = await h().owner.post(translations(), { title: 'Docs in French' });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(KEYS);
    expect(created.body).toEqual({
      object: 'translation-settings',
      id: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
      title: 'Docs in French',
      languages: [],
      createdAt: '2026-03-01T10:01:00.000Z',
      updatedAt: '2026-03-01T10:01:00.000Z',
      permissions: { view: true, edit: true },
      urls: { location: expect.stringMatching(new RegExp(`/v1/orgs/${h().organizationId}/translations/${created.body.id}$`)) },
    });
    expect(created.headers.get('location')).toBe(created.body.urls.location);
    const read = await h().owner.get(translation(created.body.id));
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const withLanguages = await create({ title: 'Europe', languages: ['fr', 'de', 'pt-br'] });
    expect(withLanguages.languages).toEqual(['fr', 'de', 'pt-br']);
    expect(withLanguages.id).not.toBe(created.body.id);
  });

  it('accepts titles of 1 and 100 characters and every language of the public API', async () => {
    expect((await create({ title: 'x' })).title).toBe('x');
    expect((await create({ title: 'y'.repeat(100) })).title).toBe('y'.repeat(100));
    const all = await create({ title: 'All', languages: [...TRANSLATION_LANGUAGES] });
    expect(all.languages).toEqual([...TRANSLATION_LANGUAGES]);
    expect((await stored()).length).toBe(3);
  });

  it('refuses a bad create with 400 naming the field, and stores nothing', async () => {
    const cases: Refusal[] = [
      [{}, /^title: is required$/],
      [{ title: '' }, /^title: must be 1 to 100 characters$/],
      [{ title: 'x'.repeat(101) }, /^title: must be 1 to 100 characters$/],
      [{ title: 12 }, /^title: must be string/],
      [{ title: null }, /^title: /],
      [{ title: 'T', languages: 'fr' }, /^languages: /],
      [{ title: 'T', languages: ['klingon'] }, /^languages\.0: must be \("en" \| "fr" \| .*, not "klingon"$/],
      [{ title: 'T', languages: ['fr', 'FR'] }, /^languages\.1: must be .*, not "FR"$/],
      [{ title: 'T', languages: ['fr', 'de', 'fr'] }, /^languages: must not name a language twice$/],
      [{ title: 'T', languages: [null] }, /^languages\.0: /],
    ];
    await expectRefusals((body) => h().owner.post(translations(), body), cases);
    expect(await stored()).toEqual([]);
  });

  it('lets only admins create, replace and delete; members with a role read with edit: false; guests get 403', async () => {
    const existing = await create({ title: 'Kept', languages: ['ja'] });
    const admin = await h().user('admin');
    h().clock.advance(1000);
    const byAdmin = await admin.post(translations(), { title: 'By admin' });
    expect(byAdmin.status).toBe(201);
    await expectSettingsRoleMatrix(h(), {
      writes: (caller) => [
        () => caller.post(translations(), { title: 'Mine' }),
        () => caller.put(translation(existing.id), { title: 'Mine' }),
        () => caller.delete(translation(existing.id)),
      ],
      reads: (caller) => [() => caller.get(translation(existing.id)), () => caller.get(translations())],
      checkReads([read, list]) {
        expect(read.body).toEqual({ ...existing, permissions: { view: true, edit: false } });
        expect(list.body.items.map((item: any) => item.permissions)).toEqual([
          { view: true, edit: false },
          { view: true, edit: false },
        ]);
      },
    });
    const after = await stored();
    expect(after.map((item: any) => item.title)).toEqual(['Kept', 'By admin']);
    expect(after[0]).toEqual(existing);
    expect((await admin.put(translation(existing.id), { title: 'Renamed' })).status).toBe(200);
    expect((await admin.delete(translation(byAdmin.body.id))).status).toBe(205);
  });

  it('answers 404 to a non-member for every endpoint, and for unknown or foreign settings', async () => {
    const created = await create({ title: 'Hidden' });
    const other = await h().organization();
    const stranger = other.owner;
    const attempts = [
      () => stranger.get(translations()),
      () => stranger.post(translations(), { title: 'Mine' }),
      () => stranger.get(translation(created.id)),
      () => stranger.put(translation(created.id), { title: 'Mine' }),
      () => stranger.delete(translation(created.id)),
    ];
    for (const attempt of attempts) expect((await attempt()).status).toBe(404);
    expect((await h().owner.get('/v1/orgs/no-such-org/translations')).status).toBe(404);
    expect((await h().owner.post('/v1/orgs/no-such-org/translations', { title: 'T' })).status).toBe(404);
    const foreign = await stranger.post(`/v1/orgs/${other.organizationId}/translations`, { title: 'Theirs' });
    expect(foreign.status).toBe(201);
    for (const id of ['no-such-translation', foreign.body.id]) {
      expect((await h().owner.get(translation(id))).status).toBe(404);
      expect((await h().owner.put(translation(id), { title: 'Taken' })).status).toBe(404);
      expect((await h().owner.delete(translation(id))).status).toBe(404);
    }
    expect((await stranger.get(`/v1/orgs/${other.organizationId}/translations/${foreign.body.id}`)).body.title).toBe('Theirs');
    expect(await stored()).toEqual([created]);
    for (const [method, path] of [
      ['GET', translations()],
      ['POST', translations()],
      ['GET', translation(created.id)],
      ['PUT', translation(created.id)],
      ['DELETE', translation(created.id)],
    ]) {
      const body = method === 'POST' || method === 'PUT' ? { title: 'No token' } : undefined;
      expect((await h().request(method, path, { body })).status, `${method} ${path}`).toBe(401);
    }
    expect(await stored()).toEqual([created]);
  });

  it('replaces the title with PUT, sets updatedAt, and keeps the languages unless given', async () => {
    const created = await create({ title: 'Old', languages: ['fr', 'es'] });
    h().clock.advance(5000);
    const renamed = await h().owner.put(translation(created.id), { title: 'New' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...created, title: 'New', updatedAt: '2026-03-01T10:00:06.000Z' });
    expect((await h().owner.get(translation(created.id))).body).toEqual(renamed.body);
    h().clock.advance(1000);
    const relanguaged = await h().owner.put(translation(created.id), { title: 'New', languages: ['ko'] });
    expect(relanguaged.body).toMatchObject({ languages: ['ko'], createdAt: created.createdAt, updatedAt: '2026-03-01T10:00:07.000Z' });
    const emptied = await h().owner.put(translation(created.id), { title: 'New', languages: [] });
    expect(emptied.body.languages).toEqual([]);
  });

  it('refuses a bad PUT with 400 naming the field, and changes nothing', async () => {
    const created = await create({ title: 'Stable', languages: ['it'] });
    h().clock.advance(1000);
    const cases: Refusal[] = [
      [{}, /^title: is required$/],
      [{ languages: ['fr'] }, /^title: is required$/],
      [{ title: '' }, /^title: must be 1 to 100 characters$/],
      [{ title: 'x'.repeat(101) }, /^title: must be 1 to 100 characters$/],
      [{ title: false }, /^title: must be string/],
      [{ title: 'Fine', languages: ['xx'] }, /^languages\.0: /],
      [{ title: 'Fine', languages: ['it', 'it'] }, /^languages: must not name a language twice$/],
    ];
    await expectRefusals((body) => h().owner.put(translation(created.id), body), cases);
    expect((await h().owner.get(translation(created.id))).body).toEqual(created);
  });

  it('deletes with 205 and no body: then 404 and off the list', async () => {
    const keep = await create({ title: 'Keep' });
    const gone = await create({ title: 'Gone' });
    const deleted = await h().owner.delete(translation(gone.id));
    expect(deleted.status).toBe(205);
    expect(deleted.text).toBe('');
    expect((await h().owner.get(translation(gone.id))).status).toBe(404);
    expect((await h().owner.put(translation(gone.id), { title: 'Back' })).status).toBe(404);
    expect((await h().owner.delete(translation(gone.id))).status).toBe(404);
    expect((await stored()).map((item: any) => item.id)).toEqual([keep.id]);
  });

  it('lists oldest first with an exact count, pages through every item once, and refuses a bad query', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await create({ title: `T${i}` })).id);
    const first = await h().owner.get(`${translations()}?limit=4`);
    expect(first.body.count).toBe(6);
    expect(first.body.items.map((item: any) => item.id)).toEqual(ids.slice(0, 4));
    const second = await h().owner.get(`${translations()}?limit=4&page=${encodeURIComponent(first.body.next.page)}`);
    expect(second.body.items.map((item: any) => item.id)).toEqual(ids.slice(4));
    expect(second.body.next).toBeUndefined();
    for (const limit of [1, 5, 6, 1000]) {
      expect((await walkPages(h().owner, translations(), limit)).map((item) => item.id), `limit ${limit}`).toEqual(ids);
    }
    for (const query of ['limit=0', 'limit=1001', 'limit=abc', 'page=garbage', 'page=']) {
      const response = await h().owner.get(`${translations()}?${query}`);
      expect(response.status, query).toBe(400);
    }
  });
});
