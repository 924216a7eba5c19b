// A plain JavaScript app embedding the packed docs-platform, as a user of the published package would.
// embedding.test.ts copies it into a temporary app, runs it with node and reads the one JSON line it prints.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createJsonFileStore, createMemoryStore, createPlatform } from 'docs-platform';
import { createFetchHandler } from 'docs-platform/fetch';
import { serve } from 'docs-platform/node-http';
import { createWorkerPool } from 'docs-platform/workers';
import { createMcpHandler } from 'docs-platform/mcp';

const dataFile = join(dirname(fileURLToPath(import.meta.url)), 'data', 'platform.json');
const results = {};

// The memory store, for completeness: a platform over it initializes and lists its owner.
const scratch = createPlatform({ store: createMemoryStore() });
const first = await scratch.initialize();
results.memory = { members: (await scratch.as(first.userId).listMembers({ organizationId: first.organizationId })).count };
await scratch.close();

// Jobs in worker threads, as the README recommends on Node: the threads load the packed JavaScript.
const platform = createPlatform({ store: await createJsonFileStore({ path: dataFile }), workers: createWorkerPool({ threads: 1 }) });
const { organizationId, userId, token } = await platform.initialize({ title: 'Embedded', email: 'owner@embedded.test', name: 'Owner' });
results.organizationId = organizationId;
results.userId = userId;

// An operation called directly, as a user the app has authenticated.
const members = await platform.as(userId).listMembers({ organizationId });
results.direct = { count: members.count, ownerRole: members.items.find((member) => member.id === userId)?.role ?? null };

// An OpenAPI specification from text: processing parses it in a worker thread after the response.
const api = platform.as(userId);
await api.createOpenAPISpec({ organizationId, slug: 'pets', source: { text: JSON.stringify({ openapi: '3.1.0', info: { title: 'Pets', version: '1' }, paths: {} }) } });
await platform.settle();
const spec = await api.getOpenAPISpec({ organizationId, specSlug: 'pets' });
results.workers = { processingState: spec.processingState, hasVersion: spec.lastVersion !== undefined, error: spec.lastProcessErrorCode ?? null };

// The Fetch adapter, without a socket.
const handle = createFetchHandler(platform);
const response = await handle(new Request(`http://x/v1/orgs/${organizationId}/members`, { headers: { authorization: `Bearer ${token}` } }));
const listed = await response.json();
results.fetch = {
  status: response.status,
  contentType: response.headers.get('content-type'),
  ownerRole: listed.items?.find((member) => member.id === userId)?.role ?? null,
};

// The author server (MCP), mounted at a path of the app's own.
const mcp = createMcpHandler(platform);
const tools = await mcp(
  new Request('http://x/agents/mcp', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  }),
);
results.mcp = { status: tools.status, tools: (await tools.json()).result?.tools?.length ?? null };

// The node:http adapter, over a socket on a free port.
const running = await serve({ platform, port: 0, host: '127.0.0.1' });
try {
  const overSocket = await fetch(`${running.url}/v1/orgs`, { headers: { authorization: `Bearer ${token}` } });
  const organizations = await overSocket.json();
  results.nodeHttp = {
    status: overSocket.status,
    contentType: overSocket.headers.get('content-type'),
    organizationIds: organizations.items?.map((organization) => organization.id) ?? null,
  };
  // The self-description, without a token: the OpenAPI document, and the reference page with the files
  // the packed code finds in the installed swagger-ui-dist.
  const openapi = await fetch(`${running.url}/v1/openapi.json`);
  const page = await fetch(`${running.url}/docs`);
  const bundle = await fetch(`${running.url}/docs/swagger-ui-bundle.js`);
  results.reference = {
    openapi: openapi.status,
    version: (await openapi.json()).openapi,
    page: page.status,
    bundle: bundle.status,
    bundleType: bundle.headers.get('content-type'),
  };
} finally {
  await running.close();
}
await platform.close();

// What close() left on disk is a docs-platform data file, and the lock was released: it opens again.
const reopened = createPlatform({ store: await createJsonFileStore({ path: dataFile }) });
results.persisted = {
  format: JSON.parse(await readFile(dataFile, 'utf8')).format,
  members: (await reopened.as(userId).listMembers({ organizationId })).count,
};
await reopened.close();

console.log(JSON.stringify(results));
