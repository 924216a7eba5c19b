import { expect, it } from 'vitest';
import { authoring, md } from './authoring.js';
import { httpSuite, walkPages } from './harness.js';

/** The change request endpoints: fields, numbers, statuses and counts, filters, paging, who may do what. */

const CHANGE_REQUEST_KEYS = [
  'comments',
  'createdAt',
  'createdBy',
  'id',
  'number',
  'object',
  'outdated',
  'revision',
  'revisionInitial',
  'status',
  'subject',
  'updatedAt',
  'urls',
];

httpSuite('change requests', (h) => {
  const a = authoring(h);

  it('creates a draft with 201, every field, number 1, and the space revision as its base', async () => {
    const space = await a.space();
    h().clock.advance(60_000);
    const created = await h().owner.post(a.changeRequests(space.id), { subject: 'Fix typos' });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(CHANGE_REQUEST_KEYS);
    expect(created.body).toEqual({
      object: 'change-request',
      id: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
      number: 1,
      status: 'draft',
      subject: 'Fix typos',
      createdBy: expect.objectContaining({ object: 'user', id: h().owner.userId }),
      createdAt: '2026-03-01T10:01:01.000Z',
      updatedAt: '2026-03-01T10:01:01.000Z',
      revision: space.revision,
      revisionInitial: space.revision,
      comments: 0,
      outdated: false,
      urls: {
        app: expect.stringMatching(new RegExp(`^http://[^/]+/app/s/${space.id}/~/changes/1$`)),
        location: expect.stringMatching(new RegExp(`^http://[^/]+/v1/spaces/${space.id}/change-requests/${created.body.id}$`)),
      },
    });
    expect(created.headers.get('location')).toBe(created.body.urls.location);
    expect((await h().owner.get(a.changeRequestPath(space.id, created.body.id))).body).toEqual(created.body);
    // Without a subject the subject is empty; numbers go on per space, from 1 in another space.
    const second = await a.changeRequest(space.id);
    expect([second.number, second.subject]).toEqual([2, '']);
    const other = await a.space({ title: 'Other' });
    expect((await a.changeRequest(other.id)).number).toBe(1);
    expect(await a.counts(space.id)).toEqual({ total: 2, open: 0, draft: 2 });
    expect(await a.counts(other.id)).toEqual({ total: 1, open: 0, draft: 1 });
  });

  it('takes a subject of 100 characters, refuses 101 and other bad bodies, and stores nothing then', async () => {
    const space = await a.space();
    expect((await h().owner.post(a.changeRequests(space.id), { subject: 'x'.repeat(100) })).status).toBe(201);
    const before = await a.stored(space.id);
    for (const body of [{ subject: 'x'.repeat(101) }, { subject: 12 }, { subject: null }]) {
      const refused = await h().owner.post(a.changeRequests(space.id), body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.message).toMatch(/^subject: /);
    }
    expect(await a.stored(space.id)).toEqual(before);
    expect(await a.counts(space.id)).toEqual({ total: 1, open: 0, draft: 1 });
  });

  it('gets a change request by id or by its number in the space, and 404s for anything else', async () => {
    const space = await a.space();
    const other = await a.space({ title: 'Other' });
    const first = await a.changeRequest(space.id, { subject: 'One' });
    const second = await a.changeRequest(space.id, { subject: 'Two' });
    const elsewhere = await a.changeRequest(other.id);
    expect((await h().owner.get(a.changeRequestPath(space.id, 2))).body.id).toBe(second.id);
    expect((await h().owner.get(a.changeRequestPath(space.id, '1'))).body.id).toBe(first.id);
    for (const id of ['3', '0', '01', '-1', 'nope', elsewhere.id]) {
      const missing = await h().owner.get(a.changeRequestPath(space.id, id));
      expect(missing.status, id).toBe(404);
      expect(missing.body.error.message).toBe(`No change request ${id} in space ${space.id}`);
    }
    // The other space's number 1 is its own.
    expect((await h().owner.get(a.changeRequestPath(other.id, 1))).body.id).toBe(elsewhere.id);
  });

  it('moves between draft, open and archived with PATCH, keeping the counts of the space exact', async () => {
    const space = await a.space();
    const cr = await a.changeRequest(space.id);
    h().clock.advance(5000);
    const opened = await h().owner.patch(a.changeRequestPath(space.id, cr.id), { status: 'open', subject: 'Ready' });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ status: 'open', subject: 'Ready', updatedAt: '2026-03-01T10:00:07.000Z', createdAt: cr.createdAt });
    expect(await a.counts(space.id)).toEqual({ total: 1, open: 1, draft: 0 });
    const archived = await h().owner.patch(a.changeRequestPath(space.id, 1), { status: 'archived' });
    expect(archived.body.status).toBe('archived');
    expect(await a.counts(space.id)).toEqual({ total: 1, open: 0, draft: 0 });
    const reopened = await h().owner.patch(a.changeRequestPath(space.id, cr.id), { status: 'draft' });
    expect(reopened.body.status).toBe('draft');
    expect(await a.counts(space.id)).toEqual({ total: 1, open: 0, draft: 1 });
    // Nothing to change: updatedAt stays.
    h().clock.advance(5000);
    const same = await h().owner.patch(a.changeRequestPath(space.id, cr.id), { status: 'draft', subject: 'Ready' });
    expect(same.body).toEqual(reopened.body);
    const empty = await h().owner.patch(a.changeRequestPath(space.id, cr.id), {});
    expect(empty.body).toEqual(reopened.body);
  });

  it('refuses to set merged or any other status, and a subject over 100, changing nothing', async () => {
    const space = await a.space();
    const cr = await a.changeRequest(space.id, { subject: 'Keep' });
    const before = await a.stored(space.id);
    for (const body of [{ status: 'merged' }, { status: 'closed' }, { status: null }, { subject: 'y'.repeat(101) }, { subject: 'ok', status: 'merged' }]) {
      const refused = await h().owner.patch(a.changeRequestPath(space.id, cr.id), body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    const merged = await h().owner.patch(a.changeRequestPath(space.id, cr.id), { status: 'merged' });
    expect(merged.body.error.message).toBe('status: must be ("draft" | "open" | "archived"), not "merged"');
    expect(await a.stored(space.id)).toEqual(before);
    expect((await h().owner.patch(a.changeRequestPath(space.id, 'nope'), { status: 'open' })).status).toBe(404);
  });

  it('treats a merged change request as final: PATCH is a 409 and it is never outdated', async () => {
    const space = await a.space();
    const cr = await a.changeRequest(space.id);
    await h().platform.store.write(async (tx) => {
      const record = await tx.get('changeRequests', cr.id);
      await tx.put('changeRequests', { ...record!, status: 'merged', revisionMerged: space.revision, mergedBy: h().owner.userId, mergedAt: '2026-03-01T11:00:00.000Z' });
    });
    await a.moveSpaceTo(space.id, (await a.batch(space.id, (await a.changeRequest(space.id)).id, [{ operation: 'insert_page', title: 'X', document: md('x') }])).revision);
    const read = await h().owner.get(a.changeRequestPath(space.id, cr.id));
    expect(read.body).toMatchObject({ status: 'merged', outdated: false, revisionMerged: space.revision, mergedAt: '2026-03-01T11:00:00.000Z' });
    expect(read.body.mergedBy.id).toBe(h().owner.userId);
    const before = await a.stored(space.id);
    for (const body of [{ status: 'open' }, { subject: 'Late' }]) {
      const refused = await h().owner.patch(a.changeRequestPath(space.id, cr.id), body);
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toBe('Change request 1 is merged: it can no longer change');
    }
    expect(await a.stored(space.id)).toEqual(before);
    expect(await a.counts(space.id)).toEqual({ total: 2, open: 0, draft: 1 });
  });

  it('lists open change requests by default, newest first, and filters by status', async () => {
    const space = await a.space();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await a.changeRequest(space.id, { subject: `CR ${i + 1}` }));
    const list = (query = '') => h().owner.get(`${a.changeRequests(space.id)}${query}`);
    expect((await list()).body).toEqual({ items: [], count: 0 });
    for (const i of [0, 2, 3]) await h().owner.patch(a.changeRequestPath(space.id, made[i].id), { status: 'open' });
    await h().owner.patch(a.changeRequestPath(space.id, made[3].id), { status: 'archived' });
    const open = await list();
    expect(open.body.count).toBe(2);
    expect(open.body.items.map((item: any) => item.number)).toEqual([3, 1]);
    expect((await list('?status=open')).body).toEqual(open.body);
    expect((await list('?status=draft')).body.items.map((item: any) => item.number)).toEqual([5, 2]);
    expect((await list('?status=archived')).body.items.map((item: any) => item.number)).toEqual([4]);
    expect((await list('?status=merged')).body).toEqual({ items: [], count: 0 });
    for (const query of ['?status=all', '?status=', '?limit=0', '?limit=1001', '?page=garbage']) {
      expect((await list(query)).status, query).toBe(400);
    }
    // Every item as GET returns it.
    for (const item of (await list('?status=draft')).body.items) expect((await h().owner.get(a.changeRequestPath(space.id, item.id))).body).toEqual(item);
  });

  it('pages through a long list once each, newest first', async () => {
    const space = await a.space();
    for (let i = 0; i < 7; i++) await a.changeRequest(space.id);
    const all = await walkPages(h().owner, `${a.changeRequests(space.id)}?status=draft`, 3);
    expect(all.map((item) => item.number)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    const first = await h().owner.get(`${a.changeRequests(space.id)}?status=draft&limit=3`);
    expect(first.body.count).toBe(7);
    expect(first.body.next.page).toEqual(expect.any(String));
  });

  it('filters by contributor: the creator and everyone who changed the content', async () => {
    const space = await a.space();
    const editor = await h().user('edit');
    const reader = await h().user('read');
    const mine = await a.changeRequest(space.id, {}, h().owner);
    const theirs = await a.changeRequest(space.id, {}, editor);
    await a.batch(space.id, mine.id, [{ operation: 'insert_page', title: 'Intro', document: md('Hello') }], editor);
    const byContributor = async (userId: string) =>
      (await h().owner.get(`${a.changeRequests(space.id)}?status=draft&contributor=${userId}`)).body.items.map((item: any) => item.number);
    expect(await byContributor(editor.userId)).toEqual([theirs.number, mine.number]);
    expect(await byContributor(h().owner.userId)).toEqual([mine.number]);
    expect(await byContributor(reader.userId)).toEqual([]);
    expect(await byContributor('nobody')).toEqual([]);
  });

  it('is outdated exactly when the space moved on since the request started', async () => {
    const space = await a.space();
    const first = await a.changeRequest(space.id);
    const second = await a.changeRequest(space.id);
    const edited = await a.batch(space.id, first.id, [{ operation: 'insert_page', title: 'New', document: md('text') }]);
    // Editing a change request does not move the space: nobody is outdated.
    expect(edited.outdated).toBe(false);
    expect((await h().owner.get(a.changeRequestPath(space.id, second.id))).body.outdated).toBe(false);
    await a.moveSpaceTo(space.id, edited.revision);
    expect((await h().owner.get(a.changeRequestPath(space.id, second.id))).body.outdated).toBe(true);
    expect((await h().owner.get(a.changeRequestPath(space.id, first.id))).body.outdated).toBe(true);
    // A request created now starts from the new revision.
    const third = await a.changeRequest(space.id);
    expect(third).toMatchObject({ revisionInitial: edited.revision, outdated: false });
    // Brought up to date (as an update records it), it is not outdated any more.
    await h().platform.store.write(async (tx) => {
      const record = await tx.get('changeRequests', second.id);
      await tx.put('changeRequests', { ...record!, revisionMergedAncestor: edited.revision });
    });
    expect((await h().owner.get(a.changeRequestPath(space.id, second.id))).body).toMatchObject({ outdated: false, revisionMergedAncestor: edited.revision });
  });

  it('counts open comments of the request only', async () => {
    const space = await a.space();
    const cr = await a.changeRequest(space.id);
    await h().platform.store.write(async (tx) => {
      // Comment records as the comments area keeps them: in the list of their place, and its open list while open.
      const comment = (id: string, changeRequestId: string | undefined, status: 'open' | 'resolved') => {
        const listKey = changeRequestId ? `change-request:${changeRequestId}` : `space:${space.id}`;
        return tx.insert('comments', {
          id,
          spaceId: space.id,
          ...(changeRequestId && { changeRequestId }),
          status,
          listKey,
          ...(status === 'open' && { openKey: listKey }),
          postedAt: '2026-03-01T10:00:00.000Z',
        });
      };
      await comment('c1', cr.id, 'open');
      await comment('c2', cr.id, 'open');
      await comment('c3', cr.id, 'resolved');
      await comment('c4', undefined, 'open');
      await comment('c5', 'other', 'open');
    });
    expect((await h().owner.get(a.changeRequestPath(space.id, cr.id))).body.comments).toBe(2);
  });

  it('lets readers read, editors create and change, and nobody else; a locked space takes no new request', async () => {
    const space = await a.space();
    const cr = await a.changeRequest(space.id);
    const reader = await h().user('read');
    const commenter = await h().user('comment');
    const editor = await h().user('edit');
    const outsider = await h().organization();
    for (const caller of [reader, commenter]) {
      expect((await caller.get(a.changeRequests(space.id))).status).toBe(200);
      expect((await caller.get(a.changeRequestPath(space.id, cr.id))).status).toBe(200);
      const create = await caller.post(a.changeRequests(space.id), {});
      expect(create.status).toBe(403);
      expect(create.body.error.message).toBe(`You need the edit level or above on space ${space.id} to create a change request`);
      expect((await caller.patch(a.changeRequestPath(space.id, cr.id), { status: 'open' })).status).toBe(403);
    }
    expect((await editor.post(a.changeRequests(space.id), {})).status).toBe(201);
    expect((await editor.patch(a.changeRequestPath(space.id, cr.id), { status: 'open' })).status).toBe(200);
    for (const request of [
      () => outsider.owner.get(a.changeRequests(space.id)),
      () => outsider.owner.get(a.changeRequestPath(space.id, cr.id)),
      () => outsider.owner.post(a.changeRequests(space.id), {}),
      () => outsider.owner.patch(a.changeRequestPath(space.id, cr.id), { status: 'draft' }),
    ]) {
      expect((await request()).status).toBe(404);
    }
    expect((await h().request('GET', a.changeRequests(space.id))).status).toBe(401);
    await h().owner.patch(a.spaces(space.id), { editMode: 'locked' });
    const locked = await editor.post(a.changeRequests(space.id), {});
    expect(locked.status).toBe(409);
    expect(locked.body.error.message).toMatch(/is locked/);
    // Not a content change: the subject and status still change on a locked space.
    expect((await editor.patch(a.changeRequestPath(space.id, cr.id), { subject: 'Still' })).status).toBe(200);
    expect(await a.counts(space.id)).toEqual({ total: 2, open: 1, draft: 1 });
  });

  it('hides the change requests of a deleted space', async () => {
    const space = await a.space();
    const cr = await a.changeRequest(space.id);
    expect((await h().owner.delete(a.spaces(space.id))).status).toBe(205);
    expect((await h().owner.get(a.changeRequestPath(space.id, cr.id))).status).toBe(404);
    expect((await h().owner.get(a.changeRequests(space.id))).status).toBe(404);
    expect((await h().owner.post(a.changeRequests(space.id), {})).status).toBe(404);
  });
});
