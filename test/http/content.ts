import { expect } from 'vitest';
import { INDEXES, TABLES } from '../../src/core/records.js';
import type { Caller, Harness } from './harness.js';

/** Helpers for the space and collection suites: create content, and read what the store holds. */

/** Every field of a space response, sorted, for a space that is not deleted, not in a collection, private. */
export const SPACE_KEYS = [
  'changeRequests',
  'changeRequestsDraft',
  'changeRequestsOpen',
  'comments',
  'createdAt',
  'defaultLevel',
  'editMode',
  'emoji',
  'id',
  'object',
  'organization',
  'permissions',
  'revision',
  'title',
  'updatedAt',
  'urls',
  'visibility',
];

/** Every field of a collection response at the top level, without description. */
export const COLLECTION_KEYS = ['defaultLevel', 'id', 'object', 'organization', 'permissions', 'title', 'urls'];

/** The permissions of a space for someone allowed everything. */
export const ALL_SPACE_PERMISSIONS = {
  view: true,
  access: true,
  admin: true,
  viewInviteLinks: true,
  edit: true,
  triggerGitSync: true,
  comment: true,
  merge: true,
  review: true,
};

/** Content helpers bound to a harness. */
export function contentHelpers(h: () => Harness) {
  const org = (organizationId = h().organizationId) => `/v1/orgs/${organizationId}`;

  /** POSTs a creation one second after the previous request and returns what it created (201). */
  async function create(path: string, body: Record<string, unknown>, caller: Caller) {
    h().clock.advance(1000);
    const response = await caller.post(path, body);
    expect(response.status, response.text).toBe(201);
    return response.body as Record<string, any> & { id: string };
  }

  /** Creates a space (as the owner unless told), one second after the previous request, and returns it. */
  const space = (body: Record<string, unknown> = {}, caller: Caller = h().owner, organizationId = h().organizationId) =>
    create(`${org(organizationId)}/spaces`, body, caller);

  /** Creates a collection (as the owner unless told) and returns it. */
  const collection = (body: Record<string, unknown> = {}, caller: Caller = h().owner, organizationId = h().organizationId) =>
    create(`${org(organizationId)}/collections`, body, caller);

  /** The ids of a list response's items. */
  const ids = (response: { body: { items: { id: string }[] } }) => response.body.items.map((item) => item.id);

  /** The ids of the spaces of an organization, in the order the list gives them. */
  async function spaceIds(caller: Caller = h().owner, organizationId = h().organizationId) {
    const response = await caller.get(`${org(organizationId)}/spaces?limit=1000`);
    expect(response.status, response.text).toBe(200);
    return ids(response);
  }

  /** The ids of the spaces in a collection, in order. */
  async function collectionSpaceIds(collectionId: string, caller: Caller = h().owner) {
    const response = await caller.get(`/v1/collections/${collectionId}/spaces?limit=1000`);
    expect(response.status, response.text).toBe(200);
    return ids(response);
  }

  /** The ids of the collections of an organization, in order (`nested` as given). */
  async function collectionIds(nested?: boolean, caller: Caller = h().owner, organizationId = h().organizationId) {
    const query = nested === undefined ? '' : `?nested=${nested}`;
    const response = await caller.get(`${org(organizationId)}/collections${query}`);
    expect(response.status, response.text).toBe(200);
    return ids(response);
  }

  /**
   * Everything the store holds for the content of some organizations: spaces (deleted ones too),
   * collections, and the revisions, grants, change requests and comments of those spaces. Compared
   * before and after a refused request to show that nothing changed.
   */
  async function stored(organizationIds: string[] = [h().organizationId]) {
    return h().platform.store.read(async (tx) => {
      const state: Record<string, unknown[]> = { spaces: [], collections: [], owned: [] };
      for (const organizationId of organizationIds) {
        const spaces = await tx.list(TABLES.spaces, { index: INDEXES.spacesByOrganization, value: organizationId });
        const collections = await tx.list(TABLES.collections, { index: INDEXES.collectionsByOrganization, value: organizationId });
        state.spaces.push(...spaces.items);
        state.collections.push(...collections.items);
        for (const space of spaces.items) {
          for (const [table, index] of [
            [TABLES.revisions, INDEXES.revisionsBySpace],
            [TABLES.spaceGrants, INDEXES.spaceGrantsBySpace],
            [TABLES.changeRequests, INDEXES.changeRequestsBySpace],
            [TABLES.comments, INDEXES.commentsBySpace],
          ] as const) {
            state.owned.push(...(await tx.list(table, { index, value: space.id })).items);
          }
        }
      }
      return JSON.parse(JSON.stringify(state)) as typeof state;
    });
  }

  /** Gives a team a level on a space directly, as the (future) space permissions endpoints will. */
  async function grant(spaceId: string, teamId: string, role: string, id = `grant-${spaceId}-${teamId}`) {
    await h().platform.store.write((tx) => tx.put(TABLES.spaceGrants, { id, spaceId, teamId, role, createdAt: '2026-03-01T00:00:00.000Z' }));
  }

  /** Creates a team with members (as the owner) and returns its id. */
  async function team(members: string[], title = 'Team') {
    const response = await h().owner.put(`${org()}/teams`, { title, members });
    expect(response.status, response.text).toBe(201);
    return response.body.id as string;
  }

  return { org, space, collection, ids, spaceIds, collectionSpaceIds, collectionIds, stored, grant, team };
}
