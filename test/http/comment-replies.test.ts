import { expect, it } from 'vitest';
import type { MemberRole } from '../../src/core/roles.js';
import { expectRefusals } from './bad-input.js';
import { commentHelpers, idsOf } from './comment-helpers.js';
import { httpSuite, walkPages, type Caller } from './harness.js';

/**
 * Replies to space comments: every field, the thread's order and paging, bodies in both formats, edits
 * and reactions, deletes (the public API's DELETE, an extension route), the comment's exact `replies`
 * count, who may do what, and bad input that changes nothing.
 */

const REPLY_KEYS = ['body', 'id', 'object', 'permissions', 'postedAt', 'postedBy', 'reactions', 'urls'];
const ALL = { view: true, edit: true, reply: true, delete: true };

httpSuite('comment replies', (h) => {
  const { space, post, put, stored } = commentHelpers(h);
  const comments = (spaceId: string) => `/v1/spaces/${spaceId}/comments`;
  const comment = (spaceId: string, commentId: string) => `${comments(spaceId)}/${commentId}`;
  const replies = (spaceId: string, commentId: string) => `${comment(spaceId, commentId)}/replies`;
  const user = (caller: Caller) => expect.objectContaining({ object: 'user', id: caller.userId });

  /** A space with one comment by the owner. */
  async function thread() {
    const created = await space();
    const posted = await post(h().owner, comments(created.id), { body: { markdown: 'Question?' } });
    return { spaceId: created.id, commentId: posted.id, comment: posted };
  }

  async function replyCount(spaceId: string, commentId: string) {
    const response = await h().owner.get(comment(spaceId, commentId));
    expect(response.status, response.text).toBe(200);
    return response.body.replies as number;
  }

  it('replies with 200 and every field of the Comment reply table, and reads it back', async () => {
    const { spaceId, commentId } = await thread();
    const ann = await h().user('comment');
    h().clock.advance(60_000);
    const response = await ann.post(replies(spaceId, commentId), { body: { markdown: 'Answer: **yes**' } });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(REPLY_KEYS);
    expect(response.body).toEqual({
      object: 'comment-reply',
      id: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
      postedBy: user(ann),
      postedAt: '2026-03-01T10:01:02.000Z',
      reactions: [],
      body: { markdown: 'Answer: **yes**\n' },
      urls: { location: expect.stringMatching(new RegExp(`^http://[^/]+/v1/spaces/${spaceId}/comments/${commentId}/replies/${response.body.id}$`)) },
      permissions: ALL,
    });
    const read = await ann.get(`${replies(spaceId, commentId)}/${response.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(response.body);
    // The owner sees the same reply with its own permissions: an admin of the space may edit and delete it.
    expect((await h().owner.get(`${replies(spaceId, commentId)}/${response.body.id}`)).body).toEqual({ ...response.body, permissions: ALL });
    expect(await replyCount(spaceId, commentId)).toBe(1);
    // The document format, on get and list.
    const document = (await ann.get(`${replies(spaceId, commentId)}/${response.body.id}?format=document`)).body.body.document;
    expect(document.nodes[0].nodes[0].leaves).toEqual([
      { object: 'leaf', text: 'Answer: ', marks: [] },
      { object: 'leaf', text: 'yes', marks: [{ object: 'mark', type: 'bold' }] },
    ]);
    expect((await ann.get(`${replies(spaceId, commentId)}?format=document`)).body.items[0].body.document).toEqual(document);
  });

  it('lists a thread oldest first with exact counts and paging; a reply does not reopen a resolved comment', async () => {
    const { spaceId, commentId } = await thread();
    const ann = await h().user('comment');
    const posted: string[] = [];
    for (let i = 0; i < 5; i++) posted.push((await post(i % 2 ? ann : h().owner, replies(spaceId, commentId), { body: { markdown: `R${i}` } })).id);
    const list = await h().owner.get(replies(spaceId, commentId));
    expect(idsOf(list)).toEqual(posted);
    expect(list.body.count).toBe(5);
    expect(list.body.items.map((item: any) => item.body.markdown)).toEqual(['R0\n', 'R1\n', 'R2\n', 'R3\n', 'R4\n']);
    expect((await walkPages(h().owner, replies(spaceId, commentId), 2)).map((item) => item.id)).toEqual(posted);
    expect(await replyCount(spaceId, commentId)).toBe(5);
    await put(h().owner, comment(spaceId, commentId), { resolved: true });
    await post(ann, replies(spaceId, commentId), { body: { markdown: 'After' } });
    const after = await h().owner.get(comment(spaceId, commentId));
    expect(after.body).toMatchObject({ status: 'resolved', replies: 6 });
    // Another comment's thread is its own.
    const other = await post(h().owner, comments(spaceId));
    expect((await h().owner.get(replies(spaceId, other.id))).body).toEqual({ items: [], count: 0 });
  });

  it('edits a reply (editedAt on a real change) and keeps its reactions per user and emoji', async () => {
    const { spaceId, commentId } = await thread();
    const ann = await h().user('comment');
    const ben = await h().user('edit');
    const reply = await post(ann, replies(spaceId, commentId), { body: { markdown: 'Frist' } });
    const at = `${replies(spaceId, commentId)}/${reply.id}`;
    h().clock.advance(1000);
    expect(await put(ann, at, { body: { markdown: 'Frist' } })).toEqual(reply);
    const edited = await put(ann, at, { body: { markdown: 'First' } });
    expect(edited).toEqual({ ...reply, body: { markdown: 'First\n' }, editedAt: '2026-03-01T10:00:04.000Z' });
    h().clock.advance(1000);
    await put(ben, at, { addedReactions: ['👀'] });
    const reacted = await put(ann, at, { addedReactions: ['👀', '1f44d'] });
    expect(reacted.reactions).toEqual([
      {
        emoji: '👀',
        count: 2,
        users: [
          { user: user(ben), reactedAt: '2026-03-01T10:00:05.000Z' },
          { user: user(ann), reactedAt: '2026-03-01T10:00:05.000Z' },
        ],
      },
      { emoji: '👍', count: 1, users: [{ user: user(ann), reactedAt: '2026-03-01T10:00:05.000Z' }] },
    ]);
    expect(reacted.editedAt).toBe(edited.editedAt);
    // Idempotent: adding again, removing what one did not add.
    expect((await put(ben, at, { addedReactions: ['👀'], removedReactions: ['👍'] })).reactions).toEqual(reacted.reactions);
    expect((await put(ann, at, { removedReactions: ['👀', '👍'] })).reactions).toEqual([
      { emoji: '👀', count: 1, users: [{ user: user(ben), reactedAt: '2026-03-01T10:00:05.000Z' }] },
    ]);
    // An update with an empty body empties it.
    expect((await put(ann, at, { body: {} })).body).toEqual({ markdown: '' });
  });

  it('deletes a reply with 205 (author or space admin) and counts exactly', async () => {
    const { spaceId, commentId } = await thread();
    const ann = await h().user('comment');
    const ben = await h().user('review');
    const mine = await post(ann, replies(spaceId, commentId));
    const bens = await post(ben, replies(spaceId, commentId));
    const third = await post(ben, replies(spaceId, commentId));
    expect(await replyCount(spaceId, commentId)).toBe(3);
    const before = await stored();
    const refused = await ann.delete(`${replies(spaceId, commentId)}/${bens.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Only its author (at the comment level or above) or an admin of the space (the create level or above) may delete it');
    expect(await stored()).toEqual(before);
    const deleted = await ann.delete(`${replies(spaceId, commentId)}/${mine.id}`);
    expect(deleted.status).toBe(205);
    expect(deleted.text).toBe('');
    expect((await h().owner.delete(`${replies(spaceId, commentId)}/${bens.id}`)).status).toBe(205);
    expect((await h().owner.delete(`${replies(spaceId, commentId)}/${bens.id}`)).status).toBe(404);
    expect(idsOf(await h().owner.get(replies(spaceId, commentId)))).toEqual([third.id]);
    expect(await replyCount(spaceId, commentId)).toBe(1);
  });

  it('refuses a reply to a missing comment, a reply of another comment, and bad bodies, storing nothing', async () => {
    const { spaceId, commentId } = await thread();
    const other = await post(h().owner, comments(spaceId));
    const reply = await post(h().owner, replies(spaceId, commentId));
    const elsewhere = await space();
    // The space route takes no format on a post (the specification gives it to change requests only): ignored.
    expect((await h().owner.post(`${replies(spaceId, commentId)}?format=document`, { body: { markdown: 'x' } })).body.body).toEqual({ markdown: 'x\n' });
    const before = await stored();
    for (const response of [
      await h().owner.post(replies(spaceId, 'no-such-comment'), { body: { markdown: 'Hello?' } }),
      await h().owner.get(replies(spaceId, 'no-such-comment')),
      await h().owner.post(replies(elsewhere.id, commentId), { body: { markdown: 'Hello?' } }),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.error.message).toMatch(/^No comment \S+ in space \S+$/);
    }
    for (const response of [
      await h().owner.get(`${replies(spaceId, other.id)}/${reply.id}`),
      await h().owner.put(`${replies(spaceId, other.id)}/${reply.id}`, { body: { markdown: 'x' } }),
      await h().owner.delete(`${replies(spaceId, other.id)}/${reply.id}`),
      await h().owner.get(`${replies(spaceId, commentId)}/no-such-reply`),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.error.message).toMatch(/^No reply \S+ to comment \S+$/);
    }
    await expectRefusals((body) => h().owner.post(replies(spaceId, commentId), body), [
      [{}, /^body: is required$/],
      [{ body: [] }, /^body: /],
      [{ body: { markdown: 'x'.repeat(20_001) } }, /^body\.markdown: must be at most 20000 characters$/],
      [{ body: { document: { object: 'document', nodes: [{ object: 'text' }] } } }, /^body\.document\.nodes\[0\]\.object: must be block$/],
    ]);
    await expectRefusals((body) => h().owner.put(`${replies(spaceId, commentId)}/${reply.id}`, body), [
      [{ body: { markdown: 'x', document: { object: 'document', nodes: [] } } }, /^body: must have markdown or document, not both$/],
      [{ addedReactions: ['not an emoji'] }, /^addedReactions\.0: must be an emoji/],
      [{ addedReactions: ['👍'], removedReactions: ['1f44d'] }, /^addedReactions: 👍 is also in removedReactions/],
    ]);
    expect(await stored()).toEqual(before);
  });

  it('lets the comment level and up reply and react, authors and space admins edit and delete', async () => {
    const { spaceId, commentId } = await thread();
    const ownerReply = await post(h().owner, replies(spaceId, commentId));
    const roles: (MemberRole | null)[] = ['admin', 'create', 'review', 'edit', 'comment', 'read', null];
    for (const role of roles) {
      const caller = await h().user(role);
      const label = String(role);
      const mayRead = role !== null;
      const mayComment = !['read', null].includes(role);
      const mayManage = ['admin', 'create'].includes(role as string);
      const list = await caller.get(replies(spaceId, commentId));
      expect(list.status, label).toBe(mayRead ? 200 : 403);
      if (mayRead) {
        const entry = list.body.items.find((item: any) => item.id === ownerReply.id);
        expect(entry.permissions, label).toEqual({ view: true, reply: mayComment, edit: mayManage, delete: mayManage });
      }
      const mine = await caller.post(replies(spaceId, commentId), { body: { markdown: label } });
      expect(mine.status, label).toBe(mayComment ? 200 : 403);
      if (mayComment) {
        const at = `${replies(spaceId, commentId)}/${mine.body.id}`;
        expect((await caller.put(at, { body: { markdown: 'Edited' }, addedReactions: ['✅'] })).status, label).toBe(200);
        expect((await caller.delete(at)).status, label).toBe(205);
      }
      const react = await caller.put(`${replies(spaceId, commentId)}/${ownerReply.id}`, { addedReactions: ['👍'] });
      expect(react.status, label).toBe(mayComment ? 200 : 403);
      const edit = await caller.put(`${replies(spaceId, commentId)}/${ownerReply.id}`, { body: { markdown: `By ${label}` } });
      expect(edit.status, label).toBe(mayManage ? 200 : 403);
    }
    expect(await replyCount(spaceId, commentId)).toBe(1);
    const reactions = (await h().owner.get(`${replies(spaceId, commentId)}/${ownerReply.id}`)).body.reactions;
    expect(reactions).toHaveLength(1);
    expect(reactions[0].count).toBe(5);
  });
});
