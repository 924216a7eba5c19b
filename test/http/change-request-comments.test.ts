import { expect, it } from 'vitest';
import { expectRefusals } from './bad-input.js';
import { commentHelpers, idsOf } from './comment-helpers.js';
import { httpSuite } from './harness.js';

/**
 * Change request comments: the space comment operations under `/change-requests/{changeRequestId}/comments`
 * (by id or number), with the differences the specification lists (`format` on posting a reply), pages of
 * the request's own revision as targets, the request's exact `comments` count, and the separation from
 * the space's own discussions.
 */

httpSuite('change request comments', (h) => {
  const { space, spaceWithPages, changeRequest, author, merge, post, put, stored, spaceCount } = commentHelpers(h);
  const base = (spaceId: string, changeRequestId: string | number) => `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/comments`;

  async function requestCount(spaceId: string, changeRequestId: string) {
    const response = await h().owner.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}`);
    expect(response.status, response.text).toBe(200);
    return response.body.comments as number;
  }

  it('posts in a change request by id or number, with its target, location and count', async () => {
    const created = await space();
    const request = await changeRequest(created.id);
    h().clock.advance(60_000);
    const byId = await post(h().owner, base(created.id, request.id), { body: { markdown: 'Why this change?' } });
    const byNumber = await post(h().owner, base(created.id, request.number), { body: { markdown: 'And this?' } });
    expect(byId).toMatchObject({
      object: 'comment',
      status: 'open',
      replies: 0,
      body: { markdown: 'Why this change?\n' },
      target: { space: created.id, changeRequest: request.id, revision: request.revision },
    });
    expect(byId.urls.location).toMatch(new RegExp(`/v1/spaces/${created.id}/change-requests/${request.id}/comments/${byId.id}$`));
    expect(byNumber.target.changeRequest).toBe(request.id);
    for (const ref of [request.id, request.number]) {
      expect(idsOf(await h().owner.get(base(created.id, ref)))).toEqual([byNumber.id, byId.id]);
      expect((await h().owner.get(`${base(created.id, ref)}/${byId.id}`)).body).toEqual(byId);
    }
    expect(await requestCount(created.id, request.id)).toBe(2);
    // The space's own discussions do not include them.
    expect(await spaceCount(created.id)).toBe(0);
    expect((await h().owner.get(`/v1/spaces/${created.id}/comments`)).body).toEqual({ items: [], count: 0 });
  });

  it('keeps the request and the space apart: a comment of one is not found through the other', async () => {
    const created = await space();
    const first = await changeRequest(created.id);
    const second = await changeRequest(created.id);
    const onSpace = await post(h().owner, `/v1/spaces/${created.id}/comments`);
    const onFirst = await post(h().owner, base(created.id, first.id));
    const elsewhere = await space();
    const before = await stored();
    for (const [path, name] of [
      [`${base(created.id, first.id)}/${onSpace.id}`, `change request 1 of space ${created.id}`],
      [`${base(created.id, second.number)}/${onFirst.id}`, `change request 2 of space ${created.id}`],
      [`/v1/spaces/${created.id}/comments/${onFirst.id}`, `space ${created.id}`],
    ]) {
      for (const response of [await h().owner.get(path), await h().owner.put(path, { resolved: true }), await h().owner.delete(path)]) {
        expect(response.status).toBe(404);
        expect(response.body.error.message).toBe(`No comment ${path.split('/').pop()} in ${name}`);
      }
    }
    // An unknown request, or one of another space, is a 404 too.
    for (const path of [base(created.id, 'no-such-request'), base(created.id, 99), base(elsewhere.id, first.id), base(elsewhere.id, 1)]) {
      const response = await h().owner.post(path, { body: { markdown: 'x' } });
      expect(response.status, path).toBe(404);
      expect(response.body.error.message).toMatch(/^No change request \S+ in space \S+$/);
    }
    expect(await stored()).toEqual(before);
  });

  it('counts the open comments of each request exactly through create, resolve, reopen and delete', async () => {
    const created = await space();
    const first = await changeRequest(created.id);
    const second = await changeRequest(created.id);
    const a = await post(h().owner, base(created.id, first.id));
    const b = await post(h().owner, base(created.id, first.id));
    await post(h().owner, base(created.id, second.id));
    await post(h().owner, `/v1/spaces/${created.id}/comments`);
    expect([await requestCount(created.id, first.id), await requestCount(created.id, second.id), await spaceCount(created.id)]).toEqual([2, 1, 1]);
    await put(h().owner, `${base(created.id, first.id)}/${a.id}`, { resolved: true });
    expect(await requestCount(created.id, first.id)).toBe(1);
    const listed = await h().owner.get(`/v1/spaces/${created.id}/change-requests?status=draft`);
    expect(listed.body.items.map((item: any) => [item.number, item.comments])).toEqual([
      [2, 1],
      [1, 1],
    ]);
    expect((await h().owner.delete(`${base(created.id, first.id)}/${b.id}`)).status).toBe(205);
    expect(await requestCount(created.id, first.id)).toBe(0);
    await put(h().owner, `${base(created.id, first.number)}/${a.id}`, { resolved: false });
    expect(await requestCount(created.id, first.id)).toBe(1);
    expect(idsOf(await h().owner.get(`${base(created.id, first.id)}?status=open`))).toEqual([a.id]);
    expect(idsOf(await h().owner.get(`${base(created.id, first.id)}?status=resolved`))).toEqual([]);
    expect(await spaceCount(created.id)).toBe(1);
  });

  it("targets the request's own pages, outdated once the request changes them", async () => {
    const { space: created, pages } = await spaceWithPages([{ title: 'Main', markdown: 'On main.' }]);
    const request = await changeRequest(created.id);
    const [draftPage] = await author(created.id, request.id, [{ operation: 'insert_page', title: 'Draft page', document: { markdown: 'New **text**.' } }]);
    const revision = (await h().owner.get(`/v1/spaces/${created.id}/change-requests/${request.id}`)).body.revision;
    const onDraft = await post(h().owner, base(created.id, request.id), { body: { markdown: 'Typo?' }, page: draftPage, node: 'k1' });
    expect(onDraft.target).toMatchObject({
      changeRequest: request.id,
      revision,
      page: { id: draftPage, title: 'Draft page', path: 'draft-page', outdated: false },
      node: { id: 'k1', preview: 'New text.' },
    });
    // The main page is in the request too (it started from the space); the request's page is not on the space.
    await post(h().owner, base(created.id, request.id), { body: { markdown: 'Main?' }, page: pages[0] });
    const before = await stored();
    const refused = await h().owner.post(`/v1/spaces/${created.id}/comments`, { body: { markdown: 'x' }, page: draftPage });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(`page: no page ${draftPage} in space ${created.id}`);
    expect(await stored()).toEqual(before);
    h().clock.advance(60_000);
    await author(created.id, request.id, [{ operation: 'update_page', page: draftPage, document: { markdown: 'Fixed text.' } }]);
    const after = await h().owner.get(`${base(created.id, request.id)}/${onDraft.id}`);
    expect(after.body.target).toMatchObject({ revision, page: { id: draftPage, outdated: true } });
    expect(idsOf(await h().owner.get(`${base(created.id, request.id)}?targetPage=${draftPage}`))).toEqual([onDraft.id]);
  });

  it('replies in a request; posting a reply takes format; lists, gets, updates and deletes replies', async () => {
    const created = await space();
    const request = await changeRequest(created.id);
    const posted = await post(h().owner, base(created.id, request.number));
    const replies = `${base(created.id, request.number)}/${posted.id}/replies`;
    const ann = await h().user('comment');
    h().clock.advance(1000);
    const asDocument = await ann.post(`${replies}?format=document`, { body: { markdown: 'Agreed' } });
    expect(asDocument.status).toBe(200);
    expect(asDocument.body.body).toEqual({
      document: {
        object: 'document',
        data: {},
        nodes: [{ object: 'block', type: 'paragraph', key: 'k1', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Agreed', marks: [] }] }] }],
      },
    });
    expect(asDocument.body.urls.location).toMatch(new RegExp(`/change-requests/${request.id}/comments/${posted.id}/replies/${asDocument.body.id}$`));
    const asMarkdown = await post(ann, replies, { body: { markdown: 'Second' } });
    expect(asMarkdown.body).toEqual({ markdown: 'Second\n' });
    expect(idsOf(await h().owner.get(replies))).toEqual([asDocument.body.id, asMarkdown.id]);
    expect((await h().owner.get(`${base(created.id, request.id)}/${posted.id}`)).body.replies).toBe(2);
    const updated = await put(ann, `${replies}/${asMarkdown.id}`, { body: { markdown: 'Second, edited' }, addedReactions: ['👍'] });
    expect(updated).toMatchObject({ body: { markdown: 'Second, edited\n' }, reactions: [{ emoji: '👍', count: 1 }] });
    expect((await h().owner.get(`${replies}/${asMarkdown.id}?format=markdown`)).body).toEqual({ ...updated, permissions: updated.permissions });
    expect((await ann.delete(`${replies}/${asMarkdown.id}`)).status).toBe(205);
    expect((await h().owner.get(`${base(created.id, request.id)}/${posted.id}`)).body.replies).toBe(1);
    // Deleting the comment takes its replies.
    expect((await h().owner.delete(`${base(created.id, request.id)}/${posted.id}`)).status).toBe(205);
    expect((await stored()).replies).toEqual([]);
  });

  it('applies the same rules and filters, and keeps discussing a merged request', async () => {
    const created = await space();
    const request = await changeRequest(created.id);
    const reader = await h().user('read');
    const commenter = await h().user('comment');
    const mine = await post(commenter, base(created.id, request.id), { body: { markdown: 'Mine' } });
    const owners = await post(h().owner, base(created.id, request.id), { body: { markdown: 'Owner' } });
    expect((await reader.get(base(created.id, request.id))).status).toBe(200);
    const before = await stored();
    const refused = await reader.post(base(created.id, request.id), { body: { markdown: 'x' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(`You need the comment level or above on change request 1 of space ${created.id} to comment on it`);
    expect((await commenter.put(`${base(created.id, request.id)}/${owners.id}`, { resolved: true })).status).toBe(403);
    expect((await commenter.delete(`${base(created.id, request.id)}/${owners.id}`)).status).toBe(403);
    expect(await stored()).toEqual(before);
    expect(idsOf(await h().owner.get(`${base(created.id, request.id)}?authors=${commenter.userId}`))).toEqual([mine.id]);
    expect(idsOf(await h().owner.get(`${base(created.id, request.id)}?order=asc`))).toEqual([mine.id, owners.id]);
    await merge(created.id, request.id);
    const later = await post(commenter, base(created.id, request.number), { body: { markdown: 'After the merge' } });
    expect(await requestCount(created.id, request.id)).toBe(3);
    expect(later.target.changeRequest).toBe(request.id);
    expect((await h().request('GET', base(created.id, request.id))).status).toBe(401);
  });

  it('refuses bad input with 400 or 404 and stores nothing', async () => {
    const created = await space();
    const request = await changeRequest(created.id);
    const posted = await post(h().owner, base(created.id, request.id));
    const before = await stored();
    await expectRefusals((body) => h().owner.post(base(created.id, request.id), body), [
      [{}, /^body: is required$/],
      [{ body: { text: 'x' } }, /^body\.text: /],
      [{ body: {}, page: 'missing' }, new RegExp(`^page: no page missing in change request 1 of space ${created.id}$`)],
    ]);
    await expectRefusals((query: string) => h().owner.post(`${base(created.id, request.id)}/${posted.id}/replies?${query}`, { body: {} }), [
      ['format=html', /^format: must be /],
    ]);
    await expectRefusals(
      (path: string) => h().owner.post(path, { body: { markdown: 'Reply' } }),
      [[`${base(created.id, request.id)}/missing/replies`, /^No comment missing in change request 1 of space /]],
      404,
    );
    await expectRefusals((body) => h().owner.put(`${base(created.id, request.id)}/${posted.id}`, body), [
      [{ removedReactions: ['nope'] }, /^removedReactions\.0: must be an emoji/],
      [{ resolved: 'true' }, /^resolved: /],
    ]);
    expect(await stored()).toEqual(before);
  });
});
