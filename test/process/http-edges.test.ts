import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { api } from './api.js';
import { FIRST_START_TOKEN, ROOT, cleanUp, finished, listening, start, tempDir } from './spawn.js';

/** The edges of the compiled server's HTTP front (build/server/, what npm start runs), over real sockets. */

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });
afterEach(cleanUp);

const SERVER = join(ROOT, 'build', 'server', 'server.js');

/** Sends a GET with this Host line as it is, over a socket, and resolves with the status line and the headers. */
function rawGet(url: string, path: string, host: string): Promise<{ status: number; head: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject).on('close', () => {
      const head = text.slice(0, text.indexOf('\r\n\r\n'));
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), head });
    });
  });
}

describe('the compiled server', () => {
  test('answers a bad Host 400, never 500, on the API and on a published site', async () => {
    const server = await listening(start(process.execPath, [SERVER], { env: { PORT: '0', DOCS_PLATFORM_DATA: join(tempDir(), 'data.json') } }));
    const call = api(server.url, FIRST_START_TOKEN.exec(server.child.stdout)![1]!);
    const organizationId = (await call('GET', '/v1/orgs')).body.items[0].id;
    const space = (await call('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Guide' })).body;
    expect((await call('PATCH', `/v1/spaces/${space.id}`, { visibility: 'public' })).status).toBe(200);
    const change = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    const page = { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hi.\n' } };
    expect((await call('POST', `/v1/spaces/${space.id}/change-requests/${change.id}/content`, { changes: [page] })).status).toBe(200);
    expect((await call('POST', `/v1/spaces/${space.id}/change-requests/${change.id}/merge`, {})).status).toBe(200);
    const site = (await call('POST', `/v1/orgs/${organizationId}/sites`, { title: 'Handbook', spaces: [space.id] })).body;
    expect((await call('POST', `/v1/orgs/${organizationId}/sites/${site.id}/publish`, {})).status).toBe(200);
    const published = new URL((await call('GET', `/v1/orgs/${organizationId}/sites/${site.id}/published`)).body.site.urls.published).pathname;
    expect((await rawGet(server.url, published, new URL(server.url).host)).status).toBe(200);
    for (const host of ['a b', 'e"v<il>', 'a:99999', 'evil.example;x', '']) {
      const reader = await rawGet(server.url, published, host);
      expect([reader.status, /^content-type: text\/html/im.test(reader.head)], JSON.stringify(host)).toEqual([400, true]);
      expect(reader.head).not.toContain('evil');
      const answer = await rawGet(server.url, '/v1/openapi.json', host);
      expect([answer.status, /^content-type: application\/json/im.test(answer.head)], JSON.stringify(host)).toEqual([400, true]);
    }
  });

  test('refuses a DOCS_PLATFORM_TRUST_PROXY it cannot read at start, naming it (exit 2)', async () => {
    const env = { PORT: '0', DOCS_PLATFORM_DATA: join(tempDir(), 'data.json'), DOCS_PLATFORM_TRUST_PROXY: 'loopback, proxy.internal' };
    const run = await finished(start(process.execPath, [SERVER], { env }));
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toBe('DOCS_PLATFORM_TRUST_PROXY: "proxy.internal" is not an IP address, a CIDR range (10.0.0.0/8, fd00::/8) or loopback\n');
  });
});
