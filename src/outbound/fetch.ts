import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Fetch } from '../core/context.js';
import { parseIp, refusedRange } from './addresses.js';
import { parseAllowList, type AllowList } from './allow-list.js';

/**
 * The outbound fetch of the platform on Node (imports, files by URL, OpenAPI sources): a Fetch built on
 * node:http and node:https that connects only to addresses outside the refused ranges (addresses.ts) or
 * allowed by the operator (allow-list.ts). The host name is resolved first and every address it resolves
 * to is checked before any socket exists; the socket is then given those very addresses (its `lookup` does
 * not ask DNS again), so a name that resolves elsewhere a moment later (DNS rebinding) reaches nothing new.
 * Redirects are followed here, each hop checked the same way. Why node:http rather than the global fetch
 * (undici): the global fetch offers no hook between DNS and connect, nor a way to check each redirect hop
 * before connecting; reading a 4 MB body costs the main thread about the same through both
 * (bench/outbound-fetch.ts).
 */

/** One address a host name resolves to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** Resolves a host name to all its addresses (default: dns.lookup with `all`, as the OS resolves names). */
export type Resolve = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** Options of the outbound fetch. */
export interface OutboundFetchOptions {
  /**
   * What may be reached besides the public internet: IP addresses, CIDR ranges and host names, as a list or
   * a comma-separated string (`DOCS_PLATFORM_FETCH_ALLOW`), e.g. `127.0.0.1` for a local test setup.
   */
  readonly allow?: string | readonly string[];
  /** Resolves host names; tests inject one that maps names to addresses without asking DNS. */
  readonly lookup?: Resolve;
  /** How many redirects one fetch follows; default 10. */
  readonly maxRedirects?: number;
  /**
   * Whether POST requests with a byte body may be sent (Git's smart HTTP needs them); default false, so that
   * the fetch of imports and sources only reads. A request with a body follows no redirect.
   */
  readonly sendBodies?: boolean;
}

/**
 * Why the outbound fetch refused a URL: the `cause` of the TypeError it rejects with, for code that calls it
 * directly (and tests); the platform's answers never show it.
 */
export class OutboundRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefusal';
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers that must not follow a redirect to another origin. */
const CREDENTIALS = ['authorization', 'cookie', 'proxy-authorization'];

const defaultResolve: Resolve = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Creates the outbound fetch. Throws AllowListError (allow-list.ts) for an entry it cannot read. */
export function createOutboundFetch(options: OutboundFetchOptions = {}): Fetch {
  const allow = parseAllowList(options.allow);
  const resolve = options.lookup ?? defaultResolve;
  const maxRedirects = options.maxRedirects ?? 10;
  const sendBodies = options.sendBodies ?? false;

  return async function outboundFetch(input, init = {}) {
    const signal = init.signal ?? undefined;
    try {
      const method = (init.method ?? 'GET').toUpperCase();
      const body = requestBody(method, init.body, sendBodies);
      const headers = new Headers(init.headers);
      if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'gzip, br');
      if (!headers.has('user-agent')) headers.set('user-agent', 'docs-platform');
      let url = new URL(input);
      for (let hop = 0; ; hop++) {
        signal?.throwIfAborted();
        const answer = await exchange(url, method, headers, await checkedAddresses(url, allow, resolve), signal, body);
        const location = REDIRECTS.has(answer.statusCode ?? 0) ? answer.headers.location : undefined;
        if (location === undefined || init.redirect === 'manual' || body !== undefined) return toResponse(answer, method, signal);
        answer.destroy();
        if (init.redirect === 'error') throw new OutboundRefusal(`redirected to ${location}`);
        if (hop >= maxRedirects) throw new OutboundRefusal(`more than ${maxRedirects} redirects`);
        const next = new URL(location, url);
        if (next.origin !== url.origin) for (const name of CREDENTIALS) headers.delete(name);
        url = next;
      }
    } catch (error) {
      // As the global fetch does: an abort rejects with the signal's reason, anything else with "fetch failed".
      if (signal?.aborted) throw signal.reason;
      throw new TypeError('fetch failed', { cause: error });
    }
  };
}

/** The bytes a request sends: none for GET and HEAD; a byte body for POST where bodies are sent; else a refusal. */
function requestBody(method: string, body: RequestInit['body'], sendBodies: boolean): Uint8Array | undefined {
  if ((method === 'GET' || method === 'HEAD') && body == null) return undefined;
  if (!sendBodies) throw new OutboundRefusal('only GET and HEAD requests without a body are sent');
  if (method !== 'POST') throw new OutboundRefusal('only GET, HEAD and POST requests are sent');
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new OutboundRefusal('a request body must be bytes');
}

/**
 * The addresses a URL's host may be reached at, all checked: an IP literal (URL parsing has already
 * rewritten `2130706433`, `0x7f.1` and the like to dotted form) or every address its name resolves to.
 * Refuses the URL if any of them is refused: a name that resolves both outside and inside is not used.
 */
