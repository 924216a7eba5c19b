import { expect, it } from 'vitest';
import { contentHelpers } from './content.js';
import { httpSuite, walkPages } from './harness.js';

/** GET /v1/orgs/{organizationId}/members/{userId}/spaces, and the `spaces` count of members. */

httpSuite('member spaces', (h) => {
  const { org, space, collection, team, grant } = contentHelpers(h);
  const mine = (userId: string) => `${org()}/members/${userId}/spaces`;
  const spaceIdsOf = (response: { body: { items: { space: { id: string } }[] } }) => response.body.items.map((entry) => entry.space.id);

  it('lists the spaces a member can access with its level, newest first; order=asc reverses it', async () => {
    const editor = await h().user('edit');
    const docs = await collection({ title: 'Docs' });
    await h().owner.patch(`/v1/collections/${docs.id}`, { defaultLevel: 'comment' });
    const a = await space({ title: 'A' });
    const b = await space({ title: 'B', parent: docs.id });
    const hidden = await space({ title: 'Hidden' });
    await h().owner.patch(`/v1/spaces/${hidden.id}`, { defaultLevel: null });
    const c = await space({ title: 'C' });
    const list = await editor.get(mine(editor.userId));
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(3);
    expect(list.body.items.map((entry: { permission: string; space: { id: string } }) => [entry.space.id, entry.permission])).toEqual([
      [c.id, 'edit'],
      [b.id, 'comment'],
      [a.id, 'edit'],
    ]);
    expect(Object.keys(list.body.items[0]).sort()).toEqual(['permission', 'space']);
    // The space objects carry the caller's permissions.
    expect(list.body.items[0].space).toEqual((await editor.get(`/v1/spaces/${c.id}`)).body);
    const asc = await editor.get(`${mine(editor.userId)}?order=asc`);
    expect(spaceIdsOf(asc)).toEqual([a.id, b.id, c.id]);
    expect(spaceIdsOf(await editor.get(`${mine(editor.userId)}?order=desc`))).toEqual([c.id, b.id, a.id]);
    for (const limit of [1, 2, 3]) {
      expect((await walkPages(editor, mine(editor.userId), limit)).map((entry) => entry.space.id)).toEqual([c.id, b.id, a.id]);
      expect((await walkPages(editor, `${mine(editor.userId)}?order=asc`, limit)).map((entry) => entry.space.id)).toEqual([a.id, b.id, c.id]);
    }
    // The owner, an admin, reaches every space, the hidden one too.
    const owner = await h().owner.get(mine(h().owner.userId));
    expect(spaceIdsOf(owner)).toEqual([c.id, hidden.id, b.id, a.id]);
    expect(owner.body.items.every((entry: { permission: string }) => entry.permission === 'admin')).toBe(true);
    expect((await h().owner.get(`${org()}/members/${editor.userId}`)).body.spaces).toBe(3);
    expect((await h().owner.get(`${org()}/members/${h().owner.userId}`)).body.spaces).toBe(4);
  });

  it('lets a member list its own spaces and admins anyone’s; others get 403, unknown members 404', async () => {
    const reader = await h().user('read');
    const creator = await h().user('create');
    const admin = await h().user('admin');
    await space({ title: 'Some' });
    expect((await reader.get(mine(reader.userId))).status).toBe(200);
    expect((await admin.get(mine(reader.userId))).status).toBe(200);
    const refused = await creator.get(mine(reader.userId));
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe("You need the admin role to list other members' spaces");
    expect((await h().owner.get(mine('no-such-user'))).status).toBe(404);
    const outsider = (await h().organization()).owner;
    expect((await h().owner.get(mine(outsider.userId))).status).toBe(404);
    expect((await outsider.get(mine(reader.userId))).status).toBe(404);
    for (const [query, message] of [
      ['order=sideways', /^order: must be /],
      ['limit=0', /^limit: must be at least 1$/],
      ['limit=1001', /^limit: must be at most 1000$/],
      ['page=bad', /^page: /],
    ] as const) {
      const response = await reader.get(`${mine(reader.userId)}?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.error.message).toMatch(message);
    }
  });

  it('gives guests only what their teams were granted, and keeps counts exact as grants and teams change', async () => {
    const guest = await h().user(null);
    const a = await space({ title: 'A' });
    const b = await space({ title: 'B' });
    const count = async () => (await h().owner.get(`${org()}/members/${guest.userId}`)).body.spaces;
    expect(await count()).toBe(0);
    expect((await guest.get(mine(guest.userId))).body.count).toBe(0);
    const crew = await team([guest.userId]);
    const other = await team([guest.userId], 'Other');
    await grant(a.id, crew, 'comment');
    await grant(a.id, other, 'review', 'second-grant');
    expect(await count()).toBe(1);
    const list = await guest.get(mine(guest.userId));
    expect(list.body.items.map((entry: { permission: string; space: { id: string } }) => [entry.space.id, entry.permission])).toEqual([[a.id, 'review']]);
    expect((await guest.get(`/v1/spaces/${a.id}`)).body.permissions).toMatchObject({ view: true, comment: true, review: true, admin: false, edit: true });
    expect((await guest.get(`/v1/spaces/${b.id}`)).status).toBe(403);
    // Out of the team with the higher grant: the lower one remains.
    expect((await h().owner.delete(`${org()}/teams/${other}/members/${guest.userId}`)).status).toBe(204);
    expect((await guest.get(mine(guest.userId))).body.items[0].permission).toBe('comment');
    expect((await h().owner.delete(`${org()}/teams/${crew}`)).status).toBe(204);
    expect(await count()).toBe(0);
    expect((await guest.get(`/v1/spaces/${a.id}`)).status).toBe(403);
  });

  it("counts what each member can access as roles and levels change", async () => {
    const member = await h().user('read');
    const docs = await collection({ title: 'Docs' });
    const inside = await space({ title: 'Inside', parent: docs.id });
    await space({ title: 'Top' });
    const count = async () => (await h().owner.get(`${org()}/members/${member.userId}`)).body.spaces;
    expect(await count()).toBe(2);
    await h().owner.patch(`/v1/collections/${docs.id}`, { defaultLevel: null });
    expect(await count()).toBe(1);
    await h().owner.patch(`/v1/spaces/${inside.id}`, { defaultLevel: 'read' });
    expect(await count()).toBe(2);
    await h().owner.patch(`${org()}/members/${member.userId}`, { role: null });
    expect(await count()).toBe(0);
    await h().owner.patch(`${org()}/members/${member.userId}`, { role: 'admin' });
    expect(await count()).toBe(2);
    const list = await h().owner.get(`${org()}/members`);
    const entry = list.body.items.find((item: { id: string }) => item.id === member.userId);
    expect(entry.spaces).toBe(2);
  });
});
