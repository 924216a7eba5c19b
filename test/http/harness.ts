import { request as httpRequest } from 'node:http';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect } from 'vitest';
import type { FetchHandlerOptions } from '../../src/adapters/fetch/index.js';
import { createFetchHandler } from '../../src/fetch.js';
import { FRAME_ANCESTORS } from '../../src/adapters/framing.js';
import { serve, type RunningServer, type ServeOptions } from '../../src/adapters/node-http/index.js';
import { Router } from '../../src/adapters/router.js';
import { manualClock } from '../../src/core/clock.js';
import type { Platform } from '../../src/core/platform.js';
import { createPlatform, type PlatformOptions } from '../../src/platform.js';
import type { MemberRole } from '../../src/core/roles.js';
import { routes } from '../../src/core/routes.js';
import { ErrorSchema } from '../../src/core/schemas.js';
import { openTestStore } from '../store/test-store.js';
import type { Store } from '../../src/store/types.js';

/** The two ways a request reaches the pipeline: in-process through the Fetch handler, or over a socket. */
export const TRANSPORTS = ['fetch', 'node-http'] as const;
export type Transport = (typeof TRANSPORTS)[number];

/** A response as the tests see it. */
export interface TestResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or undefined when there is none. */
  body: any;
  text: string;
}

/** Request options. */
export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  /** Sent as is, instead of JSON-serializing `body`. */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** A caller with a token. */
export interface Caller {
  userId: string;
  token: string;
  email: string;
  get(path: string, options?: RequestOptions): Promise<TestResponse>;
  post(path: string, body?: unknown, options?: RequestOptions): Promise<TestResponse>;
  put(path: string, body?: unknown, options?: RequestOptions): Promise<TestResponse>;
  patch(path: string, body?: unknown, options?: RequestOptions): Promise<TestResponse>;
  delete(path: string, options?: RequestOptions): Promise<TestResponse>;
}

