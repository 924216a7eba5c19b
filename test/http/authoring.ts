import { expect } from 'vitest';
import { INDEXES, TABLES } from '../../src/core/records.js';
import type { Caller, Harness, TestResponse } from './harness.js';

/** Helpers for the change request and content suites: spaces, change requests, batches, and what the store holds. */
export function authoring(h: () => Harness) {
  const spaces = (spaceId: string) => `/v1/spaces/${spaceId}`;
  const changeRequests = (spaceId: string) => `${spaces(spaceId)}/change-requests`;
  const changeRequestPath = (spaceId: string, changeRequestId: string | number) => `${changeRequests(spaceId)}/${changeRequestId}`;
  const contentOf = (spaceId: string, changeRequestId?: string | number) =>
    changeRequestId === undefined ? `${spaces(spaceId)}/content` : `${changeRequestPath(spaceId, changeRequestId)}/content`;

  /** Creates a space as the owner (one second after the previous request) and returns it. */
  async function space(body: Record<string, unknown> = {}, caller: Caller = h().owner) {
    h().clock.advance(1000);
    const response = await caller.post(`/v1/orgs/${h().organizationId}/spaces`, { title: 'Docs', ...body });
    expect(response.status, response.text).toBe(201);
    return response.body as Record<string, any> & { id: string; revision: string };
  }

  /** Creates a change request (one second after the previous request) and returns it. */
  async function changeRequest(spaceId: string, body: Record<string, unknown> = {}, caller: Caller = h().owner) {
    h().clock.advance(1000);
    const response = await caller.post(changeRequests(spaceId), body);
    expect(response.status, response.text).toBe(201);
    return response.body as Record<string, any> & { id: string; number: number; revision: string };
  }

  /** Sends a batch of changes to a change request's content and returns the raw response. */
  function send(spaceId: string, changeRequestId: string | number, changes: unknown[], caller: Caller = h().owner, query = ''): Promise<TestResponse> {
    h().clock.advance(1000);
    return caller.post(`${contentOf(spaceId, changeRequestId)}${query}`, { changes });
  }

  /** Applies a batch that must succeed; returns the change request it answers. */
  async function batch(spaceId: string, changeRequestId: string | number, changes: unknown[], caller: Caller = h().owner) {
    const response = await send(spaceId, changeRequestId, changes, caller);
    expect(response.status, response.text).toBe(200);
    return response.body as Record<string, any> & { revision: string };
  }

  /** Applies a batch with compat=false; returns the content update (change request, touched pages, files). */
  async function batchWithChanges(spaceId: string, changeRequestId: string | number, changes: unknown[]) {
    const response = await send(spaceId, changeRequestId, changes, h().owner, '?compat=false');
    expect(response.status, response.text).toBe(200);
    return response.body as { changeRequest: Record<string, any>; changes: any[]; insertedFiles: any[] };
  }

  /** The page tree of a space or a change request (`{pages}`). */
  async function pages(spaceId: string, changeRequestId?: string | number, query = '') {
    const response = await h().owner.get(`${contentOf(spaceId, changeRequestId)}/pages${query}`);
    expect(response.status, response.text).toBe(200);
    return response.body.pages as any[];
  }

  /** One page (by id) of a space or a change request. */
  async function page(spaceId: string, changeRequestId: string | number | undefined, pageId: string, query = '') {
    const response = await h().owner.get(`${contentOf(spaceId, changeRequestId)}/page/${pageId}${query}`);
    expect(response.status, response.text).toBe(200);
    return response.body as Record<string, any>;
  }

  /** The tree as nested `[title, path, children]`, to compare shapes at a glance. */
  function outline(tree: any[]): unknown[] {
    return tree.map((node) => (node.pages && node.pages.length > 0 ? [node.title, node.path, outline(node.pages)] : [node.title, node.path]));
  }

  /** Every page of a tree, depth first. */
  function flatten(tree: any[]): any[] {
    return tree.flatMap((node) => [node, ...flatten(node.pages ?? [])]);
  }

  /** The page of a tree with a title. */
  function byTitle(tree: any[], title: string) {
    const found = flatten(tree).find((node) => node.title === title);
    expect(found, `no page titled ${title}`).toBeDefined();
    return found;
  }

  /**
   * Everything the store holds about a space's content and change requests: the space, its revisions,
   * map nodes, page bodies and change requests. Compared before and after a refused request.
   */
  async function stored(spaceId: string) {
    return h().platform.store.read(async (tx) => {
      const state: Record<string, unknown> = { space: await tx.get(TABLES.spaces, spaceId) };
      for (const [table, index] of [
        [TABLES.revisions, INDEXES.revisionsBySpace],
        [TABLES.contentNodes, INDEXES.contentNodesBySpace],
        [TABLES.contentDocuments, INDEXES.contentDocumentsBySpace],
        [TABLES.changeRequests, INDEXES.changeRequestsBySpace],
      ] as const) {
        state[table] = (await tx.list(table, { index, value: spaceId })).items;
      }
      return JSON.parse(JSON.stringify(state)) as Record<string, unknown[]>;
    });
  }

  /** The space's change request counts, as its response gives them. */
  async function counts(spaceId: string) {
    const response = await h().owner.get(spaces(spaceId));
    expect(response.status, response.text).toBe(200);
    const { changeRequests: total, changeRequestsOpen: open, changeRequestsDraft: draft } = response.body;
    return { total, open, draft };
  }

  /** Points a space at another revision, as a merge would: the space "moves on". */
  async function moveSpaceTo(spaceId: string, revisionId: string) {
    await h().platform.store.write(async (tx) => {
      const record = await tx.get(TABLES.spaces, spaceId);
      await tx.put(TABLES.spaces, { ...record!, revision: revisionId });
    });
  }

  return {
    spaces,
    changeRequests,
    changeRequestPath,
    contentOf,
    space,
    changeRequest,
    send,
    batch,
    batchWithChanges,
    pages,
    page,
    outline,
    flatten,
    byTitle,
    stored,
    counts,
    moveSpaceTo,
  };
}

/** A markdown document body. */
export const md = (markdown: string) => ({ markdown });
