import { expect, it } from 'vitest';
import { INDEXES, TABLES } from '../../src/core/records.js';
import type { MemberRole } from '../../src/core/roles.js';
import { RESTORE_WINDOW_MS } from '../../src/core/spaces/trash.js';
import { expectRefusals } from './bad-input.js';
import { authorsOf, commentHelpers, idsOf } from './comment-helpers.js';
import { httpSuite, walkPages, type Caller } from './harness.js';

/**
 * Space comments: every field of a comment, bodies in both formats, targets and `outdated`, each list
 * filter, resolution, reactions, who may do what, deletes, `space.comments`, the space lifecycle, and
 * bad input that changes nothing.
 */

const COMMENT_KEYS = ['body', 'id', 'object', 'permissions', 'postedAt', 'postedBy', 'reactions', 'replies', 'status', 'target', 'urls'];
const ALL = { view: true, edit: true, reply: true, delete: true };

httpSuite('space comments', (h) => {
  const { space, spaceWithPages, edit, post, put, stored, spaceCount } = commentHelpers(h);
  const comments = (spaceId: string) => `/v1/spaces/${spaceId}/comments`;
  const comment = (spaceId: string, commentId: string) => `${comments(spaceId)}/${commentId}`;
  const user = (caller: Caller) => expect.objectContaining({ object: 'user', id: caller.userId });

  it('posts a comment with 200 and every field of the Comment table, and reads it back', async () => {
    const created = await space();
    h().clock.advance(60_000);
    const response = await h().owner.post(comments(created.id), { body: { markdown: 'Looks *good*' } });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(COMMENT_KEYS);
    expect(response.body).toEqual({
      object: 'comment',
      id: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
      postedBy: {
        object: 'user',
        id: h().owner.userId,
        displayName: 'Olive Owner',
        email: 'owner@acme.test',
        urls: { location: expect.stringMatching(new RegExp(`/v1/users/${h().owner.userId}$`)) },
      },
      postedAt: '2026-03-01T10:01:01.000Z',
      reactions: [],
      replies: 0,
      body: { markdown: 'Looks _good_\n' },
      target: { space: created.id, revision: created.revision },
      urls: { location: expect.stringMatching(new RegExp(`^http://[^/]+/v1/spaces/${created.id}/comments/${response.body.id}$`)) },
      permissions: ALL,
      status: 'open',
    });
    const read = await h().owner.get(comment(created.id, response.body.id));
    expect(read.status).toBe(200);
    expect(read.body).toEqual(response.body);
    expect(await spaceCount(created.id)).toBe(1);
  });

  it('takes a body as Markdown, as a JSON document or empty, and returns it in either format', async () => {
    const created = await space();
    const document = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          key: 'k1',
          data: {},
          nodes: [
            {
              object: 'text',
              leaves: [
                { object: 'leaf', text: 'Hello ', marks: [] },
                { object: 'leaf', text: 'there', marks: [{ object: 'mark', type: 'bold' }] },
              ],
            },
          ],
        },
      ],
    };
    const fromMarkdown = await post(h().owner, comments(created.id), { body: { markdown: 'Hello **there**' } });
    const fromDocument = await post(h().owner, comments(created.id), { body: { document } });
    const empty = await post(h().owner, comments(created.id), { body: {} });
    expect(fromMarkdown.body).toEqual({ markdown: 'Hello **there**\n' });
    expect(fromDocument.body).toEqual({ markdown: 'Hello **there**\n' });
    expect(empty.body).toEqual({ markdown: '' });
    for (const id of [fromMarkdown.id, fromDocument.id]) {
      expect((await h().owner.get(`${comment(created.id, id)}?format=document`)).body.body).toEqual({ document });
      expect((await h().owner.get(`${comment(created.id, id)}?format=markdown`)).body.body).toEqual({ markdown: 'Hello **there**\n' });
    }
    expect((await h().owner.get(`${comment(created.id, empty.id)}?format=document`)).body.body).toEqual({
      document: { object: 'document', data: {}, nodes: [] },
    });
    const listed = await h().owner.get(`${comments(created.id)}?format=document`);
    expect(listed.body.items.map((item: any) => item.body)).toEqual([{ document: { object: 'document', data: {}, nodes: [] } }, { document }, { document }]);
  });

  it('targets a page and a node of it, and marks the target outdated once the page changes or goes', async () => {
    const { space: created, pages } = await spaceWithPages([
      { title: 'Guide', markdown: 'First paragraph of the **guide**.\n\n- one\n- two\n' },
      { title: 'Other', markdown: 'Untouched.' },
    ]);
    const [guide, other] = pages;
    const spaceRevision = (await h().owner.get(`/v1/spaces/${created.id}`)).body.revision;
    const onPage = await post(h().owner, comments(created.id), { body: { markdown: 'On the page' }, page: guide });
    const onNode = await post(h().owner, comments(created.id), { body: { markdown: 'On a node' }, page: guide, node: 'k1' });
    const onItem = await post(h().owner, comments(created.id), { body: { markdown: 'On an item' }, page: guide, node: 'k3' });
    const onOther = await post(h().owner, comments(created.id), { body: { markdown: 'Elsewhere' }, page: other });
    const guidePage = (await h().owner.get(`/v1/spaces/${created.id}/content/page/${guide}`)).body;
    const pageTarget = {
      id: guide,
      title: 'Guide',
      createdAt: guidePage.createdAt,
      updatedAt: guidePage.updatedAt,
      path: 'guide',
      outdated: false,
    };
    expect(onPage.target).toEqual({ space: created.id, revision: spaceRevision, page: pageTarget });
    expect(onNode.target).toEqual({ space: created.id, revision: spaceRevision, page: pageTarget, node: { id: 'k1', preview: 'First paragraph of the guide.' } });
    expect(onItem.target.node).toEqual({ id: 'k3', preview: 'one' });
    expect(onOther.target.page).toMatchObject({ id: other, title: 'Other', path: 'other', outdated: false });

    // The guide changes (title and body): its comments show it as it is now, outdated; the other page's stay current.
    h().clock.advance(60_000);
    await edit(created.id, [{ operation: 'update_page', page: guide, title: 'Guide v2', document: { markdown: 'Rewritten.' } }]);
    const after = await h().owner.get(comment(created.id, onPage.id));
    expect(after.body.target).toEqual({
      space: created.id,
      revision: spaceRevision,
      page: { ...pageTarget, title: 'Guide v2', updatedAt: expect.not.stringMatching(guidePage.updatedAt), outdated: true },
    });
    expect((await h().owner.get(comment(created.id, onOther.id))).body.target.page.outdated).toBe(false);
    // Filtering by page still finds them; the other page is deleted: its comment keeps its last known title, outdated.
    await edit(created.id, [{ operation: 'delete_page', page: other }]);
    const gone = await h().owner.get(comment(created.id, onOther.id));
    expect(gone.body.target.page).toMatchObject({ id: other, title: 'Other', path: 'other', outdated: true });
    const listed = await h().owner.get(`${comments(created.id)}?targetPage=${guide}`);
    expect(idsOf(listed)).toEqual([onItem.id, onNode.id, onPage.id]);
  });

  it('refuses a bad post with 400 naming the field (empty body, unknown page or node), and stores nothing', async () => {
    const { space: created, pages } = await spaceWithPages([{ title: 'Guide', markdown: 'Text.' }]);
    await post(h().owner, comments(created.id));
    const before = await stored();
    await expectRefusals((body) => h().owner.post(comments(created.id), body), [
      [{}, /^body: is required$/],
      [{ body: null }, /^body: /],
      [{ body: 'Just text' }, /^body: /],
      [{ body: [] }, /^body: must be an object, not an array$/],
      [{ body: { markdown: 42 } }, /^body\.markdown: /],
      [{ body: { markdown: 'x'.repeat(20_001) } }, /^body\.markdown: must be at most 20000 characters$/],
      [{ body: { html: '<p>x</p>' } }, /^body\.html: /],
      [{ body: { markdown: 'a', document: { object: 'document', data: {}, nodes: [] } } }, /^body: must have markdown or document, not both$/],
      [{ body: { document: { object: 'page', nodes: [] } } }, /^body\.document\.object: must be document$/],
      [{ body: { document: { object: 'document', nodes: [{ object: 'block', type: 'marquee' }] } } }, /^body\.document\.nodes\[0\]\.type: /],
      [{ body: { markdown: 'x' }, page: 'no-such-page' }, new RegExp(`^page: no page no-such-page in space ${created.id}$`)],
      [{ body: { markdown: 'x' }, page: '' }, /^page: must not be empty$/],
      [{ body: { markdown: 'x' }, node: 'k1' }, /^node: a node is part of a page; give its page too$/],
      [{ body: { markdown: 'x' }, page: pages[0], node: 'k99' }, new RegExp(`^node: no node k99 in page ${pages[0]}`)],
    ]);
    // No body at all is refused as well.
    const bare = await h().request('POST', comments(created.id), { token: h().owner.token });
    expect(bare.status).toBe(400);
    expect(await stored()).toEqual(before);
  });

  it('lists newest first by default, oldest first with order=asc, with exact counts and stable paging', async () => {
    const created = await space();
    const posted: string[] = [];
    for (let i = 0; i < 7; i++) posted.push((await post(h().owner, comments(created.id), { body: { markdown: `Comment ${i}` } })).id);
    const newest = await h().owner.get(comments(created.id));
    expect(idsOf(newest)).toEqual([...posted].reverse());
    expect(newest.body.count).toBe(7);
    expect(newest.body.next).toBeUndefined();
    expect(idsOf(await h().owner.get(`${comments(created.id)}?order=desc`))).toEqual([...posted].reverse());
    expect(idsOf(await h().owner.get(`${comments(created.id)}?order=asc`))).toEqual(posted);
    expect((await walkPages(h().owner, comments(created.id), 3)).map((item) => item.id)).toEqual([...posted].reverse());
    expect((await walkPages(h().owner, `${comments(created.id)}?order=asc`, 2)).map((item) => item.id)).toEqual(posted);
    const first = await h().owner.get(`${comments(created.id)}?limit=2`);
    expect(first.body.count).toBe(7);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.next.page).toEqual(expect.any(String));
  });

  it('filters by status, target page and authors, alone and together, with counts of the matches', async () => {
    const { space: created, pages } = await spaceWithPages([
      { title: 'A', markdown: 'a' },
      { title: 'B', markdown: 'b' },
    ]);
    const [a, b] = pages;
    const ann = await h().user('comment');
    const ben = await h().user('edit');
    const c1 = await post(ann, comments(created.id), { body: { markdown: '1' }, page: a });
    const c2 = await post(ben, comments(created.id), { body: { markdown: '2' }, page: a });
    const c3 = await post(ann, comments(created.id), { body: { markdown: '3' }, page: b });
    const c4 = await post(h().owner, comments(created.id), { body: { markdown: '4' } });
    const c5 = await post(ben, comments(created.id), { body: { markdown: '5' }, page: b });
    await put(h().owner, comment(created.id, c2.id), { resolved: true });
    await put(ann, comment(created.id, c3.id), { resolved: true });
    const list = async (query: string) => {
      const response = await h().owner.get(`${comments(created.id)}?${query}`);
      expect(response.status, `${query}: ${response.text}`).toBe(200);
      expect(response.body.count, query).toBe(response.body.items.length);
      return idsOf(response);
    };
    expect(await list('')).toEqual([c5.id, c4.id, c3.id, c2.id, c1.id]);
    expect(await list('status=all')).toEqual([c5.id, c4.id, c3.id, c2.id, c1.id]);
    expect(await list('status=open')).toEqual([c5.id, c4.id, c1.id]);
    expect(await list('status=resolved')).toEqual([c3.id, c2.id]);
    expect(await list(`targetPage=${a}`)).toEqual([c2.id, c1.id]);
    expect(await list(`targetPage=${b}&status=open`)).toEqual([c5.id]);
    expect(await list('targetPage=no-such-page')).toEqual([]);
    expect(await list(`authors=${ann.userId}`)).toEqual([c3.id, c1.id]);
    expect(await list(`authors=${ann.userId}&authors=${h().owner.userId}`)).toEqual([c4.id, c3.id, c1.id]);
    expect(await list(`authors=${ben.userId},${h().owner.userId}&order=asc`)).toEqual([c2.id, c4.id, c5.id]);
    expect(await list(`authors=${ben.userId}&status=resolved&targetPage=${a}`)).toEqual([c2.id]);
    expect(await list(`authors=${ben.userId}&status=open&targetPage=${a}`)).toEqual([]);
    expect(await list('authors=nobody')).toEqual([]);
    expect(authorsOf(await h().owner.get(`${comments(created.id)}?status=open&order=asc`))).toEqual([ann.userId, h().owner.userId, ben.userId]);
    // Paging a filtered list walks exactly its matches.
    expect((await walkPages(h().owner, `${comments(created.id)}?status=open`, 1)).map((item) => item.id)).toEqual([c5.id, c4.id, c1.id]);
  });

  it('refuses bad list queries with 400', async () => {
    const created = await space();
    await expectRefusals((query: string) => h().owner.get(`${comments(created.id)}?${query}`), [
      ['status=closed', /^status: must be /],
      ['order=newest', /^order: must be /],
      ['format=html', /^format: must be /],
      ['limit=0', /^limit: must be at least 1$/],
      ['limit=1001', /^limit: must be at most 1000$/],
      ['page=not-a-cursor', /^page: is not a cursor this API returned$/],
      [`authors=${Array.from({ length: 101 }, (_, i) => `u${i}`).join(',')}`, /^authors: must have at most 100 entries$/],
    ]);
    await expectRefusals((query: string) => h().owner.get(`${comments(created.id)}/x?${query}`), [['format=pdf', /^format: must be /]]);
  });

  it('edits the body (editedAt moves only on a real change), resolves and reopens', async () => {
    const created = await space();
    const author = await h().user('comment');
    const posted = await post(author, comments(created.id), { body: { markdown: 'Draft' } });
    h().clock.advance(5000);
    const same = await put(author, comment(created.id, posted.id), { body: { markdown: 'Draft\n' } });
    expect(same).toEqual(posted);
    const edited = await put(author, comment(created.id, posted.id), { body: { markdown: 'Final' } });
    expect(edited).toEqual({ ...posted, body: { markdown: 'Final\n' }, editedAt: '2026-03-01T10:00:07.000Z' });
    expect(await spaceCount(created.id)).toBe(1);

    h().clock.advance(1000);
    const resolved = await put(h().owner, comment(created.id, posted.id), { resolved: true });
    expect(resolved).toEqual({
      ...edited,
      permissions: ALL,
      status: 'resolved',
      resolvedAt: '2026-03-01T10:00:08.000Z',
      resolvedBy: user(h().owner),
    });
    expect(await spaceCount(created.id)).toBe(0);
    // Resolving again changes nothing: the first resolution stands.
    h().clock.advance(1000);
    expect(await put(author, comment(created.id, posted.id), { resolved: true })).toEqual({ ...resolved, permissions: posted.permissions });
    // An empty update changes nothing either.
    expect(await put(author, comment(created.id, posted.id), {})).toEqual({ ...resolved, permissions: posted.permissions });

    const reopened = await put(author, comment(created.id, posted.id), { resolved: false });
    expect(reopened).toEqual(edited);
    expect(Object.keys(reopened)).not.toContain('resolvedAt');
    expect(await spaceCount(created.id)).toBe(1);
    expect(await put(author, comment(created.id, posted.id), { resolved: false })).toEqual(edited);
  });

  it('keeps reactions per user and emoji: idempotent adds and removes, counts and who reacted when', async () => {
    const created = await space();
    const ann = await h().user('comment');
    const ben = await h().user('read');
    const cal = await h().user('edit');
    const posted = await post(h().owner, comments(created.id));
    const at = comment(created.id, posted.id);
    h().clock.advance(1000);
    await put(ann, at, { addedReactions: ['👍', '🎉'] });
    h().clock.advance(1000);
    const both = await put(cal, at, { addedReactions: ['1f44d', '🎉', '🎉'] });
    expect(both.reactions).toEqual([
      {
        emoji: '👍',
        count: 2,
        users: [
          { user: user(ann), reactedAt: '2026-03-01T10:00:03.000Z' },
          { user: user(cal), reactedAt: '2026-03-01T10:00:04.000Z' },
        ],
      },
      {
        emoji: '🎉',
        count: 2,
        users: [
          { user: user(ann), reactedAt: '2026-03-01T10:00:03.000Z' },
          { user: user(cal), reactedAt: '2026-03-01T10:00:04.000Z' },
        ],
      },
    ]);
    // Reacting is not editing.
    expect(both.editedAt).toBeUndefined();
    // Adding again keeps the first reaction; removing one the user did not make changes nothing.
    h().clock.advance(1000);
    expect((await put(ann, at, { addedReactions: ['👍'], removedReactions: ['🚀'] })).reactions).toEqual(both.reactions);
    const removed = await put(ann, at, { removedReactions: ['👍', '🎉'] });
    expect(removed.reactions).toEqual([
      { emoji: '👍', count: 1, users: [{ user: user(cal), reactedAt: '2026-03-01T10:00:04.000Z' }] },
      { emoji: '🎉', count: 1, users: [{ user: user(cal), reactedAt: '2026-03-01T10:00:04.000Z' }] },
    ]);
    // The last user's removal takes the emoji away.
    expect((await put(cal, at, { removedReactions: ['1f389'] })).reactions).toEqual([removed.reactions[0]]);
    // Readers may not react.
    const before = await stored();
    const refused = await ben.put(at, { addedReactions: ['👍'] });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(`You need the comment level or above on space ${created.id} to react to its comments`);
    expect(await stored()).toEqual(before);
  });

  it('refuses a bad update with 400 (unknown reaction, both added and removed, bad body), and stores nothing', async () => {
    const created = await space();
    const posted = await post(h().owner, comments(created.id));
    await put(h().owner, comment(created.id, posted.id), { addedReactions: ['👍'] });
    const before = await stored();
    await expectRefusals((body) => h().owner.put(comment(created.id, posted.id), body), [
      [{ resolved: 'yes' }, /^resolved: /],
      [{ addedReactions: '👍' }, /^addedReactions: /],
      [{ addedReactions: ['smile'] }, /^addedReactions\.0: must be an emoji/],
      [{ removedReactions: ['', '👍'] }, /^removedReactions\.0: must be an emoji/],
      [{ addedReactions: ['x'.repeat(51)] }, /^addedReactions\.0: must be at most 50 characters$/],
      [{ addedReactions: Array.from({ length: 51 }, () => '👍') }, /^addedReactions: must have at most 50 entries$/],
      [{ addedReactions: ['🎉', '👍'], removedReactions: ['👍'] }, /^addedReactions: 👍 is also in removedReactions/],
      [{ body: { markdown: 'ok' }, addedReactions: ['nope'] }, /^addedReactions\.0: /],
      [{ body: { markdown: null } }, /^body\.markdown: /],
      [{ body: { document: { object: 'document', nodes: 'x' } }, resolved: true }, /^body\.document\.nodes: must be an array$/],
    ]);
    expect(await stored()).toEqual(before);
  });

  it('lets the comment level and up comment; the author or a space admin edit, resolve and delete', async () => {
    const created = await space();
    const roles: (MemberRole | null)[] = ['admin', 'create', 'review', 'edit', 'comment', 'read', null];
    const ownerComment = await post(h().owner, comments(created.id));
    for (const role of roles) {
      const caller = await h().user(role);
      const label = String(role);
      const list = await caller.get(comments(created.id));
      const mayRead = role !== null;
      const mayComment = !['read', null].includes(role);
      const mayManage = ['admin', 'create'].includes(role as string);
      expect(list.status, label).toBe(mayRead ? 200 : 403);
      const read = await caller.get(comment(created.id, ownerComment.id));
      expect(read.status, label).toBe(mayRead ? 200 : 403);
      if (mayRead) expect(read.body.permissions, label).toEqual({ view: true, reply: mayComment, edit: mayManage, delete: mayManage });
      const mine = await caller.post(comments(created.id), { body: { markdown: `By ${label}` } });
      expect(mine.status, label).toBe(mayComment ? 200 : 403);
      if (mayComment) {
        expect(mine.body.permissions, label).toEqual(ALL);
        expect((await caller.put(comment(created.id, mine.body.id), { resolved: true })).status, label).toBe(200);
        expect((await caller.put(comment(created.id, mine.body.id), { body: { markdown: 'Edited' } })).status, label).toBe(200);
        expect((await caller.delete(comment(created.id, mine.body.id))).status, label).toBe(205);
      } else if (mayRead) {
        expect(mine.body.error.message, label).toBe(`You need the comment level or above on space ${created.id} to comment on it`);
      }
      const before = await stored();
      const edit = await caller.put(comment(created.id, ownerComment.id), { body: { markdown: `Hijacked by ${label}` } });
      const resolve = await caller.put(comment(created.id, ownerComment.id), { resolved: true });
      expect(edit.status, label).toBe(mayManage ? 200 : 403);
      expect(resolve.status, label).toBe(mayManage ? 200 : 403);
      if (mayRead && !mayManage) {
        expect(edit.body.error.message).toBe('Only its author (at the comment level or above) or an admin of the space (the create level or above) may change it');
        expect(await stored()).toEqual(before);
        expect((await caller.delete(comment(created.id, ownerComment.id))).status, label).toBe(403);
      }
      if (mayManage) await put(h().owner, comment(created.id, ownerComment.id), { resolved: false });
    }
    // An admin of the space may delete anyone's comment.
    const creator = await h().user('create');
    expect((await creator.delete(comment(created.id, ownerComment.id))).status).toBe(205);
  });

  it('uses the level on the space: a capped member may only read, an author who lost the level may not edit', async () => {
    const created = await space();
    const editor = await h().user('edit');
    const posted = await post(editor, comments(created.id));
    expect((await h().owner.patch(`/v1/spaces/${created.id}`, { defaultLevel: 'read' })).status).toBe(200);
    const refused = await editor.post(comments(created.id), { body: { markdown: 'More' } });
    expect(refused.status).toBe(403);
    const own = await editor.get(comment(created.id, posted.id));
    expect(own.body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
    expect((await editor.put(comment(created.id, posted.id), { resolved: true })).status).toBe(403);
    expect((await editor.delete(comment(created.id, posted.id))).status).toBe(403);
    // A locked space still takes comments: they are not content.
    expect((await h().owner.patch(`/v1/spaces/${created.id}`, { defaultLevel: 'inherit', editMode: 'locked' })).status).toBe(200);
    await post(editor, comments(created.id));
    expect(await spaceCount(created.id)).toBe(2);
  });

  it('answers 404 outside the organization, 401 without a token, 404 for a comment of another space', async () => {
    const created = await space();
    const other = await space();
    const posted = await post(h().owner, comments(created.id));
    const outsider = (await h().organization()).owner;
    const before = await stored();
    for (const response of [
      await outsider.get(comments(created.id)),
      await outsider.post(comments(created.id), { body: { markdown: 'x' } }),
      await outsider.get(comment(created.id, posted.id)),
      await outsider.put(comment(created.id, posted.id), { resolved: true }),
      await outsider.delete(comment(created.id, posted.id)),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.error.message).toBe(`No space ${created.id}`);
    }
    expect((await h().request('GET', comments(created.id))).status).toBe(401);
    expect((await h().request('POST', comments(created.id), { token: 'dp_wrong', body: { body: {} } })).status).toBe(401);
    for (const response of [
      await h().owner.get(comment(other.id, posted.id)),
      await h().owner.put(comment(other.id, posted.id), { resolved: true }),
      await h().owner.delete(comment(other.id, posted.id)),
      await h().owner.get(comment(created.id, 'no-such-comment')),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.error.message).toMatch(/^No comment \S+ in space \S+$/);
    }
    expect((await h().owner.get(comments('no-such-space'))).status).toBe(404);
    expect(await stored()).toEqual(before);
  });

  it('deletes with 205, replies included; the count follows every create, resolve, reopen and delete', async () => {
    const created = await space();
    const kept = await post(h().owner, comments(created.id));
    const doomed = await post(h().owner, comments(created.id));
    for (let i = 0; i < 3; i++) await post(h().owner, `${comment(created.id, doomed.id)}/replies`, { body: { markdown: `Reply ${i}` } });
    expect(await spaceCount(created.id)).toBe(2);
    await put(h().owner, comment(created.id, kept.id), { resolved: true });
    expect(await spaceCount(created.id)).toBe(1);
    const deleted = await h().owner.delete(comment(created.id, doomed.id));
    expect(deleted.status).toBe(205);
    expect(deleted.text).toBe('');
    expect(await spaceCount(created.id)).toBe(0);
    expect((await h().owner.get(comment(created.id, doomed.id))).status).toBe(404);
    expect((await h().owner.delete(comment(created.id, doomed.id))).status).toBe(404);
    const held = await stored();
    expect(held.comments.map((record: any) => record.id)).toEqual([kept.id]);
    expect(held.replies).toEqual([]);
    await put(h().owner, comment(created.id, kept.id), { resolved: false });
    expect(await spaceCount(created.id)).toBe(1);
    // The space list shows the same count.
    const listed = (await h().owner.get(`/v1/orgs/${h().organizationId}/spaces`)).body.items.find((item: any) => item.id === created.id);
    expect(listed.comments).toBe(1);
  });

  it('hides the comments of a deleted space, brings them back on restore, and purges them after 7 days', async () => {
    const created = await space();
    const posted = await post(h().owner, comments(created.id));
    await post(h().owner, `${comment(created.id, posted.id)}/replies`, { body: { markdown: 'Reply' } });
    expect((await h().owner.delete(`/v1/spaces/${created.id}`)).status).toBe(205);
    for (const response of [await h().owner.get(comments(created.id)), await h().owner.post(comments(created.id), { body: {} })]) {
      expect(response.status).toBe(404);
      expect(response.body.error.message).toMatch(/is deleted; restore it first/);
    }
    expect((await h().owner.post(`/v1/spaces/${created.id}/restore`)).status).toBe(200);
    expect(idsOf(await h().owner.get(comments(created.id)))).toEqual([posted.id]);
    expect(await spaceCount(created.id)).toBe(1);
    expect((await h().owner.delete(`/v1/spaces/${created.id}`)).status).toBe(205);
    h().clock.advance(RESTORE_WINDOW_MS + 1000);
    expect(await h().platform.purgeDeletedSpaces()).toBe(1);
    const held = await h().platform.store.read(async (tx) => [
      ...(await tx.list(TABLES.comments, { index: INDEXES.commentsBySpace, value: created.id })).items,
      ...(await tx.list(TABLES.commentReplies, { index: INDEXES.commentRepliesBySpace, value: created.id })).items,
      ...(await tx.list(TABLES.comments, { index: INDEXES.commentsByList, value: `space:${created.id}` })).items,
    ]);
    expect(held).toEqual([]);
    expect((await h().owner.get(comment(created.id, posted.id))).status).toBe(404);
  });
});