/** One platform on a fresh memory store, its owner, and a way to send requests through one transport. */
export interface Harness {
  transport: Transport;
  /** The node:http server's base URL (node-http transport only). */
  url: string | undefined;
  platform: Platform;
  clock: ReturnType<typeof manualClock>;
  organizationId: string;
  owner: Caller;
  /** Adds a user to an organization (default: the harness's) with a role and returns it as a caller. */
  user(role: MemberRole | null, options?: { organizationId?: string; email?: string; name?: string }): Promise<Caller>;
  /** Creates another organization owned by a new or given user. */
  organization(options?: { email?: string; title?: string }): Promise<{ organizationId: string; owner: Caller }>;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /** Sends a request as it is through the transport, without the schema checks (paths outside the API). */
  send(path: string, init?: RequestInit): Promise<Response>;
  /**
   * Sends a GET that came to `host`: over the socket with that Host header, as fetch() cannot send one; in
   * the Fetch transport, a Request of that URL (so only a host a URL may have).
   */
  sendToHost(host: string, path: string, headers?: Record<string, string>): Promise<Response>;
  /**
   * Sends a GET or HEAD and reads the answer as it was sent, a compressed body still compressed (fetch()
   * would decode it): over the socket with node:http, in the Fetch transport as the handler's Response.
   */
  sendRaw(method: 'GET' | 'HEAD', path: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

const router = new Router(routes);
let users = 0;

/**
 * Checks a response against the route's declared schema: a success body must match the route's
 * response schema (nothing for 204/205), a failure must be the one error shape with its status; a JSON
 * answer must carry X-Content-Type-Options: nosniff, and an endpoint's success Cache-Control: no-store.
 */
export function assertMatchesSchema(method: string, path: string, response: TestResponse): void {
  // The published-site reader answers HTML (test/http/reader/ checks it), not the API's JSON.
  if (path.startsWith('/published/')) return assertReaderAnswer(method, path, response);
  const match = router.match(method, path.split('?')[0]);
  // Every JSON answer, success or failure, tells browsers not to sniff another type out of it.
  if (/^application\/json\b/.test(response.headers.get('content-type') ?? '')) {
    expect(response.headers.get('x-content-type-options'), `${method} ${path}: X-Content-Type-Options`).toBe('nosniff');
    // An endpoint's answer is its caller's alone, and may hold secrets (tokens, claim URLs, keys): never kept.
    if (match && response.status < 300) expect(response.headers.get('cache-control'), `${method} ${path}: Cache-Control`).toBe('no-store');
  }
  if (response.status >= 400) {
    const result = v.safeParse(ErrorSchema, response.body);
    expect(result.success, `error body of ${method} ${path}: ${response.text}`).toBe(true);
    expect(response.body.error.code).toBe(response.status);
    return;
  }
  expect(match.kind, `${method} ${path} answered ${response.status} but matches no route`).toBe('route');
  if (match.kind !== 'route') return;
  expect(response.status).toBe(match.route.status);
  const schema = match.route.operation.response;
  if (match.route.status === 204 || match.route.status === 205 || !schema) {
    expect(response.text).toBe('');
    return;
  }
  // A body that is not JSON (a file download) is checked as the text it is.
  const json = /^application\/json\b/.test(response.headers.get('content-type') ?? 'application/json');
  const result = v.safeParse(schema, json ? response.body : response.text);
  if (!result.success) {
    const issue = result.issues[0];
    const where = (issue.path ?? []).map((item) => String(item.key)).join('.');
    throw new Error(`${method} ${path}: response does not match its schema at ${where}: ${issue.message}\n${response.text.slice(0, 2000)}`);
  }
}

/**
 * Checks an answer of the published-site reader: HTML with nosniff that no other site may frame; a document's
 * Content-Security-Policy allows no inline script but by hash; robots.txt is text, sitemap.xml XML; a redirect has a Location.
 */
function assertReaderAnswer(method: string, path: string, response: TestResponse): void {
  const type = response.headers.get('content-type') ?? '';
  if ([301, 302, 307, 308].includes(response.status)) return void expect(response.headers.get('location'), `${method} ${path}: Location`).toBeTruthy();
  if (response.status === 304 || method === 'HEAD' || response.status === 405) return;
  if (/\/robots\.txt$/.test(path.split('?')[0])) return void expect(type).toMatch(/^text\/plain\b/);
  if (/\/sitemap\.xml$/.test(path.split('?')[0]) && response.status === 200) return void expect(type).toMatch(/^application\/xml\b/);
  // A page's Markdown version, and llms.txt and llms-full.txt, for AI tools.
  if (/^text\/(markdown|plain)\b/.test(type) && response.status === 200) {
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    return void expect(type).toMatch(/\.md$/.test(path.split('?')[0]) ? /^text\/markdown; charset=utf-8$/ : /^text\/plain; charset=utf-8$/);
  }
  expect(type, `${method} ${path}: Content-Type`).toMatch(/^text\/html; charset=utf-8$/);
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  // No other site may frame a page, a fragment or an error page.
  expect(response.headers.get('content-security-policy') ?? '', `${method} ${path}: frame-ancestors`).toMatch(new RegExp(`(^|; )${FRAME_ANCESTORS}(;|$)`));
  if (!/[?&]fragment=1\b/.test(path)) {
    expect(response.text.startsWith('<!doctype html>'), `${method} ${path}: a whole document`).toBe(true);
    expect(response.headers.get('content-security-policy') ?? '').toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+';/);
  }
}

/**
 * Options of the platform a harness creates, besides its clock (e.g. a short fetch timeout); the store is a
 * fresh test store (test-store.ts) unless given. The platform is the Node entry's: without a `fetch`, outbound
 * fetches go through the one that refuses inside addresses, so a suite with a fixture server on 127.0.0.1
 * passes `fetchAllow: ['127.0.0.1']`.
 */
export type HarnessOptions = Omit<PlatformOptions, 'store' | 'clock'> & {
  store?: Store;
  /** Options of the Fetch handler and of serve() (logger, health, rateLimit, ...); default none. */
  pipeline?: FetchHandlerOptions & ServeOptionsOf;
};

/** serve()'s own options a harness passes on. */
type ServeOptionsOf = Omit<ServeOptions, 'platform' | 'port'>;

export async function createHarness(transport: Transport, options: HarnessOptions = {}): Promise<Harness> {
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const opened = options.store ? undefined : await openTestStore();
  const store = options.store ?? opened!.store;
  const { pipeline, ...platformOptions } = options;
  // On PostgreSQL, rate limits count in the database, as the bundled server's do.
  const rateLimiter = (store as { rateLimiter?: PlatformOptions['rateLimiter'] }).rateLimiter;
  const platform = createPlatform({ signingKey: 'test-signing-key', blobs: opened?.blobs, rateLimiter, ...platformOptions, store, clock });
  let server: RunningServer | undefined;
  let send: (request: Request) => Promise<Response>;
  if (transport === 'fetch') {
    const handler = createFetchHandler(platform, pipeline);
    send = handler;
  } else {
    server = await serve({ ...pipeline, platform, port: 0 });
    const base = server.url;
    send = (request) => {
      const url = new URL(request.url);
      // fetch() asks for gzip unless told otherwise, where a Request in process asks for nothing: the same
      // request on both transports. (It would decode a compressed answer too: `sendRaw` reads one as sent.)
      const headers = new Headers(request.headers);
      if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'identity');
      return fetch(`${base}${url.pathname}${url.search}`, {
        method: request.method,
        headers,
        body: request.body,
        duplex: 'half',
        // As the Fetch transport: a redirect is the answer, not followed.
        redirect: 'manual',
      } as RequestInit);
    };
  }

  async function request(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined = options.rawBody;
    if (body === undefined && options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await send(new Request(`http://docs.test${path}`, { method, headers, body }));
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const result = { status: response.status, headers: response.headers, body: parsed, text };
    assertMatchesSchema(method, path, result);
    return result;
  }

  const caller = (userId: string, token: string, email: string): Caller => ({
    userId,
    token,
    email,
    get: (path, options) => request('GET', path, { token, ...options }),
    post: (path, body, options) => request('POST', path, { token, body, ...options }),
    put: (path, body, options) => request('PUT', path, { token, body, ...options }),
    patch: (path, body, options) => request('PATCH', path, { token, body, ...options }),
    delete: (path, options) => request('DELETE', path, { token, ...options }),
  });

  const init = await platform.initialize({ title: 'Acme Docs', email: 'owner@acme.test', name: 'Olive Owner' });
  const harness: Harness = {
    transport,
    url: server?.url,
    platform,
    clock,
    organizationId: init.organizationId,
    owner: caller(init.userId, init.token, 'owner@acme.test'),
    async user(role, options = {}) {
      const email = options.email ?? `user${++users}@acme.test`;
      const created = await platform.addUser({
        organizationId: options.organizationId ?? init.organizationId,
        email,
        name: options.name ?? `User ${users}`,
        role,
      });
      return caller(created.userId, created.token, email.toLowerCase());
    },
    async organization(options = {}) {
      const email = options.email ?? `owner${++users}@other.test`;
      const created = await platform.initialize({ title: options.title ?? 'Other Org', email, name: 'Other Owner' });
      return { organizationId: created.organizationId, owner: caller(created.userId, created.token, email) };
    },
    request,
    send: (path, init) => send(new Request(`http://docs.test${path}`, init)),
    sendToHost: (host, path, headers = {}) => (server ? getWithHost(server.url, host, path, headers) : send(new Request(`http://${host}${path}`, { headers }))),
    sendRaw: (method, path, headers = {}) =>
      server ? getWithHost(server.url, 'docs.test', path, headers, method) : send(new Request(`http://docs.test${path}`, { method, headers })),
    async close() {
      await server?.close();
      await platform.close();
      await opened?.dispose();
    },
  };
  return harness;
}

/** A GET (or HEAD) over a socket with a Host header of the caller's choosing, as fetch() never sends one; the body as sent. */
function getWithHost(base: string, host: string, path: string, headers: Record<string, string>, method = 'GET'): Promise<Response> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: hostname, port, path, method, headers: { ...headers, host } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk)).on('error', reject);
      response.on('end', () => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(response.headers)) for (const one of [value ?? []].flat()) answer.append(name, one);
        const status = response.statusCode ?? 0;
        resolve(new Response([101, 204, 205, 304].includes(status) ? null : Buffer.concat(chunks), { status, headers: answer }));
      });
    });
    request.on('error', reject).end();
  });
}

/**
 * Declares a suite of HTTP tests that runs once per transport, with a fresh harness for every test:
 * `httpSuite('members', (h) => { it('...', async () => { await h().owner.get(...) }) })`.
 */
export function httpSuite(name: string, define: (harness: () => Harness) => void, options?: HarnessOptions): void {
  describe.each(TRANSPORTS)(`${name} (%s)`, (transport) => {
    let current: Harness | undefined;
    beforeEach(async () => {
      current = await createHarness(transport, options);
    });
    afterEach(async () => {
      await current?.close();
      current = undefined;
    });
    define(() => current!);
  });
}

/** Reads every page of a list endpoint by following `next.page`. */
export async function walkPages(caller: Caller, path: string, limit: number): Promise<any[]> {
  const items: any[] = [];
  let page: string | undefined;
  for (let guard = 0; guard < 10_000; guard++) {
    const separator = path.includes('?') ? '&' : '?';
    const response = await caller.get(`${path}${separator}limit=${limit}${page ? `&page=${encodeURIComponent(page)}` : ''}`);
    expect(response.status).toBe(200);
    items.push(...response.body.items);
    page = response.body.next?.page;
    if (!page) return items;
  }
  throw new Error('walkPages: too many pages');
}
