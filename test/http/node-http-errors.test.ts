/**
 * What the node:http server answers where node itself would (an unparsable request, headers over the limit,
 * a timeout) and for a body over the limit, seen from raw sockets: always the error shape, always read
 * by the client before the connection closes.
 */
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerClientErrors } from '../../src/adapters/node-http/client-errors.js';
import { createNodeListener, serve, type RunningServer } from '../../src/adapters/node-http/index.js';
import { createPlatform } from '../../src/core/platform.js';
import { ErrorSchema } from '../../src/core/schemas.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { RequestLogEntry } from '../../src/adapters/request-log.js';

const MiB = 1024 * 1024;
/** `GET /v1/spaces/café` with the é as one raw Latin-1 byte, not percent-encoded. */
const CAFE = Buffer.concat([Buffer.from('GET /v1/spaces/caf'), Buffer.from([0xe9]), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]);

/** A response read off a raw socket, and how the connection ended for the client. */
interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** A socket error the client got (EPIPE, ECONNRESET), if any. */
  error?: string;
  /** How many bytes the client managed to write. */
  written: number;
}

/** How rawRequest sends. */
interface SendOptions {
  /** A pause after each part, in ms. */
  pauseMs?: number;
  /** Keeps the client's side open once everything is sent, as a client that stalls does. */
  stall?: boolean;
}

/**
 * Sends `parts` on a new connection, each written once the one before is flushed, as a client does that
 * sends its whole request whatever comes back (curl, most HTTP libraries): the server's end of the
 * connection does not stop it. Reads until the connection is closed.
 */
function rawRequest(url: string, parts: (string | Buffer)[], { pauseMs = 0, stall = false }: SendOptions = {}): Promise<RawReply> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true });
    const received: Buffer[] = [];
    let error: string | undefined;
    let written = 0;
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('end', () => stall && socket.end()); // answered: a stalled client gives up
    socket.on('error', (failure: NodeJS.ErrnoException) => (error ??= failure.code ?? failure.message));
    socket.on('close', () => resolve({ ...parse(Buffer.concat(received).toString('latin1')), error, written }));
    const send = async () => {
      for (const part of parts) {
        if (socket.destroyed) return;
        const failure = await new Promise<Error | null | undefined>((done) => socket.write(part, done));
        if (failure) return;
        written += part.length;
        if (pauseMs) await new Promise((done) => setTimeout(done, pauseMs));
      }
      if (!stall) socket.end();
    };
    socket.once('connect', () => void send());
  });
}

/** The first response in `text`. */
function parse(text: string): Omit<RawReply, 'error' | 'written'> {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return { status: 0, headers: {}, body: text };
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  const length = Number(headers['content-length'] ?? text.length);
  return { status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(end + 4, end + 4 + length) };
}

/** Checks that a reply is `status` in the error shape, framed by Content-Length, with Connection: close, and returns its message. */
function expectError(reply: RawReply, status: number): string {
  expect(reply.error, 'the client saw no socket error').toBeUndefined();
  expect(reply.status, reply.body).toBe(status);
  expect(reply.headers['content-type']).toMatch(/^application\/json/);
  expect(reply.headers['x-content-type-options']).toBe('nosniff');
  expect(reply.headers.connection).toBe('close');
  // Node's own answers carry a request id too, as every other answer does.
  expect(reply.headers['x-request-id']).toMatch(/^[\w.:=+/@-]{1,128}$/);
  expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.body));
  const body = v.parse(ErrorSchema, JSON.parse(reply.body));
  expect(body.error.code).toBe(status);
  return body.error.message;
}

/** A body of `size` bytes in chunked encoding, in chunks of 64 KiB. */
function chunked(size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let left = size; left > 0; left -= 64 * 1024) {
    const chunk = Math.min(left, 64 * 1024);
    chunks.push(Buffer.from(`${chunk.toString(16)}\r\n${'x'.repeat(chunk)}\r\n`));
  }
  return [...chunks, Buffer.from('0\r\n\r\n')];
}

/** A body of `size` bytes in parts of 64 KiB. */
function parts(size: number): Buffer[] {
  return Array.from({ length: Math.ceil(size / (64 * 1024)) }, (_, i) => Buffer.alloc(Math.min(64 * 1024, size - i * 64 * 1024), 'x'));
}

const failures: unknown[] = [];
const entries: RequestLogEntry[] = [];
let server: RunningServer;
let token: string;
beforeAll(async () => {
  const platform = createPlatform({ store: createMemoryStore() });
  token = (await platform.initialize({ title: 'Acme', email: 'owner@acme.test' })).token;
  server = await serve({ platform, port: 0, headersTimeoutMs: 400, requestTimeoutMs: 800, logger: { request: (entry) => entries.push(entry), failure: (...failure) => failures.push(failure) } });
});
afterAll(() => server.close());

