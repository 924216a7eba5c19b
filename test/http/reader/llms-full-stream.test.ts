import { brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { zlibCompress } from '../../../src/zlib-compress.js';
import { PAGES_PER_PART } from '../../../src/core/sites/reader/llms-full.js';
import { createHarness, httpSuite, type Harness } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/**
 * llms-full.txt of a site larger than a part (core: llms-full.ts) is streamed: its head first, each part made
 * as the client reads on, then kept, so that the next answer is one piece. Through both adapters: the Fetch
 * handler's body is a stream that is pulled, node:http's answer is chunked.
 */
/** A published site of two parts and a few pages, and the path of its llms-full.txt. */
async function publishBigSite(r: ReturnType<typeof readerHelpers>) {
  const pages = Array.from({ length: PAGES_PER_PART + 3 }, (_, n) => ({ title: `Page ${n}`, document: { markdown: `Body ${n}.\n` } }));
  const site = await r.publishedSite(pages);
  return { ...site, path: `${new URL(site.url).pathname}/llms-full.txt` };
}

httpSuite('reader llms-full.txt streamed', (h) => {
  const r = readerHelpers(h);
  const decoder = new TextDecoder();
  const bigSite = () => publishBigSite(r);

  /** Reads what is left of a body. */
  async function rest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text;
      text += decoder.decode(value, { stream: true });
    }
  }

  it('sends the head before the pages are made, then every page in order; kept, the next answer is one piece', async () => {
    const site = await bigSite();
    const cold = await h().send(site.path);
    expect(cold.status).toBe(200);
    const etag = cold.headers.get('etag');
    const reader = cold.body!.getReader();
    const first = decoder.decode((await reader.read()).value);
    if (h().transport === 'fetch') {
      // The Fetch handler's stream is pulled: its first piece is the head alone, before any page is made.
      expect(first).toMatch(/^# Handbook\n\n> [^\n]*\n\n[^\n]*~mcp\.\n$/);
    } else {
      expect(cold.headers.get('transfer-encoding')).toBe('chunked');
      expect(cold.headers.get('content-length')).toBeNull();
    }
    const text = first + (await rest(reader));
    expect([...text.matchAll(/^# (.+)$/gm)].map((match) => match[1])).toEqual(['Handbook', ...Array.from({ length: PAGES_PER_PART + 3 }, (_, n) => `Page ${n}`)]);
    expect(text.endsWith(`# Page ${PAGES_PER_PART + 2}\n\nBody ${PAGES_PER_PART + 2}.\n`)).toBe(true);

    const warm = await h().send(site.path);
    expect(warm.headers.get('etag')).toBe(etag);
    if (h().transport === 'node-http') expect(warm.headers.get('content-length')).toBe(String(new TextEncoder().encode(text).byteLength));
    expect(await warm.text()).toBe(text);
    expect((await h().send(site.path, { headers: { 'if-none-match': etag! } })).status).toBe(304);
  });

  it('answers a HEAD with the ETag and makes no part for it', async () => {
    const site = await bigSite();
    const head = await h().send(site.path, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const get = await h().send(site.path);
    expect(get.headers.get('etag')).toBe(head.headers.get('etag'));
    // Still streamed: the HEAD made nothing to keep.
    if (h().transport === 'fetch') {
      const reader = get.body!.getReader();
      expect(decoder.decode((await reader.read()).value)).not.toContain('# Page 0');
      // A client that stops reading stops the parts; the file is still whole for the next.
      await reader.cancel();
    } else {
      expect(get.headers.get('transfer-encoding')).toBe('chunked');
      await get.text();
    }
    expect(await (await h().send(site.path)).text()).toContain(`# Page ${PAGES_PER_PART + 2}\n`);
  });
});

httpSuite(
  'reader llms-full.txt streamed and compressed',
  (h) => {
    const r = readerHelpers(h);
    it('compresses the streamed answer as it is made when the client accepts it, each part flushed as it comes', async () => {
      for (const coding of ['br', 'gzip'] as const) {
        const site = await publishBigSite(r);
        const cold = await h().sendRaw('GET', site.path, { 'accept-encoding': `${coding}, identity` });
        expect(cold.status).toBe(200);
        expect(cold.headers.get('content-encoding')).toBe(coding);
        expect(cold.headers.get('vary')).toMatch(/accept-encoding/i);
        expect(cold.headers.get('etag')).toMatch(/^W\//);
        const chunks: Buffer[] = [];
        const reader = cold.body!.getReader();
        for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(Buffer.from(read.value));
        const bytes = Buffer.concat(chunks);
        const text = (coding === 'br' ? brotliDecompressSync(bytes) : gunzipSync(bytes)).toString('utf8');
        // The same text as the file kept since, sent whole to a client that takes no coding.
        expect(text).toBe(await (await h().sendRaw('GET', site.path)).text());
        expect(text).toContain(`# Page ${PAGES_PER_PART + 2}\n\nBody ${PAGES_PER_PART + 2}.\n`);
        // The kept file, compressed whole, carries the streamed answer's (weak) ETag.
        expect((await h().sendRaw('GET', site.path, { 'accept-encoding': coding })).headers.get('etag')).toBe(cold.headers.get('etag'));
        if (h().transport === 'fetch') {
          // Flushed after each piece: the head, compressed, is readable alone before the parts come.
          const next = await publishBigSite(r);
          const first = (await (await h().sendRaw('GET', next.path, { 'accept-encoding': coding })).body!.getReader().read()).value!;
          const head = coding === 'br' ? brotliDecompressSync(first, { finishFlush: constants.BROTLI_OPERATION_FLUSH }) : gunzipSync(first, { finishFlush: constants.Z_SYNC_FLUSH });
          expect(head.toString('utf8')).toMatch(/^# Handbook\n\n> [^\n]*\n\n[^\n]*~mcp\.\n$/);
        }
      }
    });
  },
  { pipeline: { compress: zlibCompress } },
);

// Only the Fetch handler's stream waits for its reader: node:http makes the parts as fast as the socket takes them.
describe('reader llms-full.txt streamed, read slowly (fetch)', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness('fetch');
  });
  afterEach(() => harness.close());
  const h = () => harness;
  const r = readerHelpers(h);

  it('cuts the answer short when the site changes while it is read, rather than mix two revisions', async () => {
    const pages = Array.from({ length: PAGES_PER_PART + 3 }, (_, n) => ({ title: `Page ${n}`, document: { markdown: `Body ${n}.\n` } }));
    const site = await r.publishedSite(pages);
    const path = `${new URL(site.url).pathname}/llms-full.txt`;
    const reader = (await h().send(path)).body!.getReader();
    await reader.read();
    const content = r.ok(await h().owner.get(`/v1/spaces/${site.space}/content`));
    await r.write(site.space, [{ operation: 'update_page', page: content.pages[0].id, document: { markdown: 'Changed.\n' } }]);
    // The first part may be on its way already; the last finds the new revision.
    const rest = async () => {
      while (!(await reader.read()).done);
    };
    await expect(rest()).rejects.toThrow(/changed while its llms-full.txt was read/);
    expect(await (await h().send(path)).text()).toContain('# Page 0\n\nChanged.\n');
  });
});
