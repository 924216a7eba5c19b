import { expect, it } from 'vitest';
import { contentHelpers } from './content.js';
import { httpSuite } from './harness.js';

/** Moving and transferring collections: positions, nesting, cycles, and their contents going along. */

httpSuite('collection moves', (h) => {
  const { org, space, collection, spaceIds, collectionSpaceIds, collectionIds, stored, team, grant } = contentHelpers(h);
  const at = (id: string) => `/v1/collections/${id}`;
  const move = (id: string, body: unknown) => h().owner.post(`${at(id)}/move`, body);
  const pointer = (id: string) => ({ type: 'collection', collection: id });

  it('moves a collection among its siblings and into another collection, with everything inside it', async () => {
    const a = await collection({ title: 'A' });
    const b = await collection({ title: 'B' });
    const c = await collection({ title: 'C' });
    const s = await space({ title: 'S' });
    const inA = await space({ title: 'In A', parent: a.id });
    h().clock.advance(1000);
    const moved = await move(c.id, { position: { before: pointer(a.id) } });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual(c);
    expect(await collectionIds(false)).toEqual([c.id, a.id, b.id]);
    expect((await move(a.id, { position: { after: { type: 'space', space: s.id } } })).status).toBe(200);
    expect(await spaceIds()).toEqual([s.id, inA.id]);
    const nested = await move(a.id, { parent: b.id });
    expect(nested.status).toBe(200);
    expect(nested.body.parent).toBe(b.id);
    expect(await collectionIds()).toEqual([c.id, b.id, a.id]);
    expect(await collectionIds(false)).toEqual([c.id, b.id]);
    expect(await collectionSpaceIds(a.id)).toEqual([inA.id]);
    expect((await h().owner.get(`/v1/spaces/${inA.id}`)).body.parent).toBe(a.id);
    const back = await move(a.id, { parent: null, position: { before: pointer(c.id) } });
    expect(back.status).toBe(200);
    expect(back.body.parent).toBeUndefined();
    expect(await collectionIds(false)).toEqual([a.id, c.id, b.id]);
  });

  it('never makes a collection its own ancestor (400), and refuses other bad moves, changing nothing', async () => {
    const a = await collection({ title: 'A' });
    const a1 = await collection({ title: 'A1', parent: a.id });
    const a11 = await collection({ title: 'A11', parent: a1.id });
    const b = await collection({ title: 'B' });
    const before = await stored();
    const cases: [string, unknown, number, RegExp][] = [
      [a.id, { parent: a.id }, 400, new RegExp(`^parent: collection ${a.id} cannot go into itself or one of its own collections$`)],
      [a.id, { parent: a1.id }, 400, /cannot go into itself or one of its own collections/],
      [a.id, { parent: a11.id }, 400, /cannot go into itself or one of its own collections/],
      [a1.id, { parent: a11.id }, 400, /cannot go into itself or one of its own collections/],
      [a.id, { parent: 'nope' }, 400, /^parent: no collection nope in organization /],
      [a.id, {}, 400, /^body: give parent, position or both$/],
      [a.id, { position: { before: pointer(a.id) } }, 400, /relative to itself/],
      [a.id, { position: { before: pointer(a1.id) } }, 400, new RegExp(`^position.before: collection ${a1.id} is not in the top level of the organization$`)],
      [a1.id, { position: { after: pointer(b.id) } }, 400, new RegExp(`^position.after: collection ${b.id} is not in collection ${a.id}$`)],
      [a.id, { position: { before: pointer(b.id) } }, 409, /^Operation would not result in any update/],
      [b.id, { parent: null }, 409, /^Operation would not result in any update/],
      [a11.id, { parent: a1.id }, 409, /^Operation would not result in any update/],
      ['nope', { parent: null }, 404, /^No collection nope$/],
    ];
    for (const [id, body, status, message] of cases) {
      const response = await move(id, body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    expect(await stored()).toEqual(before);
    // A collection can go into a sibling, and a sub-collection out to the top.
    expect((await move(a11.id, { parent: null })).status).toBe(200);
    expect((await move(a.id, { parent: a11.id })).status).toBe(200);
    expect(await collectionIds()).toEqual([b.id, a11.id, a.id, a1.id]);
  });

  it('needs the admin permission on the collection, and to create in a new parent', async () => {
    const a = await collection({ title: 'A' });
    const b = await collection({ title: 'B' });
    const creator = await h().user('create');
    const reviewer = await h().user('review');
    expect((await reviewer.post(`${at(a.id)}/move`, { position: { after: pointer(b.id) } })).status).toBe(403);
    await h().owner.patch(at(b.id), { defaultLevel: 'comment' });
    expect((await creator.post(`${at(a.id)}/move`, { parent: b.id })).status).toBe(403);
    expect(await collectionIds()).toEqual([a.id, b.id]);
    expect((await creator.post(`${at(a.id)}/move`, { position: { after: pointer(b.id) } })).status).toBe(200);
  });

  it('transfers a collection with its contents to another organization the caller administers', async () => {
    const other = await h().organization();
    await h().platform.addUser({ organizationId: other.organizationId, email: h().owner.email, name: 'Olive Owner', role: 'admin' });
    const theirs = await collection({ title: 'Theirs' }, other.owner, other.organizationId);
    const docs = await collection({ title: 'Docs' });
    const inner = await collection({ title: 'Inner', parent: docs.id });
    const s1 = await space({ title: 'S1', parent: docs.id });
    const s2 = await space({ title: 'S2', parent: inner.id });
    const trashed = await space({ title: 'Trashed', parent: inner.id });
    const stays = await space({ title: 'Stays' });
    const crew = await team([]);
    await grant(s1.id, crew, 'edit');
    await h().owner.delete(`/v1/spaces/${trashed.id}`);
    const moved = await h().owner.post(`${at(docs.id)}/transfer`, { organization: other.organizationId, collection: theirs.id });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: docs.id, organization: other.organizationId, parent: theirs.id });
    expect(await collectionIds()).toEqual([]);
    expect(await spaceIds()).toEqual([stays.id]);
    expect(await collectionIds(true, other.owner, other.organizationId)).toEqual([theirs.id, docs.id, inner.id]);
    expect(await spaceIds(other.owner, other.organizationId)).toEqual([s2.id, s1.id]);
    expect((await other.owner.get(`/v1/spaces/${s2.id}`)).body.organization).toBe(other.organizationId);
    expect((await h().owner.get(`${org()}/teams/${crew}`)).body.spaces).toBe(0);
    // The trashed space went along and can be restored there.
    const restored = await other.owner.post(`/v1/spaces/${trashed.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ organization: other.organizationId, parent: inner.id });
    // Within one organization a transfer moves it to another collection or the top level.
    expect((await other.owner.post(`${at(docs.id)}/transfer`, { organization: other.organizationId })).body.parent).toBeUndefined();
  });

  it('refuses transfers into itself (400), to where it is (409), and without admin rights', async () => {
    const a = await collection({ title: 'A' });
    const a1 = await collection({ title: 'A1', parent: a.id });
    const inside = await space({ title: 'Inside', parent: a.id });
    const other = await h().organization();
    const before = await stored([h().organizationId, other.organizationId]);
    const cases: [unknown, number, RegExp][] = [
      [{ organization: h().organizationId, collection: a.id }, 400, /cannot go into itself or one of its own collections/],
      [{ organization: h().organizationId, collection: a1.id }, 400, /cannot go into itself or one of its own collections/],
      [{ organization: h().organizationId }, 409, /^Transfer would not result in any update/],
      [{ organization: other.organizationId }, 404, /^No organization /],
      [{ organization: h().organizationId, collection: 'nope' }, 400, /^collection: no collection nope/],
      [{ collection: a1.id }, 400, /^organization: is required$/],
    ];
    for (const [body, status, message] of cases) {
      const response = await h().owner.post(`${at(a.id)}/transfer`, body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    // A creator administers the collection but not what is locked down inside it, nor the target.
    const creator = await h().user('create');
    await h().platform.addUser({ organizationId: other.organizationId, email: creator.email, name: 'C', role: 'admin' });
    await h().owner.patch(`/v1/spaces/${inside.id}`, { defaultLevel: 'read' });
    const refused = await creator.post(`${at(a.id)}/transfer`, { organization: other.organizationId });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(`You need the create level or above on space ${inside.id} inside it to transfer it`);
    await h().owner.patch(`/v1/spaces/${inside.id}`, { defaultLevel: 'inherit' });
    const afterPatch = await stored([h().organizationId, other.organizationId]);
    expect(afterPatch.collections).toEqual(before.collections);
    expect((await creator.post(`${at(a.id)}/transfer`, { organization: other.organizationId })).status).toBe(200);
  });
});
