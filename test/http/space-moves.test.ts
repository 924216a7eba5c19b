import { expect, it } from 'vitest';
import { INDEXES, TABLES } from '../../src/core/records.js';
import { contentHelpers } from './content.js';
import { httpSuite } from './harness.js';

/** Moving, duplicating and transferring spaces. */

httpSuite('space moves', (h) => {
  const { org, space, collection, spaceIds, collectionSpaceIds, collectionIds, stored, team, grant } = contentHelpers(h);
  const at = (id: string) => `/v1/spaces/${id}`;
  const move = (id: string, body: unknown) => h().owner.post(`${at(id)}/move`, body);
  const ref = (id: string) => ({ type: 'space', space: id });

  it('moves a space right before or after a sibling, or to the end, writing only that space', async () => {
    const [a, b, c, d] = [await space({ title: 'A' }), await space({ title: 'B' }), await space({ title: 'C' }), await space({ title: 'D' })];
    h().clock.advance(1000);
    const moved = await move(d.id, { position: { before: ref(b.id) } });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({ ...d, updatedAt: '2026-03-01T10:00:05.000Z' });
    expect(await spaceIds()).toEqual([a.id, d.id, b.id, c.id]);
    expect((await move(a.id, { position: { after: ref(c.id) } })).status).toBe(200);
    expect(await spaceIds()).toEqual([d.id, b.id, c.id, a.id]);
    expect((await move(a.id, { position: { after: ref(d.id), before: ref(b.id) } })).status).toBe(200);
    expect(await spaceIds()).toEqual([d.id, a.id, b.id, c.id]);
    expect((await move(d.id, { parent: null })).status).toBe(200);
    expect(await spaceIds()).toEqual([a.id, b.id, c.id, d.id]);
    expect((await move(c.id, { position: {} })).status).toBe(200);
    expect(await spaceIds()).toEqual([a.id, b.id, d.id, c.id]);
    // Only the moved space changed in the store.
    const before = await stored();
    expect((await move(b.id, { position: { before: ref(a.id) } })).status).toBe(200);
    const after = await stored();
    const changed = after.spaces.filter((record) => !before.spaces.some((old) => JSON.stringify(old) === JSON.stringify(record)));
    expect(changed.map((record: any) => record.id)).toEqual([b.id]);
  });

  it('takes 16 moves at once to one spot in turn: each keeps a place of its own, and a move between two of them lands there', async () => {
    const spaces = [];
    for (let at = 0; at < 18; at++) spaces.push(await space({ title: `S${at}` }));
    const [anchor, last] = [spaces[17], spaces[16]];
    const moving = spaces.slice(0, 16);
    const answers = await Promise.all(moving.map((moved) => move(moved.id, { position: { after: ref(anchor.id) } })));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const order = await spaceIds();
    const at = order.indexOf(anchor.id);
    expect([...order.slice(at + 1, at + 17)].sort()).toEqual(moving.map((moved) => moved.id).sort());
    // Two of them that had taken one key left no key between them: a 500 on PostgreSQL.
    const [left, right] = [order[at + 1], order[at + 2]];
    expect((await move(last.id, { position: { after: ref(left), before: ref(right) } })).status).toBe(200);
    const after = await spaceIds();
    expect(after.slice(after.indexOf(left), after.indexOf(left) + 3)).toEqual([left, last.id, right]);
  });

  it('moves a space between collections and to the top level, among spaces and collections', async () => {
    const docs = await collection({ title: 'Docs' });
    const guides = await collection({ title: 'Guides' });
    const x = await space({ title: 'X', parent: docs.id });
    const y = await space({ title: 'Y', parent: docs.id });
    const top = await space({ title: 'Top' });
    const moved = await move(x.id, { parent: guides.id });
    expect(moved.status).toBe(200);
    expect(moved.body.parent).toBe(guides.id);
    expect(await collectionSpaceIds(docs.id)).toEqual([y.id]);
    expect(await collectionSpaceIds(guides.id)).toEqual([x.id]);
    expect((await move(y.id, { parent: guides.id, position: { before: ref(x.id) } })).status).toBe(200);
    expect(await collectionSpaceIds(guides.id)).toEqual([y.id, x.id]);
    // To the top level, right before a collection.
    const out = await move(x.id, { parent: null, position: { before: { type: 'collection', collection: guides.id } } });
    expect(out.status).toBe(200);
    expect(out.body.parent).toBeUndefined();
    expect(Object.keys(out.body)).not.toContain('parent');
    // Top level now: Docs, X, Guides(Y), Top.
    expect(await spaceIds()).toEqual([x.id, y.id, top.id]);
    expect((await move(top.id, { position: { after: { type: 'collection', collection: docs.id } } })).status).toBe(200);
    expect(await spaceIds()).toEqual([top.id, x.id, y.id]);
  });

  it('refuses bad moves with 400 naming the problem, a move that changes nothing with 409, and changes nothing', async () => {
    const docs = await collection({ title: 'Docs' });
    const [a, b, c] = [await space({ title: 'A' }), await space({ title: 'B' }), await space({ title: 'C' })];
    const inDocs = await space({ title: 'In docs', parent: docs.id });
    const other = await h().organization();
    const foreign = await space({}, other.owner, other.organizationId);
    const before = await stored();
    const cases: [string, unknown, number, RegExp][] = [
      [a.id, {}, 400, /^body: give parent, position or both$/],
      [a.id, { position: { before: ref(a.id) } }, 400, new RegExp(`^position.before: cannot place space ${a.id} relative to itself$`)],
      [a.id, { position: { after: ref(a.id) } }, 400, /^position.after: cannot place space .* relative to itself$/],
      [a.id, { position: { before: ref(inDocs.id) } }, 400, new RegExp(`^position.before: space ${inDocs.id} is not in the top level of the organization$`)],
      [a.id, { parent: docs.id, position: { after: ref(b.id) } }, 400, new RegExp(`^position.after: space ${b.id} is not in collection ${docs.id}$`)],
      [a.id, { position: { before: ref('nope') } }, 400, /^position.before: space nope is not in /],
      [a.id, { position: { before: { type: 'collection', collection: 'nope' } } }, 400, /^position.before: collection nope is not in /],
      [a.id, { position: { before: ref(foreign.id) } }, 400, /is not in the top level/],
      [a.id, { position: { after: ref(b.id), before: ref(docs.id) } }, 400, /^position.before: /],
      [a.id, { position: { after: ref(b.id), before: { type: 'collection', collection: docs.id } } }, 400, /are not neighbours/],
      [a.id, { position: { before: { type: 'page', page: 'x' } } }, 400, /^position.before.type: /],
      [a.id, { position: { before: { type: 'space' } } }, 400, /^position.before.space: is required$/],
      [a.id, { position: 'end' }, 400, /^position: /],
      // valibot's object schemas take arrays; the central check refuses them, at any depth.
      [a.id, { position: [] }, 400, /^position: must be an object, not an array$/],
      [a.id, { position: { before: [] } }, 400, /^position.before.type: is required$/],
      [a.id, { parent: 'no-such-collection' }, 400, /^parent: no collection no-such-collection in organization /],
      [a.id, { parent: 5 }, 400, /^parent: /],
      // Already there: no update (409), as in the public API.
      [a.id, { position: { before: ref(b.id) } }, 409, /^Operation would not result in any update/],
      [b.id, { position: { after: ref(a.id), before: ref(c.id) } }, 409, /^Operation would not result in any update/],
      [c.id, { parent: null }, 409, /^Operation would not result in any update/],
      [inDocs.id, { parent: docs.id }, 409, /^Operation would not result in any update/],
      ['no-such-space', { parent: null }, 404, /^No space no-such-space$/],
    ];
    for (const [id, body, status, message] of cases) {
      const response = await move(id, body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    expect(await stored()).toEqual(before);
    expect(await spaceIds()).toEqual([inDocs.id, a.id, b.id, c.id]);
  });

  it('needs the admin permission on the space, and to create in a new parent', async () => {
    const docs = await collection({ title: 'Docs' });
    const target = await space({ title: 'Target' });
    const other = await space({ title: 'Other' });
    const creator = await h().user('create');
    const reviewer = await h().user('review');
    expect((await reviewer.post(`${at(target.id)}/move`, { position: { after: ref(other.id) } })).status).toBe(403);
    await h().owner.patch(`/v1/collections/${docs.id}`, { defaultLevel: 'read' });
    const refused = await creator.post(`${at(target.id)}/move`, { parent: docs.id });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(`You need the create level or above on collection ${docs.id} to put content in it`);
    expect((await h().owner.get(at(target.id))).body.parent).toBeUndefined();
    expect((await creator.post(`${at(target.id)}/move`, { position: { after: ref(other.id) } })).status).toBe(200);
    expect((await h().owner.post(`${at(target.id)}/move`, { parent: docs.id })).status).toBe(200);
    // Out of the read-only collection back to the top level: the creator now only reads the space.
    expect((await creator.post(`${at(target.id)}/move`, { parent: null })).status).toBe(403);
  });

  it('duplicates a space right after it, with a copy of its content and settings, as a new history', async () => {
    const docs = await collection({ title: 'Docs' });
    const original = await space({ title: 'Design System', emoji: '🎨', parent: docs.id });
    const next = await space({ title: 'Next', parent: docs.id });
    await h().owner.patch(at(original.id), { visibility: 'unlisted', editMode: 'locked', defaultLevel: 'comment' });
    const crew = await team([]);
    await grant(original.id, crew, 'edit');
    await h().platform.store.write(async (tx) => {
      await tx.insert(TABLES.changeRequests, { id: 'cr1', spaceId: original.id, number: 1, status: 'open', createdAt: original.createdAt });
      await tx.insert(TABLES.comments, { id: 'cm1', spaceId: original.id, status: 'open', postedAt: original.createdAt });
    });
    h().clock.advance(1000);
    const copy = await h().owner.post(`${at(original.id)}/duplicate`);
    expect(copy.status).toBe(201);
    expect(copy.headers.get('location')).toBe(copy.body.urls.location);
    const source = (await h().owner.get(at(original.id))).body;
    expect(copy.body).toEqual({
      ...source,
      id: expect.any(String),
      title: 'Copy of Design System',
      revision: expect.any(String),
      createdAt: '2026-03-01T10:00:04.000Z',
      updatedAt: '2026-03-01T10:00:04.000Z',
      urls: expect.any(Object),
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
    });
    expect(copy.body.id).not.toBe(original.id);
    expect(copy.body.revision).not.toBe(original.revision);
    expect(await collectionSpaceIds(docs.id)).toEqual([original.id, copy.body.id, next.id]);
    // A new history: one revision of the copy, with no parents (the content area tests what it holds).
    const revision = await h().platform.store.read((tx) => tx.get(TABLES.revisions, copy.body.revision));
    expect(revision).toMatchObject({ id: copy.body.revision, spaceId: copy.body.id, parents: [], createdAt: '2026-03-01T10:00:04.000Z' });
    const grants = await h().platform.store.read(async (tx) => (await tx.list(TABLES.spaceGrants, { index: INDEXES.spaceGrantsBySpace, value: copy.body.id })).items);
    expect(grants.map((record) => [record.teamId, record.role])).toEqual([[crew, 'edit']]);
    expect((await h().owner.get(`${org()}/teams/${crew}`)).body.spaces).toBe(2);
    // The title is cut to 50 characters, never inside a character.
    const long = await space({ title: `${'x'.repeat(41)}🎉🎉` });
    const cut = await h().owner.post(`${at(long.id)}/duplicate`);
    expect(cut.body.title).toBe(`Copy of ${'x'.repeat(41)}`);
    const exact = await space({ title: 'y'.repeat(42) });
    expect((await h().owner.post(`${at(exact.id)}/duplicate`)).body.title).toBe(`Copy of ${'y'.repeat(42)}`);
  });

  it('lets those who see a space and may create where it is duplicate it', async () => {
    const target = await space({ title: 'Target' });
    const creator = await h().user('create');
    const editor = await h().user('edit');
    const guest = await h().user(null);
    const stranger = (await h().organization()).owner;
    const before = await stored();
    const refused = await editor.post(`${at(target.id)}/duplicate`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('You need the create role or above to put content at the top level of the organization');
    expect((await guest.post(`${at(target.id)}/duplicate`)).status).toBe(403);
    expect((await stranger.post(`${at(target.id)}/duplicate`)).status).toBe(404);
    expect(await stored()).toEqual(before);
    expect((await creator.post(`${at(target.id)}/duplicate`)).status).toBe(201);
  });

  it('transfers a space to another organization the caller administers, at its top level or into a collection', async () => {
    const other = await h().organization();
    await h().platform.addUser({ organizationId: other.organizationId, email: h().owner.email, name: 'Olive Owner', role: 'admin' });
    const theirs = await collection({ title: 'Theirs' }, other.owner, other.organizationId);
    const docs = await collection({ title: 'Docs' });
    const moving = await space({ title: 'Moving', parent: docs.id });
    const second = await space({ title: 'Second' });
    await h().owner.patch(at(moving.id), { visibility: 'in-collection' });
    const crew = await team([]);
    await grant(moving.id, crew, 'edit');
    const revision = moving.revision;
    h().clock.advance(1000);
    const moved = await h().owner.post(`${at(moving.id)}/transfer`, { organization: other.organizationId });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ organization: other.organizationId, visibility: 'private', revision, title: 'Moving' });
    expect(moved.body.parent).toBeUndefined();
    expect(await spaceIds()).toEqual([second.id]);
    expect(await spaceIds(other.owner, other.organizationId)).toEqual([moving.id]);
    // Grants name teams of the old organization: they are dropped.
    expect((await h().owner.get(`${org()}/teams/${crew}`)).body.spaces).toBe(0);
    const into = await h().owner.post(`${at(second.id)}/transfer`, { organization: other.organizationId, collection: theirs.id });
    expect(into.status).toBe(200);
    expect(into.body.parent).toBe(theirs.id);
    expect(await collectionSpaceIds(theirs.id, other.owner)).toEqual([second.id]);
    // Within one organization, a transfer moves into another collection (or the top level), at the end.
    const within = await other.owner.post(`${at(second.id)}/transfer`, { organization: other.organizationId });
    expect(within.status).toBe(200);
    expect(within.body.parent).toBeUndefined();
    expect(await spaceIds(other.owner, other.organizationId)).toEqual([moving.id, second.id]);
  });

  it('refuses transfers to where the space is (409), to unknown places (400), without admin rights (403/404)', async () => {
    const target = await space({ title: 'Target' });
    const docs = await collection({ title: 'Docs' });
    const other = await h().organization();
    const member = await h().organization();
    await h().platform.addUser({ organizationId: member.organizationId, email: h().owner.email, name: 'Olive Owner', role: 'create' });
    const foreign = await collection({}, other.owner, other.organizationId);
    const before = await stored([h().organizationId, other.organizationId, member.organizationId]);
    const cases: [unknown, number, RegExp][] = [
      [{ organization: h().organizationId }, 409, /^Transfer would not result in any update/],
      [{ organization: other.organizationId }, 404, /^No organization /],
      [{ organization: 'no-such-org' }, 404, /^No organization /],
      [{ organization: member.organizationId }, 403, /^You need the admin role to transfer content into the organization$/],
      [{ organization: h().organizationId, collection: 'nope' }, 400, /^collection: no collection nope in organization /],
      [{ organization: h().organizationId, collection: foreign.id }, 400, /^collection: no collection /],
      [{}, 400, /^organization: is required$/],
      [{ organization: '' }, 400, /^organization: must not be empty$/],
      [{ organization: 7 }, 400, /^organization: /],
    ];
    for (const [body, status, message] of cases) {
      const response = await h().owner.post(`${at(target.id)}/transfer`, body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    const creator = await h().user('create');
    await h().platform.addUser({ organizationId: other.organizationId, email: creator.email, name: 'C', role: 'admin' });
    const reader = await h().user('read');
    expect((await reader.post(`${at(target.id)}/transfer`, { organization: h().organizationId, collection: docs.id })).status).toBe(403);
    expect((await creator.post(`${at(target.id)}/transfer`, { organization: h().organizationId, collection: docs.id })).status).toBe(403);
    expect(await stored([h().organizationId, other.organizationId, member.organizationId])).toEqual(before);
    expect((await creator.post(`${at(target.id)}/transfer`, { organization: other.organizationId })).status).toBe(200);
    expect(await collectionIds()).toEqual([docs.id]);
  });
});
