/**
 * Child process of the heavy-work case: a local server of the sources its jobs fetch, the OpenAPI document
 * (`/openapi.json`) and the zip archive of pages (`/pages.zip`): `heavy-sources.ts <openAPIBytes> <zipPages>`.
 * A process of its own, because the bench's process times the light requests: sending 4 MB from its event
 * loop delayed the timing of the very requests the OpenAPI phase measures.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runAsChild } from './child.js';
import { largeOpenAPIDocument, zipOfPages } from './heavy-content.js';

runAsChild<{ url: string }>(async () => {
  const [openAPIBytes, zipPages] = process.argv.slice(2).map(Number);
  // Encoded once: a string body is encoded in the turn that sends it.
  const files: Record<string, { type: string; body: Uint8Array }> = {
    '/openapi.json': { type: 'application/json', body: new TextEncoder().encode(largeOpenAPIDocument(openAPIBytes)) },
    '/pages.zip': { type: 'application/zip', body: zipOfPages(zipPages) },
  };
  const server = createServer((request, response) => {
    const file = files[request.url ?? ''];
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    info: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
});
