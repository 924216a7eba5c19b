import { expect, it } from 'vitest';
import type { MemberRole } from '../../src/core/roles.js';
import { contentHelpers } from './content.js';
import { httpSuite, type Caller } from './harness.js';

/**
 * Who may do what with spaces and collections: every role (and a guest) against every endpoint of
 * this area, on content whose levels differ, asserting each allow and each deny. The expectations
 * come from two literal tables (the README's): the level each role has on each kind of item, and the
 * level each operation needs. Nothing here is computed by the code under test.
 */

type Role = MemberRole | null;
type Level = MemberRole | null;
const ROLES: Role[] = ['admin', 'create', 'review', 'edit', 'comment', 'read', null];
const RANK: Record<string, number> = { admin: 6, create: 5, review: 4, edit: 3, comment: 2, read: 1, null: 0 };
const atLeast = (level: Level, need: MemberRole) => RANK[String(level)] >= RANK[need];

/**
 * The fixture items: `top` at the top level (inherits: each member has its role), `capped` in a
 * collection whose defaultLevel is `read`, `closed` with defaultLevel null, `granted` with
 * defaultLevel null and an `edit` grant to a team the caller is in; collections `open` (inherits) and
 * `readOnly` (defaultLevel read).
 */
type Item = 'top' | 'capped' | 'closed' | 'granted' | 'open' | 'readOnly';

/** The caller's level on each item, by organization role: the README's rule table, written out. */
const LEVELS: Record<string, Record<Item, Level>> = {
  admin: { top: 'admin', capped: 'admin', closed: 'admin', granted: 'admin', open: 'admin', readOnly: 'admin' },
  create: { top: 'create', capped: 'read', closed: null, granted: 'edit', open: 'create', readOnly: 'read' },
  review: { top: 'review', capped: 'read', closed: null, granted: 'edit', open: 'review', readOnly: 'read' },
  edit: { top: 'edit', capped: 'read', closed: null, granted: 'edit', open: 'edit', readOnly: 'read' },
  comment: { top: 'comment', capped: 'read', closed: null, granted: 'edit', open: 'comment', readOnly: 'read' },
  read: { top: 'read', capped: 'read', closed: null, granted: 'edit', open: 'read', readOnly: 'read' },
  null: { top: null, capped: null, closed: null, granted: 'edit', open: null, readOnly: null },
};

/** The level each `permissions` key of a space needs, and whether it also needs a live space. */
const SPACE_PERMISSION_NEEDS: Record<string, MemberRole> = {
  view: 'read',
  access: 'read',
  admin: 'create',
  viewInviteLinks: 'create',
  edit: 'edit',
  triggerGitSync: 'edit',
  comment: 'comment',
  merge: 'review',
  review: 'review',
};

const SPACE_ITEMS = ['top', 'capped', 'closed', 'granted'] as const;
/** The titles the fixture gives the spaces. */
const TITLES: Record<SpaceItem, string> = { top: 'Top', capped: 'Capped', closed: 'Closed', granted: 'Granted' };
type SpaceItem = (typeof SPACE_ITEMS)[number];
/** Where each space sits: its parent collection item, or the top level (where creating needs the create role). */
const PARENT: Record<SpaceItem, 'readOnly' | 'top'> = { top: 'top', capped: 'readOnly', closed: 'top', granted: 'top' };

