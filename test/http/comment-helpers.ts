import { expect } from 'vitest';
import { INDEXES, TABLES } from '../../src/core/records.js';
import type { Caller, Harness, TestResponse } from './harness.js';

/**
 * Helpers of the comment suites: spaces with pages (authored in a change request and merged, through the
 * content endpoints), comment and reply paths, posting, and what the store holds for discussions.
 */

/** A page to author: its title and Markdown body. */
export interface PageSpec {
  title: string;
  markdown: string;
}

/** The user ids in a list of comments or replies, in order. */
export const authorsOf = (response: TestResponse) => response.body.items.map((item: any) => item.postedBy.id);

/** The ids in a list response, in order. */
export const idsOf = (response: TestResponse) => response.body.items.map((item: any) => item.id);

/** Comment helpers bound to a harness. */
export function commentHelpers(h: () => Harness) {
  /** Creates a space (as the owner unless told) one second after the previous request. */
  async function space(body: Record<string, unknown> = {}, caller: Caller = h().owner) {
    h().clock.advance(1000);
    const response = await caller.post(`/v1/orgs/${h().organizationId}/spaces`, body);
    expect(response.status, response.text).toBe(201);
    return response.body as Record<string, any> & { id: string };
  }

  /** Opens a change request in a space (as the owner unless told). */
  async function changeRequest(spaceId: string, caller: Caller = h().owner) {
    const response = await caller.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Edits' });
    expect(response.status, response.text).toBe(201);
    return response.body as Record<string, any> & { id: string; number: number };
  }

  /** Applies content changes to a change request and returns the ids of the pages it created, in order. */
  async function author(spaceId: string, changeRequestId: string, changes: unknown[]): Promise<string[]> {
    const response = await h().owner.post(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content?compat=false`, { changes });
    expect(response.status, response.text).toBe(200);
    return response.body.changes.filter((change: any) => change.object === 'created_page').map((change: any) => change.page.id);
  }

  /** Merges a change request into its space. */
  async function merge(spaceId: string, changeRequestId: string) {
    const response = await h().owner.post(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/merge`);
    expect(response.status, response.text).toBe(200);
  }

  /** Applies content changes to a space's own content: a change request, authored, merged. */
  async function edit(spaceId: string, changes: unknown[]): Promise<string[]> {
    h().clock.advance(1000);
    const request = await changeRequest(spaceId);
    const created = await author(spaceId, request.id, changes);
    await merge(spaceId, request.id);
    return created;
  }

  /** Adds top-level document pages to a space and returns their ids. */
  function addPages(spaceId: string, pages: PageSpec[]): Promise<string[]> {
    return edit(
      spaceId,
      pages.map((page) => ({ operation: 'insert_page', title: page.title, document: { markdown: page.markdown } })),
    );
  }

  /** A space with pages. */
  async function spaceWithPages(pages: PageSpec[], body: Record<string, unknown> = {}) {
    const created = await space(body);
    return { space: created, pages: await addPages(created.id, pages) };
  }

  /** Posts a comment (expecting 200) one second after the previous one, and returns it. */
  async function post(caller: Caller, path: string, body: Record<string, unknown> = { body: { markdown: 'A comment' } }) {
    h().clock.advance(1000);
    const response = await caller.post(path, body);
    expect(response.status, response.text).toBe(200);
    return response.body as Record<string, any> & { id: string };
  }

  /** Updates a comment or reply (expecting 200) and returns it. */
  async function put(caller: Caller, path: string, body: Record<string, unknown>) {
    const response = await caller.put(path, body);
    expect(response.status, response.text).toBe(200);
    return response.body as Record<string, any> & { id: string };
  }

  /** Everything the store holds for discussions and their counts: comments, replies, spaces, change requests. */
  async function stored() {
    return h().platform.store.read(async (tx) => {
      const spaces = (await tx.list(TABLES.spaces, { index: INDEXES.spacesByOrganization, value: h().organizationId })).items;
      const state: Record<string, unknown[]> = { spaces, changeRequests: [], comments: [], replies: [] };
      for (const space of spaces) {
        state.changeRequests.push(...(await tx.list(TABLES.changeRequests, { index: INDEXES.changeRequestsBySpace, value: space.id })).items);
        state.comments.push(...(await tx.list(TABLES.comments, { index: INDEXES.commentsBySpace, value: space.id })).items);
        state.replies.push(...(await tx.list(TABLES.commentReplies, { index: INDEXES.commentRepliesBySpace, value: space.id })).items);
      }
      return JSON.parse(JSON.stringify(state)) as typeof state;
    });
  }

  /** The `comments` count of a space, as the owner reads it. */
  async function spaceCount(spaceId: string) {
    const response = await h().owner.get(`/v1/spaces/${spaceId}`);
    expect(response.status, response.text).toBe(200);
    return response.body.comments as number;
  }

  return { space, changeRequest, author, merge, edit, addPages, spaceWithPages, post, put, stored, spaceCount };
}
