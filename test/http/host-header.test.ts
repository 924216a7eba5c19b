/**
 * The host a request came to (the Host header over node:http, the URL's host through Fetch) is checked before
 * anything is built of it: a bad one is a 400, in the error shape on the API's paths and as a page on the
 * reader's, never a 500 and never text in a Content-Security-Policy.
 */
import { expect, it } from 'vitest';
import { BAD_HOST_MESSAGE } from '../../src/adapters/host.js';
import { httpSuite, type Harness } from './harness.js';
import { readerHelpers } from './reader/reader-helpers.js';

/** Bad hosts a URL parses (so the Fetch transport can send them too) and, over a socket, ones it does not. */
function badHosts(h: () => Harness): string[] {
  const parsed = ['evil.example;x', 'e"v', "a'b", 'a,b'];
  return h().transport === 'fetch' ? parsed : [...parsed, 'a b', 'e"v<il>', 'a:99999', 'a:0', '[fe80::1%25eth0]', '999.1.1.1', 'docs.0x1f'];
}

httpSuite('the Host of a request', (h) => {
  const r = readerHelpers(h);

  it('is a 400 in the error shape on the API, the OpenAPI document and /docs', async () => {
    for (const host of badHosts(h)) {
      for (const path of ['/v1/orgs', '/v1/openapi.json', '/docs']) {
        const answer = await h().sendToHost(host, path, { authorization: `Bearer ${h().owner.token}` });
        expect(answer.status, `${JSON.stringify(host)} ${path}`).toBe(400);
        expect(await answer.json()).toEqual({ error: { code: 400, message: BAD_HOST_MESSAGE } });
      }
    }
  });

  it("is a 400 page on the reader's paths, whose CSP holds nothing of it", async () => {
    const site = await r.publishedSite([{ title: 'Welcome', document: { markdown: 'Hi.\n' } }]);
    const { pathname } = new URL(site.url);
    for (const host of badHosts(h)) {
      const answer = await h().sendToHost(host, pathname);
      expect(answer.status, JSON.stringify(host)).toBe(400);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await answer.text()).toContain('The Host header must be');
      expect(answer.headers.get('content-security-policy')).toMatch(/^default-src 'none'; [^"]*frame-ancestors 'self'$/);
      expect(answer.headers.get('content-security-policy')).not.toContain('evil');
    }
  });

  it('builds the links and the CSP of a valid host: a name, an address, with a port', async () => {
    const site = await r.publishedSite([{ title: 'Welcome', document: { markdown: 'Hi.\n' } }]);
    const { pathname } = new URL(site.url);
    for (const host of ['docs.example.com:8080', '127.0.0.1:3000', '[::1]:3000']) {
      const answer = await h().sendToHost(host, pathname);
      expect(answer.status, host).toBe(200);
      expect(answer.headers.get('content-security-policy')).toContain(`connect-src 'self' http://${host};`);
      const api = await h().sendToHost(host, '/v1/openapi.json');
      expect((await api.json()).servers).toEqual([{ url: `http://${host}` }]);
    }
  });
});

httpSuite(
  'the Host of a request to a platform with a base URL',
  (h) => {
    it('is still checked, and the URLs come from the base URL', async () => {
      const bad = await h().sendToHost('evil.example;x', '/v1/openapi.json');
      expect(bad.status).toBe(400);
      const good = await h().sendToHost('elsewhere.example', '/v1/openapi.json');
      expect((await good.json()).servers).toEqual([{ url: 'https://docs.example.com' }]);
    });
  },
  { baseUrl: 'https://docs.example.com' },
);
