import { expect, it } from 'vitest';
import { TABLES } from '../../src/core/records.js';
import { ALL_SPACE_PERMISSIONS, SPACE_KEYS, contentHelpers } from './content.js';
import { httpSuite, walkPages } from './harness.js';

/** The space endpoints: create, list, get and patch; every field, filter, limit and bad input. */

httpSuite('spaces', (h) => {
  const { org, space, collection, ids, spaceIds, stored } = contentHelpers(h);
  const spaces = () => `${org()}/spaces`;
  const at = (id: string) => `/v1/spaces/${id}`;
  /** The published URL of a space: the server's origin differs by transport. */
  const publishedOf = (created: Record<string, any>) =>
    `${created.urls.location.replace(/\/v1\/spaces\/.*$/, '')}/published/s/${created.id}`;

  it('creates a space with 201, a Location header and every field of the Space table, and reads it back', async () => {
    h().clock.advance(60_000);
    const created = await h().owner.post(spaces(), {});
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(SPACE_KEYS);
    const id = created.body.id;
    expect(created.body).toEqual({
      object: 'space',
      id: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
      title: 'Untitled',
      emoji: '',
      visibility: 'private',
      createdAt: '2026-03-01T10:01:00.000Z',
      updatedAt: '2026-03-01T10:01:00.000Z',
      editMode: 'live',
      urls: { location: expect.stringMatching(new RegExp(`^http://[^/]+/v1/spaces/${id}$`)), app: expect.stringMatching(new RegExp(`^http://[^/]+/app/s/${id}$`)) },
      organization: h().organizationId,
      revision: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
      defaultLevel: 'admin',
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      permissions: ALL_SPACE_PERMISSIONS,
    });
    expect(created.headers.get('location')).toBe(created.body.urls.location);
    const read = await h().owner.get(at(id));
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    // The first revision is a real record of this space, with no parents (its content is the content area's).
    const revision = await h().platform.store.read((tx) => tx.get(TABLES.revisions, created.body.revision));
    expect(revision).toMatchObject({ id: created.body.revision, spaceId: id, parents: [], createdAt: created.body.createdAt });
  });

  it('creates with a title, an emoji, an edit mode and a parent collection', async () => {
    const docs = await collection({ title: 'Docs' });
    const created = await space({ title: 'Guide', emoji: '📘', editMode: 'locked', parent: docs.id });
    expect(created).toMatchObject({ title: 'Guide', emoji: '📘', editMode: 'locked', parent: docs.id, visibility: 'private' });
    expect(Object.keys(created).sort()).toEqual([...SPACE_KEYS, 'parent'].sort());
    // A locked space refuses content changes: edit, merge and git sync are off even for its admin.
    expect(created.permissions).toEqual({ ...ALL_SPACE_PERMISSIONS, edit: false, triggerGitSync: false, merge: false });
    for (const emoji of ['1f4d8', '1f468-200d-1f469-200d-1f467', '🇫🇷', '👍🏽', '1️⃣', '']) {
      expect((await space({ emoji })).emoji).toBe(emoji);
    }
    expect((await space({ title: 't'.repeat(50) })).title).toBe('t'.repeat(50));
    expect((await space({ title: '' })).title).toBe('');
  });

  it('refuses a bad create with 400 naming the field, and stores nothing', async () => {
    const other = await h().organization();
    const foreign = await collection({}, other.owner, other.organizationId);
    await space({ title: 'Keep' });
    const before = await stored([h().organizationId, other.organizationId]);
    const cases: [unknown, RegExp][] = [
      [{ title: 't'.repeat(51) }, /^title: must be at most 50 characters$/],
      [{ title: 5 }, /^title: must be string/],
      [{ emoji: 'x' }, /^emoji: must be an emoji/],
      [{ emoji: '🎉x' }, /^emoji: must be an emoji/],
      [{ emoji: '1F4D8' }, /^emoji: must be an emoji/],
      [{ emoji: '🎉'.repeat(26) }, /^emoji: must be at most 50 characters$/],
      [{ emoji: null }, /^emoji: /],
      [{ editMode: 'frozen' }, /^editMode: must be /],
      [{ parent: '' }, /^parent: must not be empty$/],
      [{ parent: 'no-such-collection' }, /^parent: no collection no-such-collection in organization /],
      [{ parent: foreign.id }, new RegExp(`^parent: no collection ${foreign.id} in organization `)],
      [{ parent: 7 }, /^parent: /],
    ];
    for (const [body, message] of cases) {
      const response = await h().owner.post(spaces(), body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    const raw = await h().request('POST', spaces(), { token: h().owner.token, rawBody: '{"title": ', headers: { 'content-type': 'application/json' } });
    expect(raw.status).toBe(400);
    expect(await stored([h().organizationId, other.organizationId])).toEqual(before);
  });

  it('answers 404 to a non-member and for an unknown organization, 401 without a token', async () => {
    const created = await space({ title: 'Hidden' });
    const stranger = (await h().organization()).owner;
    const before = await stored();
    expect((await stranger.post(spaces(), {})).status).toBe(404);
    expect((await stranger.get(spaces())).status).toBe(404);
    expect((await stranger.get(at(created.id))).status).toBe(404);
    expect((await stranger.patch(at(created.id), { title: 'Mine' })).status).toBe(404);
    expect((await h().owner.get('/v1/orgs/no-such-org/spaces')).status).toBe(404);
    expect((await h().owner.post('/v1/orgs/no-such-org/spaces', {})).status).toBe(404);
    expect((await h().owner.get(at('no-such-space'))).status).toBe(404);
    expect((await h().owner.patch(at('no-such-space'), { title: 'x' })).status).toBe(404);
    expect((await h().request('GET', at(created.id))).status).toBe(401);
    expect((await h().request('POST', spaces(), { body: {} })).status).toBe(401);
    expect(await stored()).toEqual(before);
  });

  it('lists the spaces in sidebar order (depth first, siblings in order) with an exact count, hiding deleted ones', async () => {
    const a = await space({ title: 'A' });
    const docs = await collection({ title: 'Docs' });
    const inner = await collection({ title: 'Inner', parent: docs.id });
    const b = await space({ title: 'B', parent: docs.id });
    const c = await space({ title: 'C', parent: inner.id });
    const d = await space({ title: 'D' });
    const gone = await space({ title: 'Gone' });
    expect((await h().owner.delete(at(gone.id))).status).toBe(205);
    // Top level: A, Docs(Inner(C), B), D.
    const list = await h().owner.get(spaces());
    expect(list.status).toBe(200);
    expect(ids(list)).toEqual([a.id, c.id, b.id, d.id]);
    expect(list.body.count).toBe(4);
    expect(list.body.next).toBeUndefined();
    for (const item of list.body.items) expect(item.deletedAt).toBeUndefined();
    for (const limit of [1, 2, 3, 4, 1000]) {
      expect((await walkPages(h().owner, spaces(), limit)).map((item) => item.id), `limit ${limit}`).toEqual([a.id, c.id, b.id, d.id]);
    }
    const first = await h().owner.get(`${spaces()}?limit=3`);
    expect(first.body.count).toBe(4);
    expect(first.body.items).toHaveLength(3);
    expect(first.body.next.page).toEqual(expect.any(String));
  });

  it('refuses a bad list query with 400 naming the parameter', async () => {
    await space();
    for (const [query, message] of [
      ['limit=0', /^limit: must be at least 1$/],
      ['limit=1001', /^limit: must be at most 1000$/],
      ['limit=ten', /^limit: must be a whole number$/],
      ['page=garbage', /^page: /],
      ['page=', /^page: /],
    ] as const) {
      const response = await h().owner.get(`${spaces()}?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.error.message).toMatch(message);
    }
  });

  it('lists to each member only the spaces it can access', async () => {
    const open = await space({ title: 'Open' });
    const closed = await space({ title: 'Closed' });
    expect((await h().owner.patch(at(closed.id), { defaultLevel: null })).status).toBe(200);
    const reader = await h().user('read');
    const guest = await h().user(null);
    expect(await spaceIds(reader)).toEqual([open.id]);
    expect(await spaceIds(guest)).toEqual([]);
    expect(await spaceIds()).toEqual([open.id, closed.id]);
    const asReader = await reader.get(spaces());
    expect(asReader.body.count).toBe(1);
    expect(asReader.body.items[0].permissions).toEqual({
      view: true,
      access: true,
      admin: false,
      viewInviteLinks: false,
      edit: false,
      triggerGitSync: false,
      comment: false,
      merge: false,
      review: false,
    });
  });

  it('gets a space with a shareKey: the published URL of a share-link space carries it', async () => {
    const shared = await space({ title: 'Shared' });
    const published = publishedOf(shared);
    expect((await h().owner.get(`${at(shared.id)}?shareKey=abc_DEF-1`)).body.urls).toEqual(shared.urls);
    await h().owner.patch(at(shared.id), { visibility: 'share-link' });
    const withKey = await h().owner.get(`${at(shared.id)}?shareKey=abc_DEF-1`);
    expect(withKey.status).toBe(200);
    expect(withKey.body.urls).toEqual({ ...shared.urls, published: `${published}?share=abc_DEF-1` });
    expect((await h().owner.get(at(shared.id))).body.urls).toEqual({ ...shared.urls, published });
    await h().owner.patch(at(shared.id), { visibility: 'unlisted' });
    expect((await h().owner.get(`${at(shared.id)}?shareKey=abc`)).body.urls).toEqual({ ...shared.urls, published });
    for (const [query, message] of [
      ['shareKey=', /^shareKey: must not be empty$/],
      ['shareKey=a%20b', /^shareKey: must contain only letters, digits, _ and -$/],
      [`shareKey=${'k'.repeat(201)}`, /^shareKey: must be at most 200 characters$/],
    ] as const) {
      const response = await h().owner.get(`${at(shared.id)}?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.error.message).toMatch(message);
    }
  });

  it('patches title, emoji, edit mode, default level and visibility; updatedAt moves only on a change', async () => {
    const docs = await collection({ title: 'Docs' });
    const created = await space({ title: 'Before', emoji: '🎉', parent: docs.id });
    h().clock.advance(5000);
    const patched = await h().owner.patch(at(created.id), { title: 'After', emoji: '1f4d8', editMode: 'locked', defaultLevel: 'edit', visibility: 'public' });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({
      ...created,
      title: 'After',
      emoji: '1f4d8',
      editMode: 'locked',
      defaultLevel: 'edit',
      visibility: 'public',
      updatedAt: '2026-03-01T10:00:07.000Z',
      urls: { ...created.urls, published: publishedOf(created), public: publishedOf(created) },
      permissions: { ...ALL_SPACE_PERMISSIONS, edit: false, triggerGitSync: false, merge: false },
    });
    expect((await h().owner.get(at(created.id))).body).toEqual(patched.body);
    // The same values again, or nothing: no change, updatedAt stays.
    h().clock.advance(5000);
    expect((await h().owner.patch(at(created.id), { title: 'After', editMode: 'locked' })).body).toEqual(patched.body);
    expect((await h().owner.patch(at(created.id), {})).body).toEqual(patched.body);
    // emoji null removes it; defaultLevel inherit takes the collection's again; null gives members nothing.
    const cleared = await h().owner.patch(at(created.id), { emoji: null, defaultLevel: 'inherit', editMode: 'live' });
    expect(cleared.body).toMatchObject({ emoji: '', defaultLevel: 'admin', editMode: 'live', updatedAt: '2026-03-01T10:00:12.000Z' });
    await h().owner.patch(`/v1/collections/${docs.id}`, { defaultLevel: 'comment' });
    expect((await h().owner.get(at(created.id))).body.defaultLevel).toBe('comment');
    expect((await h().owner.patch(at(created.id), { defaultLevel: null })).body.defaultLevel).toBeNull();
    expect((await h().owner.patch(at(created.id), { title: 'x'.repeat(50) })).body.title).toBe('x'.repeat(50));
  });

  it('shows published URLs and visitorAuth by visibility; in-collection only in a collection', async () => {
    const docs = await collection();
    const inside = await space({ parent: docs.id });
    const top = await space();
    const published = publishedOf(inside);
    const expected: Record<string, object> = {
      public: { published, public: published },
      unlisted: { published },
      'share-link': { published },
      'visitor-auth': { published },
      'in-collection': { published },
      private: {},
    };
    for (const [visibility, urls] of Object.entries(expected)) {
      const response = await h().owner.patch(at(inside.id), { visibility });
      expect(response.status, visibility).toBe(200);
      expect(response.body.visibility).toBe(visibility);
      expect(response.body.urls).toEqual({ ...inside.urls, ...urls });
      expect(response.body.visitorAuth, visibility).toEqual(visibility === 'visitor-auth' ? { backend: 'custom' } : undefined);
    }
    const before = await stored();
    const refused = await h().owner.patch(at(top.id), { visibility: 'in-collection' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe('visibility: in-collection is only for spaces in a collection');
    expect(await stored()).toEqual(before);
  });

  it('refuses a bad PATCH with 400 naming the field, and changes nothing', async () => {
    const created = await space({ title: 'Stable', emoji: '🎉' });
    const before = await stored();
    const cases: [unknown, RegExp][] = [
      [{ title: 'x'.repeat(51) }, /^title: must be at most 50 characters$/],
      [{ title: null }, /^title: /],
      [{ emoji: 'smile' }, /^emoji: must be an emoji/],
      [{ emoji: '1f4d8'.repeat(11) }, /^emoji: must be at most 50 characters$/],
      [{ editMode: 'readonly' }, /^editMode: must be /],
      [{ defaultLevel: 'owner' }, /^defaultLevel: must be a role, null or inherit$/],
      [{ defaultLevel: 3 }, /^defaultLevel: /],
      [{ visibility: 'secret' }, /^visibility: must be /],
      [{ title: 'Fine', visibility: 'hidden' }, /^visibility: /],
    ];
    for (const [body, message] of cases) {
      const response = await h().owner.patch(at(created.id), body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    expect(await stored()).toEqual(before);
    expect((await h().owner.get(at(created.id))).body).toEqual(created);
  });

  it('counts open space comments and change requests by status, exactly, from the store', async () => {
    const counted = await space({ title: 'Counted' });
    const other = await space({ title: 'Other' });
    await h().platform.store.write(async (tx) => {
      const now = '2026-03-01T11:00:00.000Z';
      const statuses = ['open', 'open', 'open', 'draft', 'draft', 'archived', 'merged'];
      for (const [n, status] of statuses.entries()) {
        await tx.insert(TABLES.changeRequests, { id: `cr${n}`, spaceId: counted.id, number: n + 1, status, createdAt: now });
      }
      await tx.insert(TABLES.changeRequests, { id: 'cr-other', spaceId: other.id, number: 1, status: 'open', createdAt: now });
      // Comments as the comments area stores them: `listKey` names their list, `openKey` is set while open.
      const onSpace = `space:${counted.id}`;
      const comments: [string, object][] = [
        ['c1', { status: 'open', listKey: onSpace, openKey: onSpace }],
        ['c2', { status: 'open', listKey: onSpace, openKey: onSpace }],
        ['c3', { status: 'resolved', listKey: onSpace }],
        ['c4', { status: 'open', changeRequestId: 'cr0', listKey: 'change-request:cr0', openKey: 'change-request:cr0' }],
      ];
      for (const [id, fields] of comments) await tx.insert(TABLES.comments, { id, spaceId: counted.id, postedAt: now, ...fields });
      const onOther = `space:${other.id}`;
      await tx.insert(TABLES.comments, { id: 'c-other', spaceId: other.id, postedAt: now, status: 'open', listKey: onOther, openKey: onOther });
    });
    const read = await h().owner.get(at(counted.id));
    expect(read.body).toMatchObject({ comments: 2, changeRequests: 7, changeRequestsOpen: 3, changeRequestsDraft: 2 });
    expect((await h().owner.get(at(other.id))).body).toMatchObject({ comments: 1, changeRequests: 1, changeRequestsOpen: 1, changeRequestsDraft: 0 });
    const listed = (await h().owner.get(spaces())).body.items.find((item: { id: string }) => item.id === counted.id);
    expect(listed).toMatchObject({ comments: 2, changeRequests: 7, changeRequestsOpen: 3, changeRequestsDraft: 2 });
  });

  it('keeps each organization to its own spaces', async () => {
    const mine = await space({ title: 'Mine' });
    const other = await h().organization();
    const theirs = await space({ title: 'Theirs' }, other.owner, other.organizationId);
    expect(theirs.organization).toBe(other.organizationId);
    expect(await spaceIds()).toEqual([mine.id]);
    expect(await spaceIds(other.owner, other.organizationId)).toEqual([theirs.id]);
    expect((await h().owner.get(at(theirs.id))).status).toBe(404);
  });
});
