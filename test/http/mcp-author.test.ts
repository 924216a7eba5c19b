/**
 * The author server (MCP) at /mcp, through both transports with the SDK's own client: its tools, an author's
 * whole task from a change request to a published page, permissions as the API's, and what a client that
 * is not one gets.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect, it } from 'vitest';
import { httpSuite, type Caller, type Harness } from './harness.js';
import { connectMcp, expectToolError, mcpTransport } from './mcp-client.js';

const TOOLS = [
  'list_organizations',
  'list_members',
  'list_spaces',
  'list_sites',
  'search',
  'list_pages',
  'get_page',
  'open_change_request',
  'edit_pages',
  'comment',
  'request_review',
  'merge_change_request',
  'publish_site',
  'unpublish_site',
  'add_space_to_site',
];

/** A space and a site of the harness's organization, made through the API by the owner. */
async function spaceAndSite(h: Harness): Promise<{ spaceId: string; siteId: string }> {
  h.clock.advance(1000);
  const space = await h.owner.post(`/v1/orgs/${h.organizationId}/spaces`, { title: 'Handbook' });
  expect(space.status, space.text).toBe(201);
  // Public, so that the published site shows it to anyone.
  expect((await h.owner.patch(`/v1/spaces/${space.body.id}`, { visibility: 'public' })).status).toBe(200);
  const site = await h.owner.post(`/v1/orgs/${h.organizationId}/sites`, { title: 'Public docs' });
  expect(site.status, site.text).toBe(201);
  return { spaceId: space.body.id, siteId: site.body.id };
}

/** The error message the HTTP API answers a request with (which must fail with `status`). */
async function apiError(caller: Caller, path: string, body: unknown, status: number): Promise<string> {
  const response = await caller.post(path, body);
  expect(response.status, response.text).toBe(status);
  return response.body.error.message;
}