httpSuite('space and collection permissions', (h) => {
  const { org, space, collection, ids, team, grant } = contentHelpers(h);

  /** Creates the fixture items for a caller; each call makes a fresh set, with a sibling after each item. */
  async function fixtures(caller: Caller) {
    const readOnly = await collection({ title: 'Read only' });
    await h().owner.patch(`/v1/collections/${readOnly.id}`, { defaultLevel: 'read' });
    const open = await collection({ title: 'Open' });
    const top = await space({ title: 'Top' });
    const capped = await space({ title: 'Capped', parent: readOnly.id });
    const closed = await space({ title: 'Closed' });
    const granted = await space({ title: 'Granted' });
    await h().owner.patch(`/v1/spaces/${closed.id}`, { defaultLevel: null });
    await h().owner.patch(`/v1/spaces/${granted.id}`, { defaultLevel: null });
    const crew = await team([caller.userId], `Crew ${Math.random()}`);
    await grant(granted.id, crew, 'edit');
    // Siblings after every item, so that a move to the end always changes something.
    await space({ title: 'After in read only', parent: readOnly.id });
    await space({ title: 'Inside open', parent: open.id });
    await space({ title: 'After at the top' });
    return { top: top.id, capped: capped.id, closed: closed.id, granted: granted.id, open: open.id, readOnly: readOnly.id } as Record<Item, string>;
  }

  const allowed = (ok: boolean, status = 200) => (ok ? status : 403);

  for (const role of ROLES) {
    const levels = LEVELS[String(role)];
    const label = role ?? 'guest';

    it(`reads: ${label}`, async () => {
      const caller = await h().user(role);
      const items = await fixtures(caller);
      for (const item of SPACE_ITEMS) {
        const level = levels[item];
        const read = await caller.get(`/v1/spaces/${items[item]}`);
        expect(read.status, `${label} GET ${item}`).toBe(allowed(atLeast(level, 'read')));
        if (read.status === 200) {
          const expected = Object.fromEntries(Object.entries(SPACE_PERMISSION_NEEDS).map(([key, need]) => [key, atLeast(level, need)]));
          expect(read.body.permissions, `${label} permissions of ${item}`).toEqual(expected);
        }
      }
      for (const item of ['open', 'readOnly'] as const) {
        const level = levels[item];
        const read = await caller.get(`/v1/collections/${items[item]}`);
        expect(read.status, `${label} GET collection ${item}`).toBe(allowed(atLeast(level, 'read')));
        if (read.status === 200) {
          const create = atLeast(level, 'create');
          expect(read.body.permissions).toEqual({ view: true, admin: create, viewInviteLinks: create, create });
        }
        const spaces = await caller.get(`/v1/collections/${items[item]}/spaces`);
        expect(spaces.status, `${label} list spaces of ${item}`).toBe(allowed(atLeast(level, 'read')));
      }
      // Lists answer everyone, with what each can see.
      const visibleSpaces = SPACE_ITEMS.filter((item) => atLeast(levels[item], 'read')).map((item) => items[item]);
      const listed = await caller.get(`${org()}/spaces?limit=1000`);
      expect(listed.status).toBe(200);
      expect(ids(listed).filter((id: string) => Object.values(items).includes(id)).sort()).toEqual([...visibleSpaces].sort());
      const collections = await caller.get(`${org()}/collections`);
      expect(collections.status).toBe(200);
      const visibleCollections = (['open', 'readOnly'] as const).filter((item) => atLeast(levels[item], 'read')).map((item) => items[item]);
      expect(ids(collections).sort()).toEqual([...visibleCollections].sort());
      // The member's spaces and its count agree with what it can see.
      const mine = await caller.get(`${org()}/members/${caller.userId}/spaces?limit=1000`);
      expect(mine.status).toBe(200);
      const mineHere = mine.body.items.filter((entry: { space: { id: string } }) => Object.values(items).includes(entry.space.id));
      expect(mineHere.map((entry: { space: { id: string } }) => entry.space.id).sort()).toEqual([...visibleSpaces].sort());
      for (const entry of mineHere) {
        const item = SPACE_ITEMS.find((name) => items[name] === entry.space.id)!;
        expect(entry.permission, `${label} level on ${item}`).toBe(levels[item]);
      }
      expect((await h().owner.get(`${org()}/members/${caller.userId}`)).body.spaces).toBe(mine.body.count);
      const others = await caller.get(`${org()}/members/${h().owner.userId}/spaces`);
      expect(others.status, `${label} lists the owner's spaces`).toBe(allowed(role === 'admin'));
    });

    it(`site structure: a space the caller may not read is its id and nothing else: ${label}`, async () => {
      const caller = await h().user(role);
      const items = await fixtures(caller);
      const site = `${org()}/sites/${(await h().owner.post(`${org()}/sites`, { title: 'Handbook' })).body.id}`;
      // A section titled after the closed space (no title given), one titled by hand, a group holding the first.
      const closedSection = (await h().owner.post(`${site}/sections`, { spaceId: items.closed })).body;
      const grantedSection = (await h().owner.post(`${site}/sections`, { spaceId: items.granted, title: 'By hand' })).body;
      expect((await h().owner.post(`${site}/site-spaces`, { spaceId: items.top, sectionId: closedSection.id })).status).toBe(201);
      expect((await h().owner.post(`${site}/site-spaces`, { spaceId: items.capped, sectionId: grantedSection.id })).status).toBe(201);
      expect((await h().owner.post(`${site}/section-groups`, { title: 'Group', sections: [closedSection.id] })).status).toBe(201);
      const reads = ['site-spaces', 'sections', 'section-groups', 'published'].map((path) => `${site}/${path}`);
      for (const path of reads) {
        const read = await caller.get(path);
        // Members with a role read sites; a guest does not.
        expect(read.status, `${label} GET ${path}`).toBe(allowed(role !== null));
        if (read.status !== 200) continue;
        const siteSpaces: any[] = [];
        const sections: any[] = [];
        JSON.stringify(read.body, (_key, value) => {
          if (value?.object === 'site-space') siteSpaces.push(value);
          if (value?.object === 'site-section') sections.push(value);
          return value;
        });
        expect(siteSpaces.length, path).toBeGreaterThan(0);
        for (const siteSpace of siteSpaces) {
          const item = SPACE_ITEMS.find((name) => items[name] === siteSpace.space.id)!;
          if (atLeast(levels[item], 'read')) {
            expect([siteSpace.title, siteSpace.space.title, siteSpace.space.permissions.view], `${label} ${item} in ${path}`).toEqual([TITLES[item], TITLES[item], true]);
            continue;
          }
          expect(siteSpace.title, `${label} ${item} in ${path}`).toBe('');
          expect(siteSpace.space, `${label} ${item} in ${path}`).toEqual({
            object: 'space',
            id: items[item],
            title: '',
            emoji: '',
            visibility: 'private',
            createdAt: '1970-01-01T00:00:00.000Z',
            updatedAt: '1970-01-01T00:00:00.000Z',
            editMode: 'live',
            urls: { location: expect.stringMatching(new RegExp(`/v1/spaces/${items[item]}$`)), app: expect.any(String) },
            organization: h().organizationId,
            revision: '',
            defaultLevel: null,
            comments: 0,
            changeRequests: 0,
            changeRequestsOpen: 0,
            changeRequestsDraft: 0,
            permissions: Object.fromEntries(Object.keys(SPACE_PERMISSION_NEEDS).map((key) => [key, false])),
          });
        }
        for (const section of sections) {
          const expected = section.id === grantedSection.id ? 'By hand' : atLeast(levels.closed, 'read') ? 'Closed' : 'Untitled';
          expect(section.title, `${label} section in ${path}`).toBe(expected);
        }
        // Not even in passing: no revision, time or title of a hidden space anywhere in the answer.
        if (!atLeast(levels.closed, 'read')) expect(read.text, `${label} ${path}`).not.toContain('"Closed"');
      }
    });

    it(`changes spaces: ${label}`, async () => {
      const caller = await h().user(role);
      for (const item of SPACE_ITEMS) {
        const items = await fixtures(caller);
        const id = items[item];
        const level = levels[item];
        const admin = atLeast(level, 'create');
        const parentLevel = PARENT[item] === 'top' ? role : levels[PARENT[item]];
        expect((await caller.patch(`/v1/spaces/${id}`, { title: 'Renamed' })).status, `${label} PATCH ${item}`).toBe(allowed(admin));
        const duplicate = await caller.post(`/v1/spaces/${id}/duplicate`);
        const mayDuplicate = atLeast(level, 'read') && atLeast(parentLevel, 'create');
        expect(duplicate.status, `${label} duplicate ${item}`).toBe(allowed(mayDuplicate, 201));
        const move = await caller.post(`/v1/spaces/${id}/move`, { parent: PARENT[item] === 'top' ? null : items[PARENT[item]] });
        expect(move.status, `${label} move ${item}`).toBe(allowed(admin));
        const into = await caller.post(`/v1/spaces/${id}/move`, { parent: items.open });
        expect(into.status, `${label} move ${item} into open`).toBe(allowed(admin && atLeast(levels.open, 'create')));
        const transfer = await caller.post(`/v1/spaces/${id}/transfer`, { organization: h().organizationId, collection: items.readOnly });
        // Transferring also needs the admin role in the target organization (here the same one).
        expect(transfer.status, `${label} transfer ${item}`).toBe(allowed(admin && role === 'admin'));
        expect((await caller.delete(`/v1/spaces/${id}`)).status, `${label} DELETE ${item}`).toBe(allowed(admin, 205));
        if (!admin) await h().owner.delete(`/v1/spaces/${id}`);
        // Restoring needs what deleting needs, computed on the deleted space.
        expect((await caller.post(`/v1/spaces/${id}/restore`)).status, `${label} restore ${item}`).toBe(allowed(admin));
      }
    });

    it(`creates and changes collections: ${label}`, async () => {
      const caller = await h().user(role);
      const items = await fixtures(caller);
      const inOrganization = atLeast(role, 'create');
      expect((await caller.post(`${org()}/spaces`, {})).status, `${label} create space`).toBe(allowed(inOrganization, 201));
      expect((await caller.post(`${org()}/collections`, {})).status, `${label} create collection`).toBe(allowed(inOrganization, 201));
      for (const item of ['open', 'readOnly'] as const) {
        const mayCreate = atLeast(levels[item], 'create');
        expect((await caller.post(`${org()}/spaces`, { parent: items[item] })).status, `${label} space in ${item}`).toBe(allowed(mayCreate, 201));
        expect((await caller.post(`${org()}/collections`, { parent: items[item] })).status, `${label} collection in ${item}`).toBe(
          allowed(mayCreate, 201),
        );
      }
      for (const item of ['open', 'readOnly'] as const) {
        const fresh = await fixtures(caller);
        const id = fresh[item];
        const admin = atLeast(levels[item], 'create');
        expect((await caller.patch(`/v1/collections/${id}`, { title: 'Renamed' })).status, `${label} PATCH ${item}`).toBe(allowed(admin));
        expect((await caller.post(`/v1/collections/${id}/move`, { parent: null })).status, `${label} move ${item}`).toBe(allowed(admin));
        const into = await caller.post(`/v1/collections/${id}/move`, { parent: fresh[item === 'open' ? 'readOnly' : 'open'] });
        const target = item === 'open' ? 'readOnly' : 'open';
        expect(into.status, `${label} move ${item} into ${target}`).toBe(allowed(admin && atLeast(levels[target], 'create')));
        const transfer = await caller.post(`/v1/collections/${id}/transfer`, { organization: h().organizationId });
        expect(transfer.status, `${label} transfer ${item}`).toBe(admin && role === 'admin' ? 200 : 403);
        expect((await caller.delete(`/v1/collections/${id}`)).status, `${label} DELETE ${item}`).toBe(allowed(admin, 205));
      }
    });
  }

  it('answers 404, never 403, to someone outside the organization, for every endpoint', async () => {
    const insider = await h().user('read');
    const items = await fixtures(insider);
    const stranger = (await h().organization()).owner;
    const space = items.top;
    const attempts = [
      stranger.get(`${org()}/spaces`),
      stranger.post(`${org()}/spaces`, {}),
      stranger.get(`/v1/spaces/${space}`),
      stranger.patch(`/v1/spaces/${space}`, { title: 'x' }),
      stranger.delete(`/v1/spaces/${space}`),
      stranger.post(`/v1/spaces/${space}/restore`),
      stranger.post(`/v1/spaces/${space}/duplicate`),
      stranger.post(`/v1/spaces/${space}/move`, { parent: null }),
      stranger.post(`/v1/spaces/${space}/transfer`, { organization: h().organizationId }),
      stranger.get(`${org()}/members/${insider.userId}/spaces`),
      stranger.get(`${org()}/collections`),
      stranger.post(`${org()}/collections`, {}),
      stranger.get(`/v1/collections/${items.open}`),
      stranger.patch(`/v1/collections/${items.open}`, { title: 'x' }),
      stranger.delete(`/v1/collections/${items.open}`),
      stranger.get(`/v1/collections/${items.open}/spaces`),
      stranger.post(`/v1/collections/${items.open}/move`, { parent: null }),
      stranger.post(`/v1/collections/${items.open}/transfer`, { organization: h().organizationId }),
    ];
    for (const response of await Promise.all(attempts)) expect(response.status).toBe(404);
  });
});
