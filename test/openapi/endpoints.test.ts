import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/adapters/fetch/index.js';
import { swaggerUiAssets } from '../../src/adapters/node-http/docs-assets.js';
import { serve, type RunningServer } from '../../src/adapters/node-http/index.js';
import { Router } from '../../src/adapters/router.js';
import { createPlatform, type Platform } from '../../src/core/platform.js';
import { routes } from '../../src/core/routes.js';
import { createMemoryStore } from '../../src/store/memory.js';

/**
 * `GET /v1/openapi.json` and the reference page under `/docs`, through both adapters: served without a
 * token (everything else still needs one), and the document describes the responses the server really sends.
 */

const swaggerUiFolder = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

interface Client {
  origin: string;
  send(path: string, init?: RequestInit): Promise<Response>;
}

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.reverse()) await close();
  cleanup = [];
});

/** A platform with its owner's token, and a client for it over one transport. */
async function setUp(transport: 'fetch' | 'fetch+assets' | 'node-http', options: { baseUrl?: string } = {}) {
  const platform: Platform = createPlatform({ store: createMemoryStore(), signingKey: 'test-key', ...options });
  const owner = await platform.initialize({ title: 'Acme Docs', email: 'owner@acme.test', name: 'Olive Owner' });
  cleanup.push(() => platform.close());
  let client: Client;
  if (transport === 'node-http') {
    const server: RunningServer = await serve({ platform, port: 0 });
    cleanup.push(() => server.close());
    client = { origin: server.url, send: (path, init) => fetch(`${server.url}${path}`, init) };
  } else {
    const handle = createFetchHandler(platform, transport === 'fetch+assets' ? { docsAssets: swaggerUiAssets() } : {});
    client = { origin: 'http://docs.test', send: (path, init) => handle(new Request(`http://docs.test${path}`, init)) };
  }
  return { platform, owner, client };
}

describe.each(['fetch', 'node-http'] as const)('the self-description (%s)', (transport) => {
  it('serves the OpenAPI document without a token, with this server as its server', async () => {
    const { client } = await setUp(transport);
    const response = await client.send('/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const document = await response.json();
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: client.origin }]);
    const operations = Object.values<Record<string, unknown>>(document.paths).flatMap((item) => Object.keys(item));
    expect(operations.length).toBe(routes.length);
  });

  it('names the configured public URL as the server', async () => {
    const { client } = await setUp(transport, { baseUrl: 'https://docs.example.com' });
    const document = await (await client.send('/v1/openapi.json')).json();
    expect(document.servers).toEqual([{ url: 'https://docs.example.com' }]);
  });

  it('answers 405 for other methods, and still asks for a token everywhere else', async () => {
    const { client, owner } = await setUp(transport);
    const post = await client.send('/v1/openapi.json', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    expect(await post.json()).toEqual({ error: { code: 405, message: 'POST is not allowed on /v1/openapi.json; use GET' } });
    for (const path of ['/v1/orgs', '/v1/user', `/v1/orgs/${owner.organizationId}/members`]) {
      const response = await client.send(path);
      expect(response.status, path).toBe(401);
    }
  });
});