describe('node:http answers in the error shape where node would answer for us', () => {
  it.each([
    ['a 20,000-character path', `GET /v1/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['a 20,000-character Authorization header', `GET /v1/orgs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'a'.repeat(20_000)}\r\n\r\n`],
  ])('431 for %s, naming the limit', async (_, request) => {
    expect(expectError(await rawRequest(server.url, [request]), 431)).toBe('The request line and headers are larger than 16384 bytes');
  });

  it('400 for a raw non-ASCII byte in the path, saying to percent-encode it', async () => {
    expect(expectError(await rawRequest(server.url, [CAFE]), 400)).toMatch(/non-ASCII byte.*Percent-encode/);
  });

  it.each([
    ['an unknown method', 'FETCH /v1/orgs HTTP/1.1\r\nHost: x\r\n\r\n', /method/],
    ['a header name with a space', 'GET /v1/orgs HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n', /header/],
    ['a broken chunked body', 'POST /v1/orgs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', /not valid HTTP\/1\.1/],
    ['a request cut off by the end of the connection', 'GET /v1/orgs HTTP/1.1\r\nHost: x\r\n', /in the middle of the request/],
  ])('400 for %s', async (_, request, message) => {
    expect(expectError(await rawRequest(server.url, [request]), 400)).toMatch(message);
  });

  it('417 for an Expect other than 100-continue, 501 for CONNECT', async () => {
    expect(expectError(await rawRequest(server.url, ['GET /v1/orgs HTTP/1.1\r\nHost: x\r\nExpect: later\r\n\r\n']), 417)).toContain('Expect: later');
    expect(expectError(await rawRequest(server.url, ['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n']), 501)).toContain('CONNECT');
  });

  it('408 for headers or a body that do not arrive in time, naming the timeouts', async () => {
    const headers = await rawRequest(server.url, ['GET /v1/orgs HTTP/1.1\r\nHost: x\r\n'], { stall: true });
    expect(expectError(headers, 408)).toBe('The request was not received in time: its headers within 400 ms, all of it within 800 ms');
    const body = await rawRequest(server.url, [`PATCH /v1/orgs/x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{"ti`], { stall: true });
    expectError(body, 408);
  });

  it('answers a request after a good one on the same connection after the good one\'s response', async () => {
    const request = Buffer.concat([Buffer.from('GET /v1/orgs HTTP/1.1\r\nHost: x\r\n\r\n'), CAFE]);
    const { port, hostname } = new URL(server.url);
    const text = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), hostname, () => socket.end(request));
      const received: Buffer[] = [];
      socket.on('data', (chunk) => received.push(chunk)).on('close', () => resolve(Buffer.concat(received).toString('latin1')));
    });
    const first = parse(text);
    expect(first.status).toBe(401);
    const second = parse(text.slice(text.indexOf('HTTP/1.1', 1)));
    expect(second.status).toBe(400);
    expect(v.parse(ErrorSchema, JSON.parse(second.body)).error.code).toBe(400);
  });
});

it('answerClientErrors() does the same for an embedder\'s own server', async () => {
  const platform = createPlatform({ store: createMemoryStore() });
  const own = answerClientErrors(createServer(createNodeListener(platform)));
  await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
  try {
    expectError(await rawRequest(`http://127.0.0.1:${(own.address() as AddressInfo).port}`, [CAFE]), 400);
  } finally {
    own.close();
    await platform.close();
  }
});

describe('a body over 1 MiB', () => {
  const head = (framing: string) =>
    `PATCH /v1/orgs/x HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`;

  it.each([
    ['with Content-Length', () => [head(`Content-Length: ${2 * MiB}`), ...parts(2 * MiB)]],
    ['chunked', () => [head('Transfer-Encoding: chunked'), ...chunked(2 * MiB)]],
  ])('sent in full %s, slowly: the client writes all of it, then reads the 413', async (_, request) => {
    const sent = request();
    // 1 ms between parts of 64 KiB: the client is still writing when the server has seen enough to refuse.
    const reply = await rawRequest(server.url, sent, { pauseMs: 1 });
    expect(expectError(reply, 413)).toBe(`The request body is larger than ${MiB} bytes`);
    expect(reply.written).toBe(sent.reduce((sum, part) => sum + part.length, 0));
  });

  it('declared far over the limit: the 413 comes at once, and the connection is cut after 8 MiB', async () => {
    const reply = await rawRequest(server.url, [head(`Content-Length: ${64 * MiB}`), ...parts(64 * MiB)]);
    expect(reply.status).toBe(413);
    expect(reply.written).toBeLessThan(16 * MiB);
  });

  it('leaves no error in the log, and the server serving', async () => {
    expect(failures).toEqual([]);
    // Each of node's own answers was logged, with its status and the id it was sent with.
    expect(entries.some((entry) => entry.status === 431 && entry.method === '-' && entry.route === null)).toBe(true);
    const response = await fetch(`${server.url}/v1/orgs`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
  });
});

describe('how node:http frames answers', () => {
  it('frames every answer with a body by Content-Length, not chunked; a 204 has neither', async () => {
    const send = (method: string, path: string, body?: string) =>
      rawRequest(server.url, [
        `${method} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n` +
          (body === undefined ? '\r\n' : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`),
      ]);
    const ok = await send('GET', '/v1/orgs');
    const organization = JSON.parse(ok.body).items[0].id;
    const created = await send('PUT', `/v1/orgs/${organization}/teams`, '{"title":"Docs"}');
    const missing = await send('GET', '/v1/orgs/nope');
    expect([ok.status, created.status, missing.status]).toEqual([200, 201, 404]);
    for (const reply of [ok, created, missing]) {
      expect(reply.headers['transfer-encoding']).toBeUndefined();
      expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.body));
      expect(JSON.parse(reply.body)).toBeTypeOf('object');
    }
    const deleted = await send('DELETE', `/v1/orgs/${organization}/teams/${JSON.parse(created.body).id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.headers['content-length']).toBeUndefined();
    expect(deleted.headers['transfer-encoding']).toBeUndefined();
  });
});