async function checkedAddresses(url: URL, allow: AllowList, resolve: Resolve): Promise<readonly ResolvedAddress[]> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefusal(`${url.protocol} URLs are not fetched`);
  const host = bare(url.hostname);
  const literal = parseIp(host);
  if (literal) {
    if (!allow.allowsAddress(literal)) throw new OutboundRefusal(`${host} is a ${refusedRange(literal)} address`);
    return [{ address: host, family: literal.family }];
  }
  const resolved = await resolve(host);
  if (resolved.length === 0) throw new OutboundRefusal(`${host} resolves to no address`);
  if (allow.allowsHost(host)) return resolved;
  for (const { address } of resolved) {
    const ip = parseIp(address);
    if (!ip) throw new OutboundRefusal(`${host} resolves to ${address}, which is not an IP address`);
    if (!allow.allowsAddress(ip)) throw new OutboundRefusal(`${host} resolves to ${address}, a ${refusedRange(ip)} address`);
  }
  return resolved;
}

/** A host without the brackets of an IPv6 literal. */
const bare = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/** A `lookup` for the socket that answers with the checked addresses, never asking DNS again. */
function pinned(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (hostname, options, callback) => {
    const usable = addresses.filter(({ family }) => !options.family || family === options.family);
    if (usable.length === 0) {
      const error = Object.assign(new Error(`no checked address of ${hostname} for family ${options.family}`), { code: 'ENOTFOUND' });
      return callback(error, '', 0);
    }
    if (options.all) callback(null, usable.map(({ address, family }) => ({ address, family })));
    else callback(null, usable[0].address, usable[0].family);
  };
}

/** Sends one request to checked addresses and resolves with the answer's head. */
function exchange(url: URL, method: string, headers: Headers, addresses: readonly ResolvedAddress[], signal: AbortSignal | undefined, body?: Uint8Array): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(
      {
        hostname: bare(url.hostname),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method,
        headers: Object.fromEntries(headers),
        // A connection of its own: a pooled socket could have been opened by code that checked nothing.
        agent: false,
        lookup: pinned(addresses),
        signal,
      },
      resolve,
    );
    request.once('error', reject);
    request.end(body);
  });
}

/** A node answer as a Fetch Response whose body streams it, decoded when it came compressed. */
function toResponse(answer: IncomingMessage, method: string, signal: AbortSignal | undefined): Response {
  const status = answer.statusCode ?? 0;
  if (status < 200 || status > 599) {
    answer.destroy();
    throw new OutboundRefusal(`answered with status ${status}`);
  }
  const headers = new Headers();
  for (let i = 0; i < answer.rawHeaders.length; i += 2) {
    try {
      headers.append(answer.rawHeaders[i], answer.rawHeaders[i + 1]);
    } catch {
      // A header the Fetch API cannot hold is dropped, as the global fetch drops it.
    }
  }
  if (method === 'HEAD' || status === 204 || status === 205 || status === 304) {
    answer.resume();
    return new Response(null, { status, headers });
  }
  let source: Readable = answer;
  const decoder = decoderFor(headers.get('content-encoding'));
  if (decoder) {
    source = pipeline(answer, decoder, () => undefined);
    headers.delete('content-encoding');
    headers.delete('content-length');
  }
  return new Response(streamOf(source, signal), { status, headers });
}

/** A decompressor for a Content-Encoding the fetch asked for or commonly gets; undefined for identity or unknown. */
function decoderFor(encoding: string | null): zlib.Gunzip | zlib.BrotliDecompress | zlib.Inflate | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'br':
      return zlib.createBrotliDecompress();
    case 'deflate':
      return zlib.createInflate();
    default:
      return undefined;
  }
}

/** How many bytes the body stream buffers before it pauses the socket. */
const BODY_BUFFER_BYTES = 64 * 1024;

/**
 * A ReadableStream fed by a node stream, with back-pressure: the socket is paused while the reader is
 * behind. Cancelling it, or the signal aborting, destroys the node stream (and so the connection).
 */
function streamOf(source: Readable, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  let done = false;
  let onAbort: (() => void) | undefined;
  const finish = () => {
    done = true;
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const fail = (error: unknown) => {
          if (done) return;
          finish();
          controller.error(error);
          source.destroy();
        };
        source.on('data', (chunk: Buffer) => {
          if (done) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) source.pause();
        });
        source.once('end', () => {
          if (done) return;
          finish();
          controller.close();
        });
        source.once('error', fail);
        source.once('close', () => fail(new Error('the connection closed before the body ended')));
        if (signal) {
          onAbort = () => fail(signal.reason);
          if (signal.aborted) onAbort();
          else signal.addEventListener('abort', onAbort, { once: true });
        }
      },
      pull() {
        source.resume();
      },
      cancel() {
        finish();
        source.destroy();
      },
    },
    { highWaterMark: BODY_BUFFER_BYTES, size: (chunk) => chunk.byteLength },
  );
}
