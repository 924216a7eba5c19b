import { expect, it } from 'vitest';
import { COLLECTION_KEYS, contentHelpers } from './content.js';
import { httpSuite, walkPages } from './harness.js';

/** The collection endpoints: create, get, list (nested or not), patch, delete, a collection's spaces. */

httpSuite('collections', (h) => {
  const { org, space, collection, ids, spaceIds, collectionSpaceIds, collectionIds, stored } = contentHelpers(h);
  const collections = () => `${org()}/collections`;
  const at = (id: string) => `/v1/collections/${id}`;
  const ALL = { view: true, admin: true, viewInviteLinks: true, create: true };

  it('creates a collection with 201, a Location header and every field, and reads it back', async () => {
    const created = await h().owner.post(collections(), {});
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(COLLECTION_KEYS);
    const id = created.body.id;
    expect(created.body).toEqual({
      object: 'collection',
      id: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
      title: 'Untitled',
      organization: h().organizationId,
      defaultLevel: 'admin',
      urls: {
        location: expect.stringMatching(new RegExp(`^http://[^/]+/v1/collections/${id}$`)),
        app: expect.stringMatching(new RegExp(`^http://[^/]+/app/o/${h().organizationId}/c/${id}$`)),
      },
      permissions: ALL,
    });
    expect(created.headers.get('location')).toBe(created.body.urls.location);
    expect((await h().owner.get(at(id))).body).toEqual(created.body);
    const inner = await collection({ title: 'Inner', parent: id });
    expect(inner).toMatchObject({ title: 'Inner', parent: id, defaultLevel: 'admin' });
    expect(Object.keys(inner).sort()).toEqual([...COLLECTION_KEYS, 'parent'].sort());
    expect((await collection({ title: 'c'.repeat(50) })).title).toBe('c'.repeat(50));
  });

  it('refuses a bad create with 400 naming the field, and stores nothing', async () => {
    const other = await h().organization();
    const foreign = await collection({}, other.owner, other.organizationId);
    await collection({ title: 'Keep' });
    const before = await stored([h().organizationId, other.organizationId]);
    const cases: [unknown, RegExp][] = [
      [{ title: 'c'.repeat(51) }, /^title: must be at most 50 characters$/],
      [{ title: false }, /^title: must be string/],
      [{ parent: 'no-such-collection' }, /^parent: no collection no-such-collection in organization /],
      [{ parent: foreign.id }, /^parent: no collection /],
      [{ parent: '' }, /^parent: must not be empty$/],
      [{ parent: null }, /^parent: /],
    ];
    for (const [body, message] of cases) {
      const response = await h().owner.post(collections(), body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    expect(await stored([h().organizationId, other.organizationId])).toEqual(before);
  });

  it('answers 404 to a non-member and for unknown collections', async () => {
    const created = await collection({ title: 'Hidden' });
    const stranger = (await h().organization()).owner;
    const before = await stored();
    for (const response of [
      await stranger.get(collections()),
      await stranger.post(collections(), {}),
      await stranger.get(at(created.id)),
      await stranger.patch(at(created.id), { title: 'Mine' }),
      await stranger.delete(at(created.id)),
      await stranger.get(`${at(created.id)}/spaces`),
      await stranger.post(`${at(created.id)}/move`, { parent: null }),
      await h().owner.get(at('no-such-collection')),
      await h().owner.patch(at('no-such-collection'), { title: 'x' }),
      await h().owner.delete(at('no-such-collection')),
      await h().owner.get(`${at('no-such-collection')}/spaces`),
      await h().owner.get('/v1/orgs/no-such-org/collections'),
    ]) {
      expect(response.status).toBe(404);
    }
    expect(await stored()).toEqual(before);
  });

  it('lists collections in sidebar order: all levels by default (nested=true), the top level with nested=false', async () => {
    const a = await collection({ title: 'A' });
    const b = await collection({ title: 'B' });
    const a1 = await collection({ title: 'A1', parent: a.id });
    const a1x = await collection({ title: 'A1x', parent: a1.id });
    const a2 = await collection({ title: 'A2', parent: a.id });
    const b1 = await collection({ title: 'B1', parent: b.id });
    const all = [a.id, a1.id, a1x.id, a2.id, b.id, b1.id];
    expect(await collectionIds()).toEqual(all);
    expect(await collectionIds(true)).toEqual(all);
    expect(await collectionIds(false)).toEqual([a.id, b.id]);
    const top = await h().owner.get(`${collections()}?nested=false`);
    expect(top.body.count).toBe(2);
    const every = await h().owner.get(collections());
    expect(every.body.count).toBe(6);
    for (const limit of [1, 2, 5, 6]) {
      expect((await walkPages(h().owner, collections(), limit)).map((item) => item.id), `limit ${limit}`).toEqual(all);
      expect((await walkPages(h().owner, `${collections()}?nested=false`, limit)).map((item) => item.id)).toEqual([a.id, b.id]);
    }
    // Moving changes the order.
    expect((await h().owner.post(`${at(b.id)}/move`, { position: { before: { type: 'collection', collection: a.id } } })).status).toBe(200);
    expect(await collectionIds()).toEqual([b.id, b1.id, a.id, a1.id, a1x.id, a2.id]);
    for (const [query, message] of [
      ['nested=yes', /^nested: must be true or false$/],
      ['nested=', /^nested: /],
      ['limit=0', /^limit: must be at least 1$/],
      ['limit=1001', /^limit: must be at most 1000$/],
      ['page=nope', /^page: /],
    ] as const) {
      const response = await h().owner.get(`${collections()}?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.error.message).toMatch(message);
    }
  });

  it("lists a collection's own spaces in order, not deleted ones, not those of inner collections", async () => {
    const docs = await collection({ title: 'Docs' });
    const inner = await collection({ title: 'Inner', parent: docs.id });
    const first = await space({ title: 'First', parent: docs.id });
    await space({ title: 'Deeper', parent: inner.id });
    const second = await space({ title: 'Second', parent: docs.id });
    const gone = await space({ title: 'Gone', parent: docs.id });
    await space({ title: 'Top' });
    await h().owner.delete(`/v1/spaces/${gone.id}`);
    await h().owner.post(`/v1/spaces/${second.id}/move`, { position: { before: { type: 'space', space: first.id } } });
    const list = await h().owner.get(`${at(docs.id)}/spaces`);
    expect(list.status).toBe(200);
    expect(ids(list)).toEqual([second.id, first.id]);
    expect(list.body.count).toBe(2);
    expect(list.body.items[0]).toEqual((await h().owner.get(`/v1/spaces/${second.id}`)).body);
    for (const limit of [1, 2, 3]) {
      expect((await walkPages(h().owner, `${at(docs.id)}/spaces`, limit)).map((item) => item.id)).toEqual([second.id, first.id]);
    }
    const response = await h().owner.get(`${at(docs.id)}/spaces?limit=0`);
    expect(response.status).toBe(400);
  });

  it('patches title, description and default level; the contents that set none follow it', async () => {
    const docs = await collection({ title: 'Docs' });
    const inner = await collection({ title: 'Inner', parent: docs.id });
    const inside = await space({ title: 'Inside', parent: inner.id });
    const own = await space({ title: 'Own', parent: inner.id });
    await h().owner.patch(`/v1/spaces/${own.id}`, { defaultLevel: 'edit' });
    const patched = await h().owner.patch(at(docs.id), { title: 'Documentation', description: 'd'.repeat(100), defaultLevel: 'read' });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...docs, title: 'Documentation', description: 'd'.repeat(100), defaultLevel: 'read' });
    expect((await h().owner.get(at(docs.id))).body).toEqual(patched.body);
    expect((await h().owner.get(at(inner.id))).body.defaultLevel).toBe('read');
    expect((await h().owner.get(`/v1/spaces/${inside.id}`)).body.defaultLevel).toBe('read');
    expect((await h().owner.get(`/v1/spaces/${own.id}`)).body.defaultLevel).toBe('edit');
    expect((await h().owner.patch(at(inner.id), { defaultLevel: null })).body.defaultLevel).toBeNull();
    expect((await h().owner.get(`/v1/spaces/${inside.id}`)).body.defaultLevel).toBeNull();
    expect((await h().owner.patch(at(inner.id), { defaultLevel: 'inherit' })).body.defaultLevel).toBe('read');
    expect((await h().owner.patch(at(docs.id), { description: '' })).body.description).toBe('');
    expect((await h().owner.patch(at(docs.id), {})).body.title).toBe('Documentation');
  });

  it('refuses a bad PATCH with 400 naming the field, and changes nothing', async () => {
    const docs = await collection({ title: 'Docs' });
    const before = await stored();
    const cases: [unknown, RegExp][] = [
      [{ title: 'x'.repeat(51) }, /^title: must be at most 50 characters$/],
      [{ description: 'd'.repeat(101) }, /^description: must be at most 100 characters$/],
      [{ description: null }, /^description: /],
      [{ defaultLevel: 'guest' }, /^defaultLevel: must be a role, null or inherit$/],
      [{ title: 1 }, /^title: /],
    ];
    for (const [body, message] of cases) {
      const response = await h().owner.patch(at(docs.id), body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    expect(await stored()).toEqual(before);
  });

  it('deletes a collection with 205: its collections are removed, its spaces go to the trash and can be restored', async () => {
    const docs = await collection({ title: 'Docs' });
    const inner = await collection({ title: 'Inner', parent: docs.id });
    const keep = await collection({ title: 'Keep' });
    const a = await space({ title: 'A', parent: docs.id });
    const b = await space({ title: 'B', parent: inner.id });
    const earlier = await space({ title: 'Earlier', parent: inner.id });
    const top = await space({ title: 'Top' });
    await h().owner.delete(`/v1/spaces/${earlier.id}`);
    h().clock.advance(1000);
    const deleted = await h().owner.delete(at(docs.id));
    expect(deleted.status).toBe(205);
    expect(deleted.text).toBe('');
    for (const id of [docs.id, inner.id]) {
      expect((await h().owner.get(at(id))).status).toBe(404);
      expect((await h().owner.delete(at(id))).status).toBe(404);
    }
    expect(await collectionIds()).toEqual([keep.id]);
    expect(await spaceIds()).toEqual([top.id]);
    for (const trashed of [a, b]) {
      const read = await h().owner.get(`/v1/spaces/${trashed.id}`);
      expect(read.body.deletedAt).toBe(h().clock.now().toISOString());
    }
    // The space deleted before keeps its own delete time.
    expect((await h().owner.get(`/v1/spaces/${earlier.id}`)).body.deletedAt).not.toBe(h().clock.now().toISOString());
    const restored = await h().owner.post(`/v1/spaces/${b.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.parent).toBeUndefined();
    expect(await spaceIds()).toEqual([top.id, b.id]);
    expect(await collectionSpaceIds(keep.id)).toEqual([]);
  });

  it('deletes only when the caller administers the collection and everything in it', async () => {
    const docs = await collection({ title: 'Docs' });
    const guarded = await space({ title: 'Guarded', parent: docs.id });
    await h().owner.patch(`/v1/spaces/${guarded.id}`, { defaultLevel: 'read' });
    const creator = await h().user('create');
    const editor = await h().user('edit');
    const before = await stored();
    expect((await editor.delete(at(docs.id))).status).toBe(403);
    const refused = await creator.delete(at(docs.id));
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(`You need the create level or above on space ${guarded.id} inside it to delete it`);
    expect(await stored()).toEqual(before);
    await h().owner.patch(`/v1/spaces/${guarded.id}`, { defaultLevel: 'inherit' });
    expect((await creator.delete(at(docs.id))).status).toBe(205);
  });
});
