/**
 * Request ids and request logs, through both transports: every answer carries an X-Request-Id (the
 * client's when well-formed), and the log has one entry per request with the route pattern, never a
 * token or a body.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger, pinoRequestLogger, pretty } from '../../src/adapters/node-http/pino-log.js';
import { httpSuite } from './harness.js';

/** The JSON lines a pino logger wrote, kept for the test to read. */
const lines: string[] = [];
const logger = pinoRequestLogger(createLogger({ level: 'info', destination: { write: (line) => void lines.push(line) } }));

httpSuite(
  'request ids and logs',
  (h) => {
    it('sends back a well-formed X-Request-Id, and makes one for a missing or malformed id, on answers and errors alike', async () => {
      const org = `/v1/orgs/${h().organizationId}`;
      const given = await h().owner.get(org, { headers: { 'x-request-id': 'lb-7f3a.42:trace/1' } });
      expect(given.headers.get('x-request-id')).toBe('lb-7f3a.42:trace/1');
      for (const bad of ['', 'has space', 'x'.repeat(129), 'quote"d', 'caf\u00e9']) {
        // A header value must be Latin-1 to be sent at all: the non-ASCII one goes as a `?`.
        const headers: Record<string, string> = bad === '' ? {} : { 'x-request-id': bad.replace(/[^\x20-\x7e]/g, '?') };
        const response = await h().owner.get(org, { headers });
        expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      }
      // Errors: unknown path, missing token, bad input, unknown token.
      for (const response of [
        await h().owner.get('/v1/nowhere'),
        await h().request('GET', org),
        await h().owner.get(`${org}/members?limit=0`),
        await h().request('GET', org, { token: `dp_${'x'.repeat(40)}` }),
      ]) {
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      }
    });

    it('logs one JSON line per request: route pattern, status, duration, bytes, request id and user, never a token or a body', async () => {
      lines.length = 0;
      const { token, userId } = h().owner;
      const org = `/v1/orgs/${h().organizationId}`;
      const secret = 'hush-hush-body-text';
      // The token in a header (as it should be), in a query string, and in a body; and a failure of input.
      const read = await h().owner.get(org, { headers: { 'x-request-id': 'req-read-1' } });
      await h().owner.get(`${org}/members?token=${token}&limit=5`);
      await h().owner.put(`${org}/teams`, { title: secret, token });
      await h().owner.put(`${org}/teams`, { title: 5, note: token });
      await h().request('GET', `${org}?access_token=${token}`, { token: null, headers: { authorization: `Bearer ${token}x` } });
      // A reader's page, its share key in the query: logged under the reader's pattern, without its path.
      await h().request('GET', `/published/o/${h().organizationId}/nosite?share=${secret}`, { token: null });
      const entries = lines.map((line) => JSON.parse(line));
      expect(entries).toHaveLength(6);
      expect(entries[0]).toMatchObject({
        msg: 'request',
        level: 30,
        requestId: 'req-read-1',
        method: 'GET',
        route: '/v1/orgs/{organizationId}',
        status: 200,
        bytes: Buffer.byteLength(read.text),
        userId,
      });
      expect(entries[0].durationMs).toEqual(expect.any(Number));
      expect(entries[0].time).toEqual(expect.any(Number));
      expect(entries.map((entry) => [entry.method, entry.route, entry.status])).toEqual([
        ['GET', '/v1/orgs/{organizationId}', 200],
        ['GET', '/v1/orgs/{organizationId}/members', 200],
        ['PUT', '/v1/orgs/{organizationId}/teams', 201],
        ['PUT', '/v1/orgs/{organizationId}/teams', 400],
        ['GET', '/v1/orgs/{organizationId}', 401],
        ['GET', '/published/{path}', 404],
      ]);
      const text = lines.join('');
      expect(text).not.toContain(token);
      expect(text).not.toContain(token.slice(3)); // nor its secret part
      expect(text).not.toContain(secret);
      // The pattern, not the path: the organization's id is in no line.
      expect(text).not.toContain(h().organizationId);
    });
  },
  { pipeline: { logger } },
);

describe('the log level (DOCS_PLATFORM_LOG_LEVEL)', () => {
  it('leaves out the request lines (info) at warn, and keeps failures (error)', () => {
    const out: string[] = [];
    const requests = pinoRequestLogger(createLogger({ level: 'warn', destination: { write: (line) => void out.push(line) } }));
    requests.request({ requestId: 'r1', method: 'GET', route: '/v1/orgs', status: 200, durationMs: 1, bytes: 2 });
    requests.failure('r2', 'GET', '/v1/orgs', new Error('boom'));
    expect(out.map((line) => JSON.parse(line))).toMatchObject([{ level: 50, msg: 'request failed', requestId: 'r2', err: { message: 'boom', stack: expect.stringContaining('Error: boom') } }]);
  });
});

describe('the request line of a logger createLogger() made', () => {
  it('is the very line pino writes for the entry, but for the time', () => {
    const written: string[] = [];
    const ours = pinoRequestLogger(createLogger({ destination: { write: (line) => void written.push(line) } }));
    const entries = [
      { requestId: 'r1', method: 'GET', route: '/v1/orgs/{organizationId}', status: 200, durationMs: 1.25, bytes: 345, userId: 'u1' },
      { requestId: 'lb-7f3a.42:trace/1', method: 'PATCH', route: null, status: 404, durationMs: 0, bytes: 0 },
    ];
    for (const entry of entries) {
      ours.request(entry);
      // pino's own serializer, through a logger of the same options that createLogger() did not make.
      pino({ level: 'info', base: { pid: process.pid } }, { write: (line: string) => void written.push(line) }).info(entry, 'request');
    }
    const withoutTime = (line: string) => line.replace(/"time":\d+,/, '');
    expect(written).toHaveLength(4);
    expect(withoutTime(written[0])).toBe(withoutTime(written[1]));
    expect(withoutTime(written[2])).toBe(withoutTime(written[3]));
    expect(JSON.parse(written[0]).time).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('pretty log lines (a terminal)', () => {
  it('turns a request entry into one readable line, and a failure into its line and stack', () => {
    const out: string[] = [];
    const log = createLogger({ destination: pretty({ write: (line) => void out.push(line) }) });
    const requests = pinoRequestLogger(log);
    requests.request({ requestId: 'r1', method: 'GET', route: '/v1/orgs/{organizationId}', status: 200, durationMs: 1.25, bytes: 345, userId: 'u1' });
    requests.failure('r2', 'PUT', null, new Error('disk on fire'));
    expect(out[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO  GET \/v1\/orgs\/\{organizationId\} 200 1\.25ms 345B user=u1 req=r1\n$/);
    expect(out[1]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} ERROR request failed req=r2\nError: disk on fire\n\s+at /);
  });
});