describe('the API reference page', () => {
  it.each(['node-http', 'fetch+assets'] as const)('is served with its swagger-ui-dist files, without a token (%s)', async (transport) => {
    const { client } = await setUp(transport);
    const page = await client.send('/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    // Framed only by pages of its own origin, as the reader's pages are.
    expect(page.headers.get('content-security-policy')).toMatch(/; frame-ancestors 'self'$/);
    const html = await page.text();
    for (const asset of ['/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js', '/docs/init.js']) expect(html).toContain(asset);
    expect((await client.send('/docs/')).status).toBe(200);

    const init = await client.send('/docs/init.js');
    expect(init.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await init.text()).toContain("url: '/v1/openapi.json'");
    for (const [name, type] of [['swagger-ui-bundle.js', 'text/javascript'], ['swagger-ui.css', 'text/css']]) {
      const asset = await client.send(`/docs/${name}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toBe(`${type}; charset=utf-8`);
      expect(await asset.text()).toBe(await readFile(join(swaggerUiFolder, name), 'utf8'));
    }
  });

  it.each(['node-http', 'fetch+assets'] as const)('serves no other file (%s)', async (transport) => {
    const { client } = await setUp(transport);
    const prototypeNames = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'].map((name) => `/docs/${name}`);
    for (const path of ['/docs/index.html', '/docs/package.json', '/docs/..%2Fpackage.json', '/docs/swagger-ui-bundle.js.map', ...prototypeNames]) {
      const response = await client.send(path);
      expect(response.status, path).toBe(404);
      expect((await response.json()).error.code).toBe(404);
    }
  });

  it('is a 404 that says where it is when the Fetch handler has no files for it', async () => {
    const { client } = await setUp('fetch');
    const response = await client.send('/docs');
    expect(response.status).toBe(404);
    const body = await response.json();
    expect(body.error.message).toMatch(/node:http adapter.*docsAssets: swaggerUiAssets\(\).*\/v1\/openapi\.json/);
  });
});

describe('the document describes what the server sends', () => {
  it('validates real responses, successes and errors, against the schemas of the document', async () => {
    const { client, owner } = await setUp('node-http');
    const document = await (await client.send('/v1/openapi.json')).json();
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema(document, 'openapi.json');
    const router = new Router(routes);
    const auth = { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' };
    const org = `/v1/orgs/${owner.organizationId}`;
    const checked: string[] = [];

    async function call(method: string, path: string, body?: unknown): Promise<any> {
      const response = await client.send(path, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await response.text();
      const match = router.match(method, path.split('?')[0]);
      if (match.kind !== 'route') throw new Error(`${method} ${path}: no route`);
      const responses = document.paths[match.route.path][method.toLowerCase()].responses;
      const declared = responses[String(response.status)] ?? responses.default;
      expect(declared, `${method} ${path} answered ${response.status}, which the document does not list`).toBeDefined();
      const schema = declared.content?.['application/json']?.schema;
      if (!schema) {
        expect(text).toBe('');
        return undefined;
      }
      const pointer = schema.$ref ?? `#/paths/${match.route.path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method.toLowerCase()}/responses/${response.status}/content/application~1json/schema`;
      const validate = ajv.getSchema(`openapi.json${pointer}`)!;
      const parsed = JSON.parse(text);
      expect(validate(parsed), `${method} ${path} ${response.status}: ${ajv.errorsText(validate.errors)}\n${text.slice(0, 500)}`).toBe(true);
      if (response.status === 201 && declared.headers?.Location) expect(response.headers.get('location')).toBe(parsed.urls.location);
      checked.push(`${method} ${match.route.path} ${response.status}`);
      return parsed;
    }

    await call('GET', '/v1/orgs?limit=1');
    await call('GET', org);
    await call('PATCH', org, { title: 'Acme Documentation', hostname: 'acme-docs', defaultRole: null, inviteLinks: true });
    await call('GET', '/v1/email-domains/acme.test/orgs');
    await call('GET', `${org}/members?sort=lastSeenAt&order=asc`);
    await call('POST', `${org}/ping`);
    await call('GET', `${org}/members?search=olive`);
    await call('GET', `${org}/members/${owner.userId}`);
    const team = await call('PUT', `${org}/teams`, { title: 'Writers' });
    await call('GET', `${org}/teams?title=writ`);
    await call('PUT', `${org}/teams/${team.id}/members/${owner.userId}`, { role: 'owner' });
    await call('GET', `${org}/teams/${team.id}/members`);
    await call('GET', `${org}/members/${owner.userId}/teams`);
    const invite = await call('POST', `${org}/link-invites`, { role: 'read' });
    await call('GET', `${org}/link-invites`);
    await call('GET', `${org}/link-invites/${invite.id}`);
    await call('DELETE', `${org}/link-invites/${invite.id}`);
    await call('GET', '/v1/user');
    // Errors: the one error shape, under the statuses the document lists.
    await call('GET', `${org}/teams/no-such-team`);
    await call('GET', `${org}/members?limit=0`);
    await call('PATCH', org, { title: 'x' });
    expect(checked).toContain(`PUT /v1/orgs/{organizationId}/teams 201`);
    expect(checked).toContain(`GET /v1/orgs/{organizationId}/teams/{teamId} 404`);
    expect(checked).toContain(`GET /v1/orgs/{organizationId}/members 400`);
  });
});
