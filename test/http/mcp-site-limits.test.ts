/**
 * A published site's MCP server in the request log and in the reader's rate limits, through both transports:
 * each message is logged with its request id and costs a read; over budget, the refusal is in the error
 * shape an MCP client reads (not the reader's page), with the limit's headers.
 */
import { expect, it } from 'vitest';
import { RATE_COSTS } from '../../src/core/rate-limit.js';
import type { RequestLogEntry } from '../../src/adapters/request-log.js';
import { httpSuite } from './harness.js';
import { readerHelpers } from './reader/reader-helpers.js';

const entries: RequestLogEntry[] = [];
const logger = { request: (entry: RequestLogEntry) => void entries.push(entry), failure: () => undefined };
const PER_MINUTE = 60;

httpSuite(
  'site MCP server: logs and rate limits',
  (h) => {
    const r = readerHelpers(h);

    it('logs each message with its request id, charges it a read, and refuses one over budget with a 429 in the error shape', async () => {
      const site = await r.publishedSite([{ title: 'Welcome', document: { markdown: 'Hello.\n' } }]);
      const path = `${new URL(site.url).pathname}/~mcp`;
      // A new minute: the setup's requests spent the owner's budget, not the visitor's, but start afresh.
      h().clock.advance(60_000);
      const rpc = (requestId: string) =>
        h().send(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-request-id': requestId },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: { query: 'hello' } } }),
        });
      entries.length = 0;
      const first = await rpc('site-1');
      expect(first.status).toBe(200);
      expect(first.headers.get('x-request-id')).toBe('site-1');
      expect((await first.json()).result.structuredContent.hits.map((hit: { title: string }) => hit.title)).toEqual(['Welcome']);
      const left = Number(first.headers.get('x-ratelimit-remaining'));
      const second = await rpc('site-2');
      expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(left - RATE_COSTS.read);
      expect(entries.filter((entry) => entry.requestId.startsWith('site-')).map((entry) => [entry.requestId, entry.method, entry.route, entry.status])).toEqual([
        ['site-1', 'POST', '/published/{path}', 200],
        ['site-2', 'POST', '/published/{path}', 200],
      ]);
      let refused = second;
      for (let sent = 0; sent <= PER_MINUTE && refused.status !== 429; sent++) refused = await rpc('site-more');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await refused.json()).error).toMatchObject({ code: 429, message: expect.stringMatching(/^Rate limit exceeded/) });
      // A page of the same site is still refused as a page, for a reader.
      const page = await h().send(new URL(site.url).pathname);
      expect(page.status).toBe(429);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    });
  },
  { pipeline: { logger, rateLimit: { perMinute: PER_MINUTE } } },
);
