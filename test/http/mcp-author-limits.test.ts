/**
 * The author server's calls in the request log and in rate limits, through both transports: a tool call is
 * logged with its request id under `mcp:<tool>`, and costs what its operations cost over the API.
 */
import { expect, it } from 'vitest';
import { RATE_COSTS } from '../../src/core/rate-limit.js';
import type { RequestLogEntry } from '../../src/adapters/request-log.js';
import { httpSuite } from './harness.js';

const entries: RequestLogEntry[] = [];
const failures: unknown[] = [];
const logger = { request: (entry: RequestLogEntry) => void entries.push(entry), failure: (...args: unknown[]) => void failures.push(args) };
const PER_MINUTE = 100;

httpSuite(
  'author MCP server: logs and rate limits',
  (h) => {
    /** POSTs one JSON-RPC message to /mcp as the owner, with a request id. */
    const rpc = (method: string, params: Record<string, unknown>, requestId: string) =>
      h().send('/mcp', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${h().owner.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-request-id': requestId,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
      });
    const remaining = (response: Response) => Number(response.headers.get('x-ratelimit-remaining'));

    it('logs each tool call with its request id and user, under mcp:<tool>, with the status of the API error it answered', async () => {
      entries.length = 0;
      const listed = await rpc('tools/list', {}, 'req-list');
      expect(listed.status).toBe(200);
      expect((await listed.json()).result.tools).toHaveLength(15);
      const spaces = await rpc('tools/call', { name: 'list_spaces', arguments: { organizationId: h().organizationId } }, 'req-spaces');
      expect(spaces.headers.get('x-request-id')).toBe('req-spaces');
      expect((await spaces.json()).result.isError).toBeUndefined();
      const missing = await rpc('tools/call', { name: 'open_change_request', arguments: { spaceId: 'no-such-space', subject: 'x' } }, 'req-missing');
      expect(missing.status).toBe(200);
      expect((await missing.json()).result).toMatchObject({ isError: true, structuredContent: { error: { code: 404 } } });
      const unknown = await rpc('tools/call', { name: 'no_such_tool', arguments: {} }, 'req-unknown');
      expect((await unknown.json()).error).toMatchObject({ message: expect.stringContaining('No tool no_such_tool') });
      expect(entries.map((entry) => [entry.requestId, entry.method, entry.route, entry.status, entry.userId])).toEqual([
        ['req-list', 'POST', '/mcp', 200, h().owner.userId],
        ['req-spaces', 'POST', 'mcp:list_spaces', 200, h().owner.userId],
        ['req-missing', 'POST', 'mcp:open_change_request', 404, h().owner.userId],
        ['req-unknown', 'POST', '/mcp', 200, h().owner.userId],
      ]);
      expect(failures).toEqual([]);
    });

    it('charges a tool call what its operations cost: a read, or a write for a tool that writes', async () => {
      const first = await rpc('tools/list', {}, 'r1');
      expect(remaining(first)).toBe(PER_MINUTE - RATE_COSTS.read);
      const read = await rpc('tools/call', { name: 'list_organizations', arguments: {} }, 'r2');
      expect(remaining(read)).toBe(PER_MINUTE - 2 * RATE_COSTS.read);
      // A write costs a write's units, also when the operation refuses it.
      const write = await rpc('tools/call', { name: 'open_change_request', arguments: { spaceId: 'no-such-space', subject: 'x' } }, 'r3');
      expect(remaining(write)).toBe(PER_MINUTE - 2 * RATE_COSTS.read - RATE_COSTS.write);
      // Over budget: refused before anything runs, in the error shape.
      for (let spent = PER_MINUTE - remaining(write); spent + RATE_COSTS.write <= PER_MINUTE; spent += RATE_COSTS.write) {
        expect((await rpc('tools/call', { name: 'open_change_request', arguments: { spaceId: 'no-such-space', subject: 'x' } }, 'r4')).status).toBe(200);
      }
      const refused = await rpc('tools/call', { name: 'open_change_request', arguments: { spaceId: 'no-such-space', subject: 'x' } }, 'r5');
      expect(refused.status).toBe(429);
      expect((await refused.json()).error).toMatchObject({ code: 429, message: expect.stringMatching(/^Rate limit exceeded/) });
    });
  },
  { pipeline: { logger, rateLimit: { perMinute: PER_MINUTE } } },
);
