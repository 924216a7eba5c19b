import { expect, it } from 'vitest';
import type { Caller } from './harness.js';
import { httpSuite } from './harness.js';
import { contentHelpers } from './content.js';

/**
 * Merging a change request into its space and bringing it up to date (`POST .../merge`, `POST .../update`),
 * end to end through both transports: content is written with the authoring endpoint, read back with the
 * content endpoints, and the space's counts and each request's `outdated` are checked along the way.
 */

httpSuite('change request merge and update', (h) => {
  const { space, stored } = contentHelpers(h);
  const crs = (spaceId: string) => `/v1/spaces/${spaceId}/change-requests`;

  /** Creates a change request (as the owner unless told) and returns it. */
  async function changeRequest(spaceId: string, caller: Caller = h().owner) {
    h().clock.advance(1000);
    const response = await caller.post(crs(spaceId), { subject: 'Some changes' });
    expect(response.status, response.text).toBe(201);
    return response.body as Record<string, any> & { id: string; number: number };
  }

  /** Applies a batch of content changes to a change request; returns the change request. */
  async function edit(spaceId: string, crId: string, changes: unknown[], caller: Caller = h().owner) {
    h().clock.advance(1000);
    const response = await caller.post(`${crs(spaceId)}/${crId}/content`, { changes });
    expect(response.status, response.text).toBe(200);
    return response.body;
  }

  const merge = (spaceId: string, crId: string | number, caller: Caller = h().owner) => {
    h().clock.advance(1000);
    return caller.post(`${crs(spaceId)}/${crId}/merge`);
  };
  const update = (spaceId: string, crId: string | number, caller: Caller = h().owner) => {
    h().clock.advance(1000);
    return caller.post(`${crs(spaceId)}/${crId}/update`);
  };
  const getCr = async (spaceId: string, crId: string) => (await h().owner.get(`${crs(spaceId)}/${crId}`)).body;
  const now = () => h().clock.now().toISOString();
  const getSpace = async (spaceId: string) => (await h().owner.get(`/v1/spaces/${spaceId}`)).body;

  /** The page tree at a content path, flattened: `path: title` in order, one line per page. */
  async function outline(contentPath: string) {
    const response = await h().owner.get(`${contentPath}/pages`);
    expect(response.status, response.text).toBe(200);
    const lines: string[] = [];
    const walk = (pages: any[]) => {
      for (const page of pages) {
        lines.push(`${page.path}: ${page.title}`);
        walk(page.pages ?? []);
      }
    };
    walk(response.body.pages);
    return lines;
  }

  /** A page's Markdown at a content path. */
  async function markdown(contentPath: string, pageId: string) {
    const response = await h().owner.get(`${contentPath}/page/${pageId}`);
    expect(response.status, response.text).toBe(200);
    return response.body.markdown as string;
  }

  const spaceContent = (spaceId: string) => `/v1/spaces/${spaceId}/content`;
  const crContent = (spaceId: string, crId: string) => `${crs(spaceId)}/${crId}/content`;

  /** A space with two live pages, Alpha and Beta (merged from a first change request); returns their ids. */
  async function seeded() {
    const { id: spaceId } = await space({ title: 'Docs' });
    const first = await changeRequest(spaceId);
    await edit(spaceId, first.id, [
      { operation: 'insert_page', title: 'Alpha', ref: 'alpha', document: { markdown: 'one\n\ntwo\n\nthree\n' } },
      { operation: 'insert_page', title: 'Beta', ref: 'beta', document: { markdown: 'beta body\n' } },
    ]);
    const pages = (await h().owner.get(`${crContent(spaceId, first.id)}/pages`)).body.pages;
    const merged = await merge(spaceId, first.id);
    expect(merged.status, merged.text).toBe(200);
    return { spaceId, alpha: pages[0].id as string, beta: pages[1].id as string };
  }

  it('merges a request made on the current revision: the space gets exactly its content, the request is final', async () => {
    const { id: spaceId } = await space({ title: 'Docs' });
    const before = await getSpace(spaceId);
    const cr = await changeRequest(spaceId);
    await edit(spaceId, cr.id, [
      { operation: 'insert_page', title: 'Guide', ref: 'guide', document: { markdown: 'Read me.\n' } },
      { operation: 'insert_page', title: 'Setup', into: 'guide', document: { markdown: 'Install it.\n' } },
      { operation: 'insert_page', type: 'group', title: 'Reference' },
    ]);
    const requested = await outline(crContent(spaceId, cr.id));
    const requestedRevision = (await getCr(spaceId, cr.id)).revision;
    h().clock.advance(1000);
    const merger = h().owner;
    const response = await merge(spaceId, cr.id, merger);
    expect(response.status, response.text).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['result', 'revision']);
    expect(response.body.result).toBe('merge');
    const after = await getSpace(spaceId);
    expect(after.revision).toBe(response.body.revision);
    expect(after.revision).not.toBe(before.revision);
    expect(after.updatedAt).toBe(now());
    expect(await outline(spaceContent(spaceId))).toEqual(requested);
    expect(await outline(spaceContent(spaceId))).toEqual(['guide: Guide', 'guide/setup: Setup', 'reference: Reference']);
    const revision = (await h().owner.get(spaceContent(spaceId))).body;
    expect(revision.id).toBe(response.body.revision);
    expect(revision.type).toBe('merge');
    expect(revision.parents).toEqual([before.revision, requestedRevision]);
    const merged = await getCr(spaceId, cr.id);
    expect(merged).toMatchObject({ status: 'merged', revisionMerged: response.body.revision, mergedAt: now(), outdated: false, updatedAt: now() });
    expect(merged.mergedBy.id).toBe(merger.userId);
    // Final: a second merge, an update, a content change and a PATCH are all refused, and change nothing.
    const state = await stored();
    for (const attempt of [
      () => merge(spaceId, cr.id),
      () => merge(spaceId, cr.number),
      () => update(spaceId, cr.id),
      () => h().owner.post(`${crContent(spaceId, cr.id)}`, { changes: [{ operation: 'insert_page', title: 'Late', document: {} }] }),
      () => h().owner.patch(`${crs(spaceId)}/${cr.id}`, { status: 'open' }),
    ]) {
      const refused = await attempt();
      expect(refused.status, refused.text).toBe(409);
    }
    expect(await stored()).toEqual(state);
  });

  it('merges two requests that edit different pages, keeping both edits', async () => {
    const { spaceId, alpha, beta } = await seeded();
    const first = await changeRequest(spaceId);
    const second = await changeRequest(spaceId);
    await edit(spaceId, first.id, [{ operation: 'update_page', page: alpha, title: 'Alpha 2', document: { markdown: 'ONE\n\ntwo\n\nthree\n' } }]);
    await edit(spaceId, second.id, [
      { operation: 'update_page', page: beta, document: { markdown: 'beta body, edited\n' } },
      { operation: 'insert_page', title: 'Gamma', into: beta, document: {} },
    ]);
    expect((await getCr(spaceId, second.id)).outdated).toBe(false);
    expect((await merge(spaceId, first.id)).body.result).toBe('merge');
    expect((await getCr(spaceId, second.id)).outdated).toBe(true);
    const response = await merge(spaceId, second.id);
    expect(response.status, response.text).toBe(200);
    expect(response.body.result).toBe('merge');
    expect(await outline(spaceContent(spaceId))).toEqual(['alpha: Alpha 2', 'beta: Beta', 'beta/gamma: Gamma']);
    expect(await markdown(spaceContent(spaceId), alpha)).toBe('ONE\n\ntwo\n\nthree\n');
    expect(await markdown(spaceContent(spaceId), beta)).toBe('beta body, edited\n');
  });

  it('reports conflicts when both change the same page differently: applied, the request winning, other lines combined', async () => {
    const { spaceId, alpha, beta } = await seeded();
    const first = await changeRequest(spaceId);
    const second = await changeRequest(spaceId);
    await edit(spaceId, first.id, [
      { operation: 'update_page', page: alpha, title: 'Alpha by first', document: { markdown: 'ONE\n\ntwo\n\nthree\n' } },
      { operation: 'update_page', page: beta, document: { markdown: 'beta from first\n' } },
    ]);
    await edit(spaceId, second.id, [
      { operation: 'update_page', page: alpha, title: 'Alpha by second', document: { markdown: 'one\n\ntwo\n\nTHREE\n' } },
      { operation: 'update_page', page: beta, document: { markdown: 'beta from second\n' } },
    ]);
    expect((await merge(spaceId, first.id)).body.result).toBe('merge');
    const response = await merge(spaceId, second.id);
    expect(response.status, response.text).toBe(200);
    expect(response.body.result).toBe('conflicts');
    expect((await getSpace(spaceId)).revision).toBe(response.body.revision);
    expect(await outline(spaceContent(spaceId))).toEqual(['alpha: Alpha by second', 'beta: Beta']);
    // Different lines of Alpha combine; the same line of Beta goes to the request merged last.
    expect(await markdown(spaceContent(spaceId), alpha)).toBe('ONE\n\ntwo\n\nTHREE\n');
    expect(await markdown(spaceContent(spaceId), beta)).toBe('beta from second\n');
    expect((await getCr(spaceId, second.id)).status).toBe('merged');
  });

  it('keeps a page one request deleted when the other edited it, and renames a slug both requests took', async () => {
    const { spaceId, alpha } = await seeded();
    const deleter = await changeRequest(spaceId);
    const editor = await changeRequest(spaceId);
    await edit(spaceId, deleter.id, [{ operation: 'delete_page', page: alpha }, { operation: 'insert_page', title: 'Intro', document: {} }]);
    await edit(spaceId, editor.id, [{ operation: 'update_page', page: alpha, title: 'Alpha kept' }, { operation: 'insert_page', title: 'Intro', document: {} }]);
    expect((await merge(spaceId, deleter.id)).body.result).toBe('merge');
    expect(await outline(spaceContent(spaceId))).toEqual(['beta: Beta', 'intro: Intro']);
    const response = await merge(spaceId, editor.id);
    expect(response.body.result).toBe('conflicts');
    // The live `intro` keeps its URL; the request's page takes the next free slug.
    expect(await outline(spaceContent(spaceId))).toEqual(['alpha: Alpha kept', 'beta: Beta', 'intro: Intro', 'intro-2: Intro']);
  });

  it('updates an outdated request onto the space, then merges it to exactly its content', async () => {
    const { spaceId, alpha, beta } = await seeded();
    const first = await changeRequest(spaceId);
    const second = await changeRequest(spaceId);
    await edit(spaceId, first.id, [{ operation: 'update_page', page: alpha, title: 'Alpha from first' }]);
    await edit(spaceId, second.id, [{ operation: 'update_page', page: beta, title: 'Beta from second' }, { operation: 'insert_page', title: 'Delta', document: {} }]);
    await merge(spaceId, first.id);
    const live = (await getSpace(spaceId)).revision;
    const outdated = await getCr(spaceId, second.id);
    expect(outdated.outdated).toBe(true);
    expect(outdated.revisionMergedAncestor).toBeUndefined();
    const response = await update(spaceId, second.number);
    expect(response.status, response.text).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['result', 'revision']);
    expect(response.body.result).toBe('update');
    const updated = await getCr(spaceId, second.id);
    expect(updated).toMatchObject({ revision: response.body.revision, revisionMergedAncestor: live, revisionInitial: outdated.revisionInitial, outdated: false, status: 'draft' });
    const revision = (await h().owner.get(crContent(spaceId, second.id))).body;
    expect(revision.type).toBe('update');
    expect(revision.parents).toEqual([outdated.revision, live]);
    const rebased = await outline(crContent(spaceId, second.id));
    expect(rebased).toEqual(['alpha: Alpha from first', 'beta: Beta from second', 'delta: Delta']);
    expect((await getSpace(spaceId)).revision).toBe(live);
    // Up to date: an update again changes nothing and answers the current revision.
    const state = await stored();
    const again = await update(spaceId, second.id);
    expect(again.body).toEqual({ revision: response.body.revision, result: 'update' });
    expect(await stored()).toEqual(state);
    const merged = await merge(spaceId, second.id);
    expect(merged.body.result).toBe('merge');
    expect(await outline(spaceContent(spaceId))).toEqual(rebased);
  });

  it('merges a request with no edits on an unmoved space into a new revision with one parent and the same pages', async () => {
    const { spaceId } = await seeded();
    const live = (await getSpace(spaceId)).revision;
    const pages = await outline(spaceContent(spaceId));
    const cr = await changeRequest(spaceId);
    const response = await merge(spaceId, cr.id);
    expect(response.body.result).toBe('merge');
    const revision = (await h().owner.get(spaceContent(spaceId))).body;
    expect(revision).toMatchObject({ id: response.body.revision, type: 'merge', parents: [live] });
    expect(await outline(spaceContent(spaceId))).toEqual(pages);
  });

  it('keeps the space counts exact and flips outdated as the space moves', async () => {
    const { spaceId } = await seeded();
    const counts = async () => {
      const body = await getSpace(spaceId);
      return [body.changeRequests, body.changeRequestsOpen, body.changeRequestsDraft];
    };
    expect(await counts()).toEqual([1, 0, 0]);
    const a = await changeRequest(spaceId);
    const b = await changeRequest(spaceId);
    const c = await changeRequest(spaceId);
    await h().owner.patch(`${crs(spaceId)}/${a.id}`, { status: 'open' });
    await h().owner.patch(`${crs(spaceId)}/${b.id}`, { status: 'open' });
    expect(await counts()).toEqual([4, 2, 1]);
    await edit(spaceId, a.id, [{ operation: 'insert_page', title: 'From A', document: {} }]);
    expect((await merge(spaceId, a.id)).status).toBe(200);
    expect(await counts()).toEqual([4, 1, 1]);
    expect((await getCr(spaceId, b.id)).outdated).toBe(true);
    expect((await getCr(spaceId, c.id)).outdated).toBe(true);
    expect((await update(spaceId, c.id)).status).toBe(200);
    expect((await getCr(spaceId, c.id)).outdated).toBe(false);
    // A draft merges too (its content is unchanged here: the space stays as it is, in a new revision).
    expect((await merge(spaceId, c.id)).body.result).toBe('merge');
    expect(await counts()).toEqual([4, 1, 0]);
    expect((await getCr(spaceId, b.id)).outdated).toBe(true);
    expect(await outline(spaceContent(spaceId))).toEqual(['alpha: Alpha', 'beta: Beta', 'from-a: From A']);
    const merged = await h().owner.get(`${crs(spaceId)}?status=merged`);
    expect(merged.body.items.map((item: { id: string }) => item.id).sort()).toEqual([a.id, c.id, (await h().owner.get(`${crs(spaceId)}/1`)).body.id].sort());
  });

  it('refuses bad requests with a clear error and changes nothing', async () => {
    const { spaceId, alpha } = await seeded();
    const cr = await changeRequest(spaceId);
    await edit(spaceId, cr.id, [{ operation: 'update_page', page: alpha, title: 'Changed' }]);
    const editor = await h().user('edit');
    const reader = await h().user('read');
    const outsider = (await h().organization()).owner;
    const state = await stored();
    const cases: [() => Promise<{ status: number; body: any }>, number, RegExp][] = [
      [() => merge(spaceId, 'no-such-request'), 404, /No change request no-such-request/],
      [() => merge(spaceId, 99), 404, /No change request 99/],
      [() => update(spaceId, 'no-such-request'), 404, /No change request/],
      [() => merge('no-such-space', cr.id), 404, /No space/],
      [() => merge(spaceId, cr.id, outsider), 404, /No space/],
      [() => merge(spaceId, cr.id, editor), 403, /review level/],
      [() => merge(spaceId, cr.id, reader), 403, /review level/],
      [() => update(spaceId, cr.id, reader), 403, /edit level/],
      [() => h().request('POST', `${crs(spaceId)}/${cr.id}/merge`, { token: null }), 401, /./],
    ];
    for (const [attempt, status, message] of cases) {
      const response = await attempt();
      expect(response.status, JSON.stringify(response.body)).toBe(status);
      expect(response.body.error.message).toMatch(message);
    }
    expect(await stored()).toEqual(state);

    /** Both merge and update are refused with 409 naming why, and nothing stored changes. */
    const refusedBoth = async (why: RegExp) => {
      const before = await stored();
      for (const attempt of [() => merge(spaceId, cr.id), () => update(spaceId, cr.id)]) {
        const response = await attempt();
        expect(response.status).toBe(409);
        expect(response.body.error.message).toMatch(why);
      }
      expect(await stored()).toEqual(before);
    };
    // Archived: reopen first. Locked space: neither merge nor update.
    await h().owner.patch(`${crs(spaceId)}/${cr.id}`, { status: 'archived' });
    await refusedBoth(/archived/);
    await h().owner.patch(`${crs(spaceId)}/${cr.id}`, { status: 'open' });
    await h().owner.patch(`/v1/spaces/${spaceId}`, { editMode: 'locked' });
    await refusedBoth(/locked/);
    await h().owner.patch(`/v1/spaces/${spaceId}`, { editMode: 'live' });
    // The edit level may update a request; merging it takes the review level.
    const reviewer = await h().user('review');
    expect((await update(spaceId, cr.id, editor)).status).toBe(200);
    const response = await merge(spaceId, cr.id, reviewer);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(await outline(spaceContent(spaceId))).toEqual(['alpha: Changed', 'beta: Beta']);
  });
});