httpSuite('author MCP server', (h) => {
  it('lists its tools, each with a description and an object schema of its arguments', async () => {
    const mcp = await connectMcp(h(), h().owner.token);
    expect(mcp.client.getServerVersion()).toMatchObject({ name: 'docs-platform-author' });
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.description, tool.name).toMatch(/\. (Changes nothing|.*[Cc]hange)/);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(/^(list|search|get)/.test(tool.name));
    }
    const edit = tools.find((tool) => tool.name === 'edit_pages')!;
    expect(edit.inputSchema.required).toEqual(['spaceId', 'changeRequestId', 'changes']);
    // The batch's own limits, from the authoring operation's schema.
    expect(edit.inputSchema.properties!.changes).toMatchObject({ type: 'array', minItems: 1, maxItems: 50 });
    await mcp.close();
  });

  it('does an author’s task: open a change request, insert and edit pages, comment, merge, publish, read the page back', async () => {
    const { spaceId, siteId } = await spaceAndSite(h());
    const organizationId = h().organizationId;
    const mcp = await connectMcp(h(), h().owner.token);

    expect((await mcp.ok('list_organizations')).items.map((org: any) => org.id)).toEqual([organizationId]);
    expect((await mcp.ok('list_spaces', { organizationId })).items.map((space: any) => space.id)).toEqual([spaceId]);
    expect((await mcp.ok('list_sites', { organizationId, limit: 10 })).items.map((site: any) => [site.id, site.published])).toEqual([[siteId, false]]);

    const changeRequest = await mcp.ok('open_change_request', { spaceId, subject: 'Add the setup guide' });
    expect(changeRequest).toMatchObject({ object: 'change-request', subject: 'Add the setup guide', status: 'draft' });
    const changeRequestId = changeRequest.id;
    const inserted = await mcp.ok('edit_pages', {
      spaceId,
      changeRequestId,
      changes: [
        { operation: 'insert_page', title: 'Setup', ref: 'setup', markdown: 'Install the **parrot** kit.' },
        { operation: 'insert_page', title: 'Scratch', into: 'setup', markdown: 'To be removed.' },
        { operation: 'insert_page', title: 'Moved', markdown: 'Goes under Setup.' },
      ],
    });
    expect(inserted.changes.map((change: any) => change.object)).toEqual(['created_page', 'created_page', 'created_page']);
    const [setup, scratch, moved] = inserted.changes.map((change: any) => change.page.id);
    await mcp.ok('edit_pages', {
      spaceId,
      changeRequestId,
      changes: [
        { operation: 'update_page', page: setup, markdown: 'Install the **parrot** kit, then feed it.' },
        { operation: 'update_page', page: moved, into: setup, at: 0 },
        { operation: 'delete_page', page: scratch },
      ],
    });
    const pages = await mcp.ok('list_pages', { spaceId, changeRequestId });
    expect(pages.pages.map((page: any) => [page.title, page.pages.map((child: any) => child.title)])).toEqual([['Setup', ['Moved']]]);
    // The space itself is unchanged until the merge.
    expect((await mcp.ok('list_pages', { spaceId })).pages).toEqual([]);
    const draft = await mcp.ok('get_page', { spaceId, changeRequestId, pageId: setup });
    expect(draft.markdown).toContain('then feed it');

    const comment = await mcp.ok('comment', { spaceId, changeRequestId, markdown: 'Ready for review.', page: setup });
    expect(comment).toMatchObject({ object: 'comment' });
    const comments = await h().owner.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/comments`);
    expect(comments.body.items.map((item: any) => item.id)).toEqual([comment.id]);

    const reviewer = await h().user('review', { name: 'Rita Reviewer' });
    const members = await mcp.ok('list_members', { organizationId, search: 'Rita' });
    expect(members.items.map((member: any) => member.user.id)).toEqual([reviewer.userId]);
    const asked = await mcp.ok('request_review', { spaceId, changeRequestId, users: [reviewer.userId] });
    expect(asked.users.map((item: any) => [item.user.id, item.requestedBy.id])).toEqual([[reviewer.userId, h().owner.userId]]);
    expect((await h().owner.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}`)).body.status).toBe('open');

    const merged = await mcp.ok('merge_change_request', { spaceId, changeRequestId });
    expect(merged).toMatchObject({ result: 'merge' });
    const siteSpace = await mcp.ok('add_space_to_site', { organizationId, siteId, spaceId });
    expect(siteSpace).toMatchObject({ object: 'site-space', space: { id: spaceId } });
    const published = await mcp.ok('publish_site', { organizationId, siteId });
    expect(published).toMatchObject({ id: siteId, published: true });

    const page = await mcp.ok('get_page', { spaceId, pagePath: 'setup' });
    expect(page).toMatchObject({ id: setup, title: 'Setup', markdown: expect.stringContaining('Install the **parrot** kit, then feed it.') });
    const found = await mcp.ok('search', { organizationId, query: 'parrot' });
    expect(found.items.map((item: any) => [item.id, item.pages.map((hit: any) => hit.title)])).toEqual([[spaceId, ['Setup']]]);
    // Published: the reader serves the page.
    const read = await h().send(`${new URL(published.urls.published).pathname.replace(/\/$/, '')}/setup`);
    expect(read.status).toBe(200);
    expect(await read.text()).toContain('then feed it');

    expect(await mcp.ok('unpublish_site', { organizationId, siteId })).toMatchObject({ id: siteId, published: false });
    await mcp.close();
  });

  it('gives a read member the API’s own 403s for edits, merges and publishing, and reads for it', async () => {
    const { spaceId, siteId } = await spaceAndSite(h());
    const organizationId = h().organizationId;
    h().clock.advance(1000);
    const changeRequestId = (await h().owner.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Owner edits' })).body.id;
    const reader = await h().user('read');
    const mcp = await connectMcp(h(), reader.token);

    expect((await mcp.ok('list_spaces', { organizationId })).items.map((space: any) => space.id)).toEqual([spaceId]);
    const changes = [{ operation: 'insert_page', title: 'Nope', markdown: 'x' }];
    const crPath = `/v1/spaces/${spaceId}/change-requests/${changeRequestId}`;
    expectToolError(await mcp.call('edit_pages', { spaceId, changeRequestId, changes }), 403, await apiError(reader, `${crPath}/content`, { changes: [{ operation: 'insert_page', title: 'Nope', document: { markdown: 'x' } }] }, 403));
    expectToolError(await mcp.call('merge_change_request', { spaceId, changeRequestId }), 403, await apiError(reader, `${crPath}/merge`, {}, 403));
    expectToolError(await mcp.call('publish_site', { organizationId, siteId }), 403, await apiError(reader, `/v1/orgs/${organizationId}/sites/${siteId}/publish`, {}, 403));
    expectToolError(
      await mcp.call('request_review', { spaceId, changeRequestId, users: [h().owner.userId] }),
      403,
      await apiError(reader, `${crPath}/requested-reviewers`, { users: [h().owner.userId] }, 403),
    );
    expectToolError(await mcp.call('open_change_request', { spaceId, subject: 'Mine' }), 403, await apiError(reader, `/v1/spaces/${spaceId}/change-requests`, { subject: 'Mine' }, 403));
    // Nothing changed.
    expect((await h().owner.get(`/v1/sites/${siteId}`)).status).toBe(404);
    expect((await h().owner.get(`/v1/orgs/${organizationId}/sites/${siteId}`)).body.published).toBe(false);
    expect((await h().owner.get(`${crPath}/content/pages`)).body.pages).toEqual([]);
    await mcp.close();
  });

  it('shows a token of another organization nothing: 404s, as the API', async () => {
    const { spaceId, siteId } = await spaceAndSite(h());
    const organizationId = h().organizationId;
    const other = await h().organization();
    const mcp = await connectMcp(h(), other.owner.token);
    expect((await mcp.ok('list_organizations')).items.map((org: any) => org.id)).toEqual([other.organizationId]);
    expectToolError(await mcp.call('list_spaces', { organizationId }), 404, (await other.owner.get(`/v1/orgs/${organizationId}/spaces`)).body.error.message);
    expectToolError(await mcp.call('list_pages', { spaceId }), 404, (await other.owner.get(`/v1/spaces/${spaceId}/content/pages`)).body.error.message);
    expectToolError(await mcp.call('open_change_request', { spaceId, subject: 'Theirs' }), 404, /./);
    expectToolError(await mcp.call('publish_site', { organizationId, siteId }), 404, /./);
    await mcp.close();
  });

  it('refuses a request without a token or with a bad one: 401 in the error shape, with WWW-Authenticate', async () => {
    for (const authorization of [undefined, 'Bearer dp_unknown-token', 'Basic abc']) {
      const response = await h().send('/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization && { authorization }) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="docs-platform"');
      expect(await response.json()).toEqual({ error: { code: 401, message: expect.any(String) } });
    }
    // The SDK's client fails to connect, with the status.
    const client = new Client({ name: 'no-token', version: '1.0.0' });
    await expect(client.connect(mcpTransport(h(), null))).rejects.toThrow(/401/);
  });

  it('answers bad arguments with a 400 tool error naming the field, an unknown tool with a protocol error', async () => {
    const { spaceId } = await spaceAndSite(h());
    const mcp = await connectMcp(h(), h().owner.token);
    expectToolError(await mcp.call('open_change_request', { spaceId }), 400, 'subject: is required');
    expectToolError(await mcp.call('open_change_request', { spaceId, subject: 'x'.repeat(101) }), 400, 'subject: must be at most 100 characters');
    expectToolError(await mcp.call('get_page', { spaceId }), 400, 'value: give exactly one of pageId and pagePath');
    expectToolError(await mcp.call('edit_pages', { spaceId, changeRequestId: 'x', changes: [] }), 400, 'changes: must have at least one change');
    await expect(mcp.call('no_such_tool')).rejects.toThrow(/No tool no_such_tool/);
    await mcp.close();
  });

  it('takes only POST: no session, no stream', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await h().send('/mcp', { method, headers: { authorization: `Bearer ${h().owner.token}`, accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(await response.json()).toEqual({ error: { code: 405, message: expect.stringMatching(/^(GET|DELETE) is not allowed on \/mcp; use POST/) } });
    }
    const notJson = await h().send('/mcp', { method: 'POST', headers: { authorization: `Bearer ${h().owner.token}`, 'content-type': 'application/json' }, body: '{' });
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error.code).toBe(400);
  });
});
