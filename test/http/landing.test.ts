import { describe, expect, it } from 'vitest';
import { swaggerUiAssets } from '../../src/adapters/node-http/docs-assets.js';
import { prefersJson } from '../../src/adapters/landing.js';
import { PACKAGE } from '../../src/package-info.js';
import { createHarness, httpSuite, type Harness } from './harness.js';

/**
 * `GET /`: a small page for a browser (name, version, links to the reference page, the OpenAPI document and
 * the probes) with the security headers of every HTML answer, or JSON for a client that prefers it; through
 * both adapters, the Fetch one given the reference page's files and the probes as serve() has them.
 */

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

httpSuite(
  'the landing answer',
  (h) => {
    it('answers a browser with a page that names the server and links what it serves', async () => {
      const response = await h().send('/', { headers: { accept: BROWSER } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('vary')).toMatch(/accept/i);
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+';/);
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).not.toMatch(/script-src|unsafe-inline/);
      const html = await response.text();
      expect(html.startsWith('<!doctype html>')).toBe(true);
      expect(html).toContain(`<title>${PACKAGE.name} ${PACKAGE.version}</title>`);
      for (const path of ['/docs', '/v1/openapi.json', '/healthz', '/readyz']) expect(html).toContain(`<a href="${path}">`);
      // Every link answers.
      for (const path of ['/docs', '/v1/openapi.json', '/healthz', '/readyz']) expect((await h().send(path)).status, path).toBe(200);
    });

    it('answers JSON to a client that prefers it, with absolute links', async () => {
      const response = await h().send('/', { headers: { accept: 'application/json' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const origin = h().url ?? 'http://docs.test';
      expect(await response.json()).toEqual({
        name: 'docs-platform',
        version: PACKAGE.version,
        links: { docs: `${origin}/docs`, openapi: `${origin}/v1/openapi.json`, health: `${origin}/healthz`, ready: `${origin}/readyz` },
      });
    });

    it('needs no token, answers HEAD, and 405 to other methods; other unknown paths stay 404', async () => {
      expect((await h().send('/', { method: 'HEAD' })).status).toBe(200);
      const post = await h().send('/', { method: 'POST' });
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET, HEAD');
      expect(await post.json()).toEqual({ error: { code: 405, message: 'POST is not allowed on /; use GET' } });
      const other = await h().send('/nowhere');
      expect(other.status).toBe(404);
      expect(await other.json()).toEqual({ error: { code: 404, message: 'No endpoint GET /nowhere' } });
    });
  },
  { pipeline: { docsAssets: swaggerUiAssets(), health: true } },
);

describe('the landing answer of a bare Fetch handler', () => {
  it('links only what it serves: the OpenAPI document, without the reference page and the probes', async () => {
    const h: Harness = await createHarness('fetch');
    try {
      const body = await (await h.send('/', { headers: { accept: 'application/json' } })).json();
      expect(body.links).toEqual({ openapi: 'http://docs.test/v1/openapi.json' });
      const html = await (await h.send('/')).text();
      expect(html).toContain('<a href="/v1/openapi.json">');
      expect(html).not.toContain('href="/docs"');
    } finally {
      await h.close();
    }
  });
});

describe('choosing JSON or HTML by Accept', () => {
  it('gives JSON only when the client prefers it to HTML', () => {
    expect(prefersJson(undefined)).toBe(false);
    expect(prefersJson('*/*')).toBe(false);
    expect(prefersJson(BROWSER)).toBe(false);
    expect(prefersJson('application/json')).toBe(true);
    expect(prefersJson('application/json, text/plain, */*')).toBe(true);
    expect(prefersJson('text/html;q=0.5, application/json')).toBe(true);
    expect(prefersJson('application/json;q=0.5, text/html')).toBe(false);
    expect(prefersJson('application/*')).toBe(true);
    expect(prefersJson('text/*, application/json')).toBe(true);
    expect(prefersJson('text/html, application/json')).toBe(false);
  });
});
