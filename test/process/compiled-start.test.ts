import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { api } from './api.js';
import { FIRST_START_TOKEN, ROOT, cleanUp, listening, start, tempDir } from './spawn.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });
afterEach(cleanUp);

const BUILT = join(ROOT, 'build', 'server');

const PETS = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1' },
  paths: { '/pets': { get: { summary: 'List the pets', responses: { '200': { description: 'OK' } } } } },
});

describe('the compiled server (build/server/, what npm start runs)', () => {
  test('keeps no function names: no __name call wraps its closures', () => {
    const files = readdirSync(BUILT).filter((name) => name.endsWith('.js'));
    expect(files).toEqual(expect.arrayContaining(['server.js', 'worker.js']));
    for (const name of files) expect(readFileSync(join(BUILT, name), 'utf8'), name).not.toMatch(/\b__name\(/);
  });

  test('serves, and runs a job (an OpenAPI document) in a worker thread loaded from the build', async () => {
    const data = join(tempDir(), 'docs-platform.json');
    const server = await listening(start(process.execPath, [join(BUILT, 'server.js')], { env: { PORT: '0', DOCS_PLATFORM_DATA: data } }));
    const token = FIRST_START_TOKEN.exec(server.child.stdout)![1]!;
    const call = api(server.url, token);
    const organizationId = (await call('GET', '/v1/orgs')).body.items[0].id;
    expect((await call('POST', `/v1/orgs/${organizationId}/openapi`, { slug: 'pets', source: { text: PETS } })).status).toBe(201);
    // Processing happens after the response, in a thread: wait for its outcome.
    let spec: any;
    for (let attempt = 0; attempt < 200; attempt++) {
      spec = (await call('GET', `/v1/orgs/${organizationId}/openapi/pets`)).body;
      if (spec.processingState === 'complete') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(spec).toMatchObject({ processingState: 'complete', lastVersion: expect.any(String) });
    expect(spec.lastProcessErrorCode).toBeUndefined();
  });

  test('logs JSON lines on stdout (not a terminal), and serves /metrics on DOCS_PLATFORM_METRICS_PORT', async () => {
    const data = join(tempDir(), 'docs-platform.json');
    const env = { PORT: '0', DOCS_PLATFORM_DATA: data, DOCS_PLATFORM_METRICS_PORT: '0', DOCS_PLATFORM_RATE_LIMIT: '600' };
    const server = await listening(start(process.execPath, [join(BUILT, 'server.js')], { env }));
    const [, metricsUrl] = await server.child.waitFor(/metrics on (http:\/\/\S+)/);
    const token = FIRST_START_TOKEN.exec(server.child.stdout)![1]!;
    const response = await fetch(`${server.url}/v1/orgs`, { headers: { authorization: `Bearer ${token}`, 'x-request-id': 'proc-1' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).toBe('600');
    const [line] = await server.child.waitFor(/^\{.*"requestId":"proc-1".*\}$/m);
    expect(JSON.parse(line!)).toMatchObject({ level: 30, msg: 'request', method: 'GET', route: '/v1/orgs', status: 200, requestId: 'proc-1' });
    expect(server.child.stdout).not.toContain(`"${token}`);
    const scrape = await fetch(metricsUrl!);
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toMatch(/^docs_platform_requests_total\{route="\/v1\/orgs",method="GET",status="200"\} 1$/m);
  });
});
