/** Review requests of a change request (/requested-reviewers, from the public API), through both transports. */
import { expect, it } from 'vitest';
import { authoring } from './authoring.js';
import { httpSuite } from './harness.js';

httpSuite('change request reviewers', (h) => {
  const a = authoring(h);
  const reviewersOf = (spaceId: string, changeRequestId: string) => `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/requested-reviewers`;

  /** A space with a draft change request, and its reviewers' path. */
  async function draft() {
    const space = await a.space();
    const changeRequest = await a.changeRequest(space.id, { subject: 'Draft' });
    return { space, changeRequest, path: reviewersOf(space.id, changeRequest.id) };
  }

  it('asks members who can review: the draft is submitted (open), and the list shows who was asked, by whom, at which revision', async () => {
    const { space, changeRequest, path } = await draft();
    const reviewer = await h().user('review');
    const admin = await h().user('admin');
    h().clock.advance(1000);
    const asked = await h().owner.post(path, { users: [reviewer.userId, admin.userId, reviewer.userId], subject: 'Ready' });
    expect(asked.status, asked.text).toBe(200);
    expect(asked.body.users.map((item: any) => [item.object, item.kind, item.user.id, item.requestedBy.id, item.revision])).toEqual([
      ['change-request-requested-reviewer', 'user', reviewer.userId, h().owner.userId, changeRequest.revision],
      ['change-request-requested-reviewer', 'user', admin.userId, h().owner.userId, changeRequest.revision],
    ]);
    const updated = (await h().owner.get(`/v1/spaces/${space.id}/change-requests/${changeRequest.id}`)).body;
    expect([updated.status, updated.subject]).toEqual(['open', 'Ready']);
    // A reader of the space sees the list.
    const reader = await h().user('read');
    // Asked together: in the order of their ids, after those asked before.
    const both = [reviewer.userId, admin.userId].sort();
    const listed = await reader.get(path);
    expect(listed.status).toBe(200);
    expect([listed.body.count, listed.body.items.map((item: any) => item.user.id)]).toEqual([2, both]);
    const paged = await reader.get(`${path}?limit=1`);
    expect(paged.body.items.map((item: any) => item.user.id)).toEqual([both[0]]);
    expect((await reader.get(`${path}?limit=1&page=${encodeURIComponent(paged.body.next.page)}`)).body.items.map((item: any) => item.user.id)).toEqual([both[1]]);

    // Asking again renews the request at the current revision, without a second entry.
    await a.batch(space.id, changeRequest.id, [{ operation: 'insert_page', title: 'New', document: { markdown: 'x' } }]);
    h().clock.advance(1000);
    const again = await h().owner.post(path, { users: [reviewer.userId] });
    const revision = (await h().owner.get(`/v1/spaces/${space.id}/change-requests/${changeRequest.id}`)).body.revision;
    expect(again.body.users.map((item: any) => [item.user.id, item.revision])).toEqual([[reviewer.userId, revision]]);
    expect((await reader.get(path)).body.items.map((item: any) => [item.user.id, item.revision])).toEqual([
      [admin.userId, changeRequest.revision],
      [reviewer.userId, revision],
    ]);
  });

  it('refuses a user who cannot review the space with one 400 naming the entry, and changes nothing', async () => {
    const { space, changeRequest, path } = await draft();
    const reviewer = await h().user('review');
    const reader = await h().user('read');
    const other = await h().organization();
    for (const [users, index, userId] of [
      [[reviewer.userId, reader.userId], 1, reader.userId],
      [['no-such-user'], 0, 'no-such-user'],
      [[other.owner.userId], 0, other.owner.userId],
    ] as const) {
      const response = await h().owner.post(path, { users });
      expect(response.status, response.text).toBe(400);
      expect(response.body.error.message).toBe(`users.${index}: ${userId} is not a member who can review space ${space.id} (the review level or above)`);
    }
    expect((await h().owner.post(path, { users: [] })).body.error.message).toBe('users: must name at least one user');
    expect((await h().owner.get(path)).body).toEqual({ items: [], count: 0 });
    expect((await h().owner.get(`/v1/spaces/${space.id}/change-requests/${changeRequest.id}`)).body.status).toBe('draft');
  });

  it('withdraws a request (205, also for a user not asked); needs the edit level, as asking does', async () => {
    const { path } = await draft();
    const reviewer = await h().user('review');
    const commenter = await h().user('comment');
    expect((await h().owner.post(path, { users: [reviewer.userId] })).status).toBe(200);
    const refused = await commenter.post(path, { users: [reviewer.userId] });
    expect(refused.status).toBe(403);
    expect((await commenter.delete(`${path}/${reviewer.userId}`)).status).toBe(403);
    expect((await h().owner.delete(`${path}/${reviewer.userId}`)).status).toBe(205);
    expect((await h().owner.get(path)).body.count).toBe(0);
    expect((await h().owner.delete(`${path}/${reviewer.userId}`)).status).toBe(205);
    // Another organization sees no such change request.
    const other = await h().organization();
    expect((await other.owner.get(path)).status).toBe(404);
    expect((await other.owner.post(path, { users: [reviewer.userId] })).status).toBe(404);
  });

  it('refuses to ask for reviews of a merged or archived change request (409)', async () => {
    const { space, changeRequest, path } = await draft();
    const reviewer = await h().user('review');
    expect((await h().owner.patch(`/v1/spaces/${space.id}/change-requests/${changeRequest.id}`, { status: 'archived' })).status).toBe(200);
    const archived = await h().owner.post(path, { users: [reviewer.userId] });
    expect([archived.status, archived.body.error.message]).toEqual([409, `Change request ${changeRequest.number} is archived: set its status to draft or open to ask for reviews`]);
    expect((await h().owner.patch(`/v1/spaces/${space.id}/change-requests/${changeRequest.id}`, { status: 'open' })).status).toBe(200);
    h().clock.advance(1000);
    expect((await h().owner.post(`/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, {})).status).toBe(200);
    expect((await h().owner.post(path, { users: [reviewer.userId] })).status).toBe(409);
  });
});
