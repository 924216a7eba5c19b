import http from 'node:http';
import https from 'node:https';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createOutboundFetch, type Resolve } from '../../src/outbound/fetch.js';
import { authoring, md } from './authoring.js';
import { httpSuite, type Harness } from './harness.js';

/**
 * Outbound fetches that would reach inside the server's network (issue 15): files by URL, imports and
 * OpenAPI sources naming loopback, private or link-local addresses, directly or through a host name, are
 * refused with the one message every failed fetch gives, store nothing, and make no request at all:
 * node:http and node:https requests throw in these tests, so nothing can leave even if a check were wrong.
 * The default platform of the Node entry is used (no fetch injected); host names go through a lookup
 * injected into the same outbound fetch, which maps them to inside addresses without asking DNS.
 */

/** The names the injected lookup knows. */
const NAMES: Record<string, string> = { 'inside.test': '10.0.0.1', 'meta.test': '169.254.169.254', 'mapped.test': '::ffff:127.0.0.1' };
const lookup: Resolve = async (hostname) => {
  const address = NAMES[hostname];
  if (!address) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  return [{ address, family: address.includes(':') ? 6 : 4 }];
};

let requests: ReturnType<typeof vi.spyOn>[] = [];
beforeEach(() => {
  const refuse = () => {
    throw new Error('no outbound request may be made in this test');
  };
  requests = [vi.spyOn(http, 'request').mockImplementation(refuse), vi.spyOn(https, 'request').mockImplementation(refuse)];
});
afterEach(() => {
  for (const request of requests) expect(request).not.toHaveBeenCalled();
  vi.restoreAllMocks();
});

/** URLs of inside addresses: the server's own port (the example), other loopback forms, metadata. */
function insideUrls(h: Harness, names: boolean): string[] {
  const port = h.url ? new URL(h.url).port : '8080';
  const literals = [
    `http://127.0.0.1:${port}/v1/openapi.json`,
    `http://2130706433:${port}/v1/openapi.json`,
    `http://0.0.0.0:${port}/`,
    `http://[::1]:${port}/`,
    `http://[::ffff:127.0.0.1]:${port}/`,
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
  ];
  return names ? ['http://inside.test/x', 'http://meta.test/latest/meta-data/', `http://mapped.test:${port}/`] : literals;
}

function suite(name: string, names: boolean, options: Parameters<typeof httpSuite>[2]) {
  httpSuite(
    name,
    (h) => {
      const a = authoring(h);

      it('refuses files by URL with the one message, and stores nothing', async () => {
        const space = await a.space();
        const cr = await a.changeRequest(space.id);
        const before = await a.stored(space.id);
        for (const url of insideUrls(h(), names)) {
          const refused = await a.send(space.id, cr.id, [
            { operation: 'insert_page', title: 'Before', document: md('x') },
            { operation: 'insert_files', files: [{ name: 'inside.json', url }] },
          ]);
          expect([refused.status, refused.body.error.message], url).toEqual([400, 'changes[1].files[0].url: the URL could not be fetched']);
        }
        expect(await a.stored(space.id)).toEqual(before);
      });

      it('refuses imports with the one message, and stores nothing', async () => {
        const space = await a.space();
        const before = await a.stored(space.id);
        for (const url of insideUrls(h(), names)) {
          for (const source of ['markdown', 'html', 'website', 'zip']) {
            const refused = await h().owner.post(`${a.contentOf(space.id)}/import`, { url, source });
            expect([refused.status, refused.body.error.message], `${source} ${url}`).toEqual([400, 'url: the URL could not be fetched']);
          }
        }
        expect(await a.stored(space.id)).toEqual(before);
      });

      it('records FETCH_ERROR for OpenAPI sources, with no version', async () => {
        const specs = `/v1/orgs/${h().organizationId}/openapi`;
        for (const [index, url] of insideUrls(h(), names).entries()) {
          expect((await h().owner.post(specs, { slug: `inside-${index}`, source: { url } })).status).toBe(201);
          await h().platform.settle();
          const processed = await h().owner.get(`${specs}/inside-${index}`);
          expect([processed.body.processingState, processed.body.lastProcessErrorCode, processed.body.lastVersion], url).toEqual(['complete', 'FETCH_ERROR', undefined]);
        }
      });
    },
    options,
  );
}

suite('outbound fetches to inside addresses (the default fetch)', false, {});
suite('outbound fetches to host names that resolve inside', true, { fetch: createOutboundFetch({ lookup }) });
