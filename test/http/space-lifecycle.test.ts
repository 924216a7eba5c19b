import { expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { INDEXES, TABLES, type SpaceRecord } from '../../src/core/records.js';
import { assertEditable, requireSpace } from '../../src/core/spaces/access.js';
import { RESTORE_WINDOW_MS } from '../../src/core/spaces/trash.js';
import type { Context } from '../../src/core/context.js';
import { contentHelpers } from './content.js';
import { httpSuite } from './harness.js';

/** The space lifecycle: delete, restore within 7 days, purge after (on access and by the sweep), lock. */

httpSuite('space lifecycle', (h) => {
  const { org, space, collection, spaceIds, collectionSpaceIds, team, grant, stored } = contentHelpers(h);
  const at = (id: string) => `/v1/spaces/${id}`;

  /** Puts change requests and comments in a space, as their areas will. */
  async function fillSpace(spaceId: string) {
    await h().platform.store.write(async (tx) => {
      const now = '2026-03-01T11:00:00.000Z';
      await tx.insert(TABLES.changeRequests, { id: `cr-${spaceId}`, spaceId, number: 1, status: 'open', createdAt: now });
      await tx.insert(TABLES.comments, { id: `comment-${spaceId}`, spaceId, status: 'open', postedAt: now });
    });
  }

  /** What the store still holds of a space: its record and everything that belongs to it. */
  async function remains(spaceId: string) {
    return h().platform.store.read(async (tx) => {
      const held: string[] = [];
      if (await tx.get(TABLES.spaces, spaceId)) held.push('space');
      for (const [table, index] of [
        [TABLES.revisions, INDEXES.revisionsBySpace],
        [TABLES.spaceGrants, INDEXES.spaceGrantsBySpace],
        [TABLES.changeRequests, INDEXES.changeRequestsBySpace],
        [TABLES.comments, INDEXES.commentsBySpace],
      ] as const) {
        if ((await tx.list(table, { index, value: spaceId, limit: 0 })).count > 0) held.push(table);
      }
      return held;
    });
  }

  it('deletes with 205: the space shows deletedAt, leaves every list and count, and refuses other operations', async () => {
    const docs = await collection({ title: 'Docs' });
    const kept = await space({ title: 'Kept', parent: docs.id });
    const doomed = await space({ title: 'Doomed', parent: docs.id });
    const reader = await h().user('read');
    expect((await h().owner.get(`${org()}/members/${reader.userId}`)).body.spaces).toBe(2);
    h().clock.advance(1000);
    const deleted = await h().owner.delete(at(doomed.id));
    expect(deleted.status).toBe(205);
    expect(deleted.text).toBe('');
    const read = await h().owner.get(at(doomed.id));
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ ...doomed, deletedAt: '2026-03-01T10:00:04.000Z' });
    expect(await spaceIds()).toEqual([kept.id]);
    expect(await collectionSpaceIds(docs.id)).toEqual([kept.id]);
    expect((await h().owner.get(`${org()}/members/${reader.userId}`)).body.spaces).toBe(1);
    const mine = await reader.get(`${org()}/members/${reader.userId}/spaces`);
    expect(mine.body.items.map((entry: { space: { id: string } }) => entry.space.id)).toEqual([kept.id]);
    const before = await stored();
    const refused = [
      await h().owner.patch(at(doomed.id), { title: 'Back' }),
      await h().owner.delete(at(doomed.id)),
      await h().owner.post(`${at(doomed.id)}/duplicate`),
      await h().owner.post(`${at(doomed.id)}/move`, { parent: null }),
      await h().owner.post(`${at(doomed.id)}/transfer`, { organization: h().organizationId }),
    ];
    for (const response of refused) {
      expect(response.status).toBe(404);
      expect(response.body.error.message).toBe(`Space ${doomed.id} is deleted; restore it first with POST /v1/spaces/${doomed.id}/restore`);
    }
    // A deleted space is no position reference either.
    const move = await h().owner.post(`${at(kept.id)}/move`, { position: { before: { type: 'space', space: doomed.id } } });
    expect(move.status).toBe(400);
    expect(await stored()).toEqual(before);
  });

  it('restores within 7 days: back at the end of its collection, as it was, then listed again', async () => {
    const docs = await collection({ title: 'Docs' });
    const first = await space({ title: 'First', parent: docs.id, emoji: '🎉' });
    const second = await space({ title: 'Second', parent: docs.id });
    await fillSpace(first.id);
    const withCounts = (await h().owner.get(at(first.id))).body;
    expect((await h().owner.delete(at(first.id))).status).toBe(205);
    h().clock.advance(3 * 24 * 60 * 60 * 1000);
    const restored = await h().owner.post(`${at(first.id)}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual(withCounts);
    expect(restored.body.deletedAt).toBeUndefined();
    expect(await collectionSpaceIds(docs.id)).toEqual([second.id, first.id]);
    expect((await h().owner.get(at(first.id))).body).toEqual(withCounts);
    const again = await h().owner.post(`${at(first.id)}/restore`);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(`Space ${first.id} is not deleted`);
    expect(await remains(first.id)).toEqual(['space', TABLES.revisions, TABLES.changeRequests, TABLES.comments]);
  });

  it('restores at exactly 7 days; one millisecond later the space is gone for good, with what belongs to it', async () => {
    const onTime = await space({ title: 'On time' });
    const late = await space({ title: 'Late' });
    const crew = await team([]);
    for (const target of [onTime, late]) {
      await fillSpace(target.id);
      await grant(target.id, crew, 'edit');
    }
    expect((await h().owner.delete(at(onTime.id))).status).toBe(205);
    expect((await h().owner.delete(at(late.id))).status).toBe(205);
    h().clock.advance(RESTORE_WINDOW_MS);
    expect((await h().owner.post(`${at(onTime.id)}/restore`)).status).toBe(200);
    h().clock.advance(1);
    // A read hides it; the first write that reaches it purges it and answers 404 all the same.
    const read = await h().owner.get(at(late.id));
    expect(read.status).toBe(404);
    expect(read.body.error.message).toBe(`No space ${late.id}`);
    expect(await remains(late.id)).toEqual(['space', TABLES.revisions, TABLES.spaceGrants, TABLES.changeRequests, TABLES.comments]);
    const restore = await h().owner.post(`${at(late.id)}/restore`);
    expect(restore.status).toBe(404);
    expect(restore.body.error.message).toBe(`No space ${late.id}`);
    expect(await remains(late.id)).toEqual([]);
    expect((await h().owner.get(`${org()}/teams/${crew}`)).body.spaces).toBe(1);
    expect(await remains(onTime.id)).toEqual(['space', TABLES.revisions, TABLES.spaceGrants, TABLES.changeRequests, TABLES.comments]);
  });

  it('purges on access by every write that reaches the space, and by the periodic sweep', async () => {
    const targets: { id: string }[] = [];
    for (let i = 0; i < 6; i++) targets.push(await space({ title: `T${i}` }));
    const keep = await space({ title: 'Keep' });
    for (const target of targets) expect((await h().owner.delete(at(target.id))).status).toBe(205);
    h().clock.advance(RESTORE_WINDOW_MS + 1);
    const writes = [
      () => h().owner.patch(at(targets[0].id), { title: 'x' }),
      () => h().owner.delete(at(targets[1].id)),
      () => h().owner.post(`${at(targets[2].id)}/duplicate`),
      () => h().owner.post(`${at(targets[3].id)}/move`, { parent: null }),
    ];
    for (const [i, write] of writes.entries()) {
      const response = await write();
      expect(response.status).toBe(404);
      expect(await remains(targets[i].id)).toEqual([]);
    }
    expect(await remains(targets[4].id)).not.toEqual([]);
    expect(await h().platform.purgeDeletedSpaces()).toBe(2);
    for (const target of targets) expect(await remains(target.id)).toEqual([]);
    expect(await h().platform.purgeDeletedSpaces()).toBe(0);
    expect(await spaceIds()).toEqual([keep.id]);
  });

  it('sweeps only spaces past their window, in batches, however many there are', async () => {
    const now = h().clock.now().getTime();
    const at = (ms: number) => new Date(ms).toISOString();
    await h().platform.store.write(async (tx) => {
      for (let i = 0; i < 250; i++) {
        const deletedAt = at(now - RESTORE_WINDOW_MS - 1 - i);
        const record: SpaceRecord = {
          id: `old-${i}`,
          organizationId: h().organizationId,
          parentKey: `organization:${h().organizationId}`,
          orderKey: 'a0',
          title: 'Old',
          emoji: '',
          visibility: 'private',
          editMode: 'live',
          revision: `rev-${i}`,
          createdAt: at(0),
          updatedAt: at(0),
          deletedAt,
          trashed: true,
        };
        await tx.insert(TABLES.spaces, record);
        await tx.insert(TABLES.revisions, { id: `rev-${i}`, spaceId: record.id, parents: [], pages: [], files: [], createdAt: at(0) });
      }
      for (const [id, deletedAt] of [['recent', at(now - RESTORE_WINDOW_MS)], ['fresh', at(now)]]) {
        await tx.insert(TABLES.spaces, { id, organizationId: h().organizationId, deletedAt, trashed: true, title: id });
      }
    });
    expect(await h().platform.purgeDeletedSpaces()).toBe(250);
    const left = await h().platform.store.read(async (tx) => (await tx.list(TABLES.spaces, { index: INDEXES.spacesInTrash, value: true })).items.map((r) => r.id));
    expect(left.sort()).toEqual(['fresh', 'recent']);
    const revisions = await h().platform.store.read(async (tx) => (await tx.list(TABLES.revisions, { index: INDEXES.revisionsBySpace, value: 'old-0' })).count);
    expect(revisions).toBe(0);
  });

  it('restores a space whose collection was deleted to the top level; in-collection becomes private', async () => {
    const docs = await collection({ title: 'Docs' });
    const inside = await space({ title: 'Inside', parent: docs.id });
    const top = await space({ title: 'Top' });
    expect((await h().owner.patch(at(inside.id), { visibility: 'in-collection' })).status).toBe(200);
    expect((await h().owner.delete(`/v1/collections/${docs.id}`)).status).toBe(205);
    const restored = await h().owner.post(`${at(inside.id)}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.parent).toBeUndefined();
    expect(restored.body.visibility).toBe('private');
    expect(await spaceIds()).toEqual([top.id, inside.id]);
  });

  it('lets only admins of the space delete and restore it', async () => {
    const target = await space({ title: 'Target' });
    const creator = await h().user('create');
    for (const role of ['review', 'edit', 'comment', 'read', null] as const) {
      const caller = await h().user(role);
      const response = await caller.delete(at(target.id));
      expect(response.status, `role ${role}`).toBe(403);
    }
    expect((await creator.delete(at(target.id))).status).toBe(205);
    const reader = await h().user('read');
    const refused = await reader.post(`${at(target.id)}/restore`);
    expect(refused.status).toBe(403);
    expect((await reader.get(at(target.id))).body.deletedAt).toEqual(expect.any(String));
    expect((await creator.post(`${at(target.id)}/restore`)).status).toBe(200);
  });

  it('locks a space against content changes until it is live again (assertEditable, the edit rule)', async () => {
    const target = await space({ title: 'Lockable' });
    const editor = await h().user('edit');
    const reader = await h().user('read');
    // requireSpace reads the transaction, the caller and the time: a context with those is enough here.
    const ctxFor = (userId: string, tx: Context['tx']) =>
      ({ tx, actor: { userId }, now: h().clock.now().toISOString() }) as unknown as Context;
    const editing = (userId: string) =>
      h().platform.store.read(async (tx) => {
        try {
          await requireSpace(ctxFor(userId, tx), target.id, 'edit', 'edit its content');
          return 'ok';
        } catch (error) {
          return (error as ApiError).status;
        }
      });
    expect(await editing(editor.userId)).toBe('ok');
    expect(await editing(reader.userId)).toBe(403);
    await h().owner.patch(at(target.id), { editMode: 'locked' });
    expect(await editing(editor.userId)).toBe(409);
    expect(await editing(reader.userId)).toBe(403);
    expect((await editor.get(at(target.id))).body.permissions).toMatchObject({ edit: false, merge: false, triggerGitSync: false, comment: true, view: true });
    const record = (await h().platform.store.read((tx) => tx.get(TABLES.spaces, target.id))) as SpaceRecord;
    expect(() => assertEditable(record)).toThrow(/locked/);
    try {
      assertEditable(record);
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(409);
    }
    // The settings of a locked space still change; content does not until it is live again.
    expect((await h().owner.patch(at(target.id), { title: 'Renamed' })).status).toBe(200);
    await h().owner.patch(at(target.id), { editMode: 'live' });
    expect(await editing(editor.userId)).toBe('ok');
    expect((await editor.get(at(target.id))).body.permissions).toMatchObject({ edit: true, merge: false, triggerGitSync: true });
    expect(() => assertEditable({ ...record, editMode: 'live' })).not.toThrow();
  });
});
