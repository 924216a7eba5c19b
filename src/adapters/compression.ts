import { RenderCache } from '../reader/cache.js';
import { type BodyStream, isBodyStream, type PlainRequest, type PlainResponse } from './plain.js';
import { byteLength } from './request-log.js';

/**
 * Content codings for every answer of the pipeline, so that both adapters send the same bytes: an answer of
 * a text type (HTML, CSS, JavaScript, JSON, XML, Markdown, plain text, SVG) goes out in brotli or gzip when
 * the request's Accept-Encoding accepts one. The compressing itself is a port (`Compress`): this module runs
 * on every runtime, and the Node entries inject node:zlib's asynchronous API (src/zlib-compress.ts), which
 * works in libuv's threads, not on the event loop.
 */

/** A content coding the pipeline answers in. */
export type ContentCoding = 'br' | 'gzip';

/**
 * Compresses a body that comes in pieces as they come, each piece's bytes sent on as soon as it is
 * compressed (flushed), so that the client reads them as it would the pieces themselves.
 */
export type CompressStream = (pieces: AsyncIterable<string | Uint8Array>, coding: ContentCoding) => AsyncIterable<Uint8Array>;

/**
 * Compresses bytes in a content coding, without holding the event loop (src/zlib-compress.ts); `stream`,
 * where given, compresses a body sent in pieces (llms-full.txt), which is otherwise sent as it is.
 */
export type Compress = ((bytes: Uint8Array, coding: ContentCoding) => Promise<Uint8Array>) & { readonly stream?: CompressStream };

/**
 * The smallest answer without an ETag that is compressed: below it the saving is a few hundred bytes at
 * most, and an API answer is compressed anew each time. An answer with an ETag is compressed at any size,
 * once (it is cached), so that all its answers to one Accept-Encoding carry the same ETag.
 */
export const MIN_COMPRESSED_BYTES = 1024;

/** How many bytes of compressed answers stay in memory, least recently used out first: 32 MiB. */
const CACHE_BYTES = 32 * 1024 * 1024;

/** The media types worth compressing: text, and the structured formats written as text. */
const COMPRESSIBLE = /^(text\/[\w.+-]+|application\/(json|xml|javascript|[\w.-]+\+(json|xml))|image\/svg\+xml)\s*(;|$)/i;

/**
 * The coding to answer a request's Accept-Encoding in: the accepted one of higher quality (`*` stands for
 * any not named; `q=0` refuses), brotli on a tie, as it is the smaller; undefined when neither is accepted or
 * there is no header (a client that sends none gets identity, as browsers always send one).
 */
export function chooseCoding(header: string | undefined): ContentCoding | undefined {
  if (header === undefined) return undefined;
  const quality: Partial<Record<ContentCoding | '*', number>> = {};
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';').map((item) => item.trim().toLowerCase());
    const coding = name === 'x-gzip' ? 'gzip' : name;
    if (coding !== 'br' && coding !== 'gzip' && coding !== '*') continue;
    const q = params.find((param) => param.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    quality[coding] = Math.max(quality[coding] ?? 0, Number.isFinite(value) && value >= 0 && value <= 1 ? value : 0);
  }
  const br = quality.br ?? quality['*'] ?? 0;
  const gzip = quality.gzip ?? quality['*'] ?? 0;
  if (br === 0 && gzip === 0) return undefined;
  return br >= gzip ? 'br' : 'gzip';
}

/** Adds a field name to a Vary header, unless it is there (or the header is `*`). */
function addVary(headers: Record<string, string>, name: string): void {
  const vary = headers.vary;
  if (vary === undefined || vary.trim() === '') headers.vary = name;
  else if (!vary.split(',').some((item) => ['*', name.toLowerCase()].includes(item.trim().toLowerCase()))) headers.vary = `${vary}, ${name}`;
}

/**
 * A compressed answer's ETag is weak: its bytes differ from the identity answer's, which has the same strong
 * ETag; If-None-Match compares weakly, so either still matches it (the reader's `matches`).
 */
const weakened = (etag: string) => (etag.startsWith('W/') ? etag : `W/${etag}`);

const encoder = new TextEncoder();

/**
 * The pipeline's last stage: encodes an answer for its request. Synchronous for an answer it leaves as it is
 * (most API answers, which are small), so that they wait no extra turn. An answer with an ETag is compressed
 * once per coding and kept (by the origin its links were built for, its status, type and ETag), and two
 * requests for it at once share one compression.
 */
export function createCompression(compress: Compress) {
  const cache = new RenderCache<Uint8Array>(CACHE_BYTES, (bytes) => bytes.byteLength);
  const pending = new Map<string, Promise<Uint8Array>>();

  function cached(key: string, body: string | Uint8Array, coding: ContentCoding): Promise<Uint8Array> | Uint8Array {
    const hit = cache.get(key) ?? pending.get(key);
    if (hit) return hit;
    const work = compress(typeof body === 'string' ? encoder.encode(body) : body, coding).finally(() => pending.delete(key));
    pending.set(key, work);
    return work.then((bytes) => {
      cache.set(key, bytes);
      return bytes;
    });
  }

  async function encoded(response: PlainResponse, bytes: Promise<Uint8Array> | Uint8Array, coding: ContentCoding): Promise<PlainResponse> {
    // The bytes first: a compression that fails leaves the answer whole, to be sent as it is.
    response.body = await bytes;
    response.headers['content-encoding'] = coding;
    return response;
  }

  function streamed(request: PlainRequest, response: PlainResponse, body: BodyStream): PlainResponse {
    if (!compress.stream) return response;
    const { headers } = response;
    addVary(headers, 'Accept-Encoding');
    const coding = chooseCoding(request.headers['accept-encoding']);
    if (coding === undefined) return response;
    // Weak, as the same answer's once it is kept and compressed whole (below), which it matches.
    if (headers.etag !== undefined) headers.etag = weakened(headers.etag);
    headers['content-encoding'] = coding;
    delete headers['content-length'];
    response.body = compress.stream(body, coding);
    return response;
  }

  return function encode(request: PlainRequest, response: PlainResponse): PlainResponse | Promise<PlainResponse> {
    const { headers, body } = response;
    const etag = headers.etag;
    if (body === undefined) {
      // A 304 carries the ETag and Vary that its 200 would have (RFC 9110, 15.4.5).
      if (response.status === 304 && etag !== undefined && chooseCoding(request.headers['accept-encoding'])) {
        headers.etag = weakened(etag);
        addVary(headers, 'Accept-Encoding');
      }
      return response;
    }
    const type = headers['content-type'];
    if (type === undefined || !COMPRESSIBLE.test(type) || headers['content-encoding'] !== undefined || response.status === 206) return response;
    if (/\bno-transform\b/i.test(headers['cache-control'] ?? '')) return response;
    // A body sent as it is made (llms-full.txt) is compressed as it comes, piece by piece: none is held back.
    if (isBodyStream(body)) return streamed(request, response, body);
    if (etag === undefined && byteLength(body) < MIN_COMPRESSED_BYTES) return response;
    addVary(headers, 'Accept-Encoding');
    const coding = chooseCoding(request.headers['accept-encoding']);
    if (coding === undefined) return response;
    if (etag === undefined) return encoded(response, compress(typeof body === 'string' ? encoder.encode(body) : body, coding), coding);
    headers.etag = weakened(etag);
    return encoded(response, cached(`${request.origin ?? ''}\u0000${response.status}\u0000${type}\u0000${etag}\u0000${coding}`, body, coding), coding);
  };
}
