import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeEach, expect, it } from 'vitest';
import type { Compress, ContentCoding } from '../../../src/adapters/compression.js';
import { swaggerUiAssets } from '../../../src/adapters/node-http/docs-assets.js';
import { zlibCompress } from '../../../src/zlib-compress.js';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** The codings each compression was asked for, in order: a test reads how often the pipeline compressed. */
const calls: ContentCoding[] = [];
/** Whether the compression fails (as a port might), for the test that the answer is then sent as it is. */
let failing = false;
const counting: Compress = (bytes, coding) => {
  calls.push(coding);
  return failing ? Promise.reject(new Error('compression failed')) : zlibCompress(bytes, coding);
};

/** The bytes of a raw answer, decoded by its Content-Encoding. */
async function decoded(response: Response): Promise<string> {
  const bytes = Buffer.from(await response.arrayBuffer());
  const coding = response.headers.get('content-encoding');
  return (coding === 'br' ? brotliDecompressSync(bytes) : coding === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8');
}

/**
 * brotli and gzip for what the reader and the API answer in text, as the client's Accept-Encoding asks;
 * Vary, weak ETags, 304 and HEAD alike; an answer with an ETag compressed once. Answers are read as sent
 * (`sendRaw`: fetch() would decode them), so both transports show the bytes on the wire.
 */
httpSuite(
  'reader and API compression',
  (h) => {
    const r = readerHelpers(h);
    beforeEach(() => {
      calls.length = 0;
      failing = false;
    });

    /** A published site of one page long enough that compression shows; its page's path. */
    async function sitePath() {
      const words = Array.from({ length: 300 }, (_, index) => `Paragraph ${index} of the guide, with words that repeat.`).join('\n\n');
      const site = await r.publishedSite([{ title: 'Welcome', ref: 'welcome', document: { markdown: `${words}\n` } }]);
      return new URL(site.url).pathname;
    }

    it('answers a page in brotli or gzip as asked, the same HTML decoded, with Vary and a weak ETag', async () => {
      const path = await sitePath();
      const plain = await h().sendRaw('GET', path);
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(plain.headers.get('vary')).toBe('Cookie, Accept-Encoding');
      const etag = plain.headers.get('etag')!;
      expect(etag).toMatch(/^"[^"]+"$/);
      const html = await plain.text();
      for (const [accept, coding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        ['x-gzip', 'gzip'],
        ['br;q=0.5, gzip', 'gzip'],
        ['*', 'br'],
        ['br;q=0, *;q=0.1', 'gzip'],
      ] as const) {
        const response = await h().sendRaw('GET', path, { 'accept-encoding': accept });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-encoding'), accept).toBe(coding);
        expect(response.headers.get('vary')).toBe('Cookie, Accept-Encoding');
        expect(response.headers.get('etag')).toBe(`W/${etag}`);
        expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
        const bytes = (await response.clone().arrayBuffer()).byteLength;
        expect(bytes).toBeLessThan(Buffer.byteLength(html) / 3);
        expect(await decoded(response)).toBe(html);
      }
      for (const accept of ['identity', 'br;q=0, gzip;q=0', 'deflate', '*;q=0']) {
        const response = await h().sendRaw('GET', path, { 'accept-encoding': accept });
        expect(response.headers.get('content-encoding'), accept).toBeNull();
        expect(response.headers.get('etag')).toBe(etag);
        expect(await response.text()).toBe(html);
      }
    });

    it('compresses a page once per coding: a repeat, a HEAD and a request at the same time reuse the bytes', async () => {
      const path = await sitePath();
      const [first, second] = await Promise.all([h().sendRaw('GET', path, { 'accept-encoding': 'br' }), h().sendRaw('GET', path, { 'accept-encoding': 'br' })]);
      expect(calls).toEqual(['br']);
      const bytes = Buffer.from(await first.arrayBuffer());
      expect(Buffer.from(await second.arrayBuffer()).equals(bytes)).toBe(true);
      const again = await h().sendRaw('GET', path, { 'accept-encoding': 'br' });
      expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
      const head = await h().sendRaw('HEAD', path, { 'accept-encoding': 'br' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-encoding')).toBe('br');
      expect(head.headers.get('content-length')).toBe(String(bytes.byteLength));
      expect(head.headers.get('vary')).toBe('Cookie, Accept-Encoding');
      expect((await head.arrayBuffer()).byteLength).toBe(0);
      expect(calls).toEqual(['br']);
      await h().sendRaw('GET', path, { 'accept-encoding': 'gzip' });
      expect(calls).toEqual(['br', 'gzip']);
    });

    it('answers If-None-Match with 304 whichever coding the ETag came with, carrying the ETag and Vary of its 200', async () => {
      const path = await sitePath();
      const compressed = await h().sendRaw('GET', path, { 'accept-encoding': 'br' });
      const weak = compressed.headers.get('etag')!;
      const strong = weak.slice(2);
      for (const [accept, match, etag] of [
        ['br', weak, weak],
        ['br', strong, weak],
        ['identity', weak, strong],
        ['identity', strong, strong],
      ]) {
        const response = await h().sendRaw('GET', path, { 'accept-encoding': accept, 'if-none-match': match });
        expect(response.status, `${accept} ${match}`).toBe(304);
        expect(response.headers.get('etag')).toBe(etag);
        expect(response.headers.get('content-encoding')).toBeNull();
        expect(response.headers.get('vary')).toBe(accept === 'br' ? 'Cookie, Accept-Encoding' : 'Cookie');
      }
    });

    it('compresses a page as Markdown, llms.txt, a 404 page and a large API answer; not a small API answer', async () => {
      const path = await sitePath();
      for (const [target, type] of [
        [`${path}/welcome.md`, 'text/markdown; charset=utf-8'],
        [`${path}/llms.txt`, 'text/plain; charset=utf-8'],
        [`${path}/no/such/page`, 'text/html; charset=utf-8'],
        ['/v1/openapi.json', 'application/json; charset=utf-8'],
      ]) {
        const plain = await h().sendRaw('GET', target);
        const response = await h().sendRaw('GET', target, { 'accept-encoding': 'gzip' });
        expect(response.headers.get('content-encoding'), target).toBe('gzip');
        expect(response.headers.get('content-type')).toBe(type);
        expect(response.headers.get('vary')).toMatch(/(^|, )Accept-Encoding$/);
        expect(response.status).toBe(plain.status);
        expect(await decoded(response)).toBe(await plain.text());
      }
      const user = await h().sendRaw('GET', '/v1/user', { authorization: `Bearer ${h().owner.token}`, 'accept-encoding': 'br' });
      expect(user.status).toBe(200);
      expect(user.headers.get('content-encoding')).toBeNull();
      expect(user.headers.get('vary')).toBeNull();
      expect(JSON.parse(await user.text()).id).toBe(h().owner.userId);
    });

    it('compresses the sitemap of a site of many pages', async () => {
      const pages = Array.from({ length: 20 }, (_, index) => ({ title: `Chapter ${index} of the guide`, document: { markdown: `Chapter ${index}.\n` } }));
      const sitemap = `${new URL((await r.publishedSite(pages)).url).pathname}/sitemap.xml`;
      const plain = await h().sendRaw('GET', sitemap);
      expect(plain.status).toBe(200);
      const text = await plain.text();
      expect(text.match(/<loc>/g)).toHaveLength(20);
      for (const coding of ['gzip', 'br'] as const) {
        const response = await h().sendRaw('GET', sitemap, { 'accept-encoding': coding });
        expect([response.headers.get('content-encoding'), response.headers.get('content-type')]).toEqual([coding, 'application/xml; charset=utf-8']);
        expect(response.headers.get('vary')).toMatch(/(^|, )Accept-Encoding$/);
        expect(await decoded(response)).toBe(text);
      }
    });

    it("compresses the API reference page's style sheet and script once, and answers their ETag with 304", async () => {
      for (const [path, type] of [
        ['/docs/swagger-ui.css', 'text/css; charset=utf-8'],
        ['/docs/swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
      ]) {
        calls.length = 0;
        const plain = await h().sendRaw('GET', path);
        const text = await plain.text();
        const response = await h().sendRaw('GET', path, { 'accept-encoding': 'br' });
        expect(response.headers.get('content-type')).toBe(type);
        expect(response.headers.get('content-encoding')).toBe('br');
        expect(response.headers.get('etag')).toBe(`W/${plain.headers.get('etag')}`);
        expect(Number(response.headers.get('content-length'))).toBeLessThan(text.length / 4);
        expect(await decoded(response)).toBe(text);
        await h().sendRaw('GET', path, { 'accept-encoding': 'br' });
        expect(calls).toEqual(['br']);
        const revalidated = await h().sendRaw('GET', path, { 'accept-encoding': 'br', 'if-none-match': response.headers.get('etag')! });
        expect(revalidated.status).toBe(304);
      }
    });

    it('sends an answer as it is when its compression fails', async () => {
      const path = await sitePath();
      const html = await (await h().sendRaw('GET', path)).text();
      failing = true;
      const response = await h().sendRaw('GET', path, { 'accept-encoding': 'br' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding')).toBeNull();
      expect(await response.text()).toBe(html);
      expect(calls).toEqual(['br']);
      // Not kept: the next request compresses again.
      failing = false;
      const next = await h().sendRaw('GET', path, { 'accept-encoding': 'br' });
      expect(next.headers.get('content-encoding')).toBe('br');
      expect(await decoded(next)).toBe(html);
    });
  },
  { pipeline: { compress: counting, docsAssets: swaggerUiAssets() } },
);
