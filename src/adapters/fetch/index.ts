import type { Platform } from '../../core/platform.js';
import { MAX_BODY_BYTES, createPipeline, type PipelineOptions } from '../pipeline.js';
import { errorResponse, isBodyStream, type BodyStream, type PlainResponse } from '../plain.js';
import { requestIdOf } from '../request-id.js';

/** Reads a request body up to MAX_BODY_BYTES; resolves to null when it is larger. */
async function readBody(request: Request): Promise<string | null> {
  if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) return null;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** Options of the Fetch handler, besides the pipeline's (`health`, `rateLimit`, `logger`, ...). */
export interface FetchHandlerOptions extends PipelineOptions {
  /**
   * The client's address, whose budget a request without a valid token spends (`rateLimit`): the Fetch API
   * has none, so the embedding app says where its runtime keeps the connection's peer (e.g. Bun's
   * `server.requestIP(request)`); behind proxies, `trustProxy` names those whose X-Forwarded-For is believed.
   * Default: every request without a valid token shares one budget.
   */
  clientAddress?: (request: Request) => string | undefined;
}

function toResponse(response: PlainResponse): Response {
  const headers = new Headers(response.headers);
  for (const cookie of response.cookies ?? []) headers.append('set-cookie', cookie);
  const body = isBodyStream(response.body) ? readableOf(response.body) : response.body;
  return new Response((body as BodyInit | undefined) ?? null, { status: response.status, headers });
}

/**
 * A body that comes in pieces as a ReadableStream that asks for the next piece only when its reader wants
 * one (pull), so that a slow client holds no more than a piece in memory; a cancelled read stops the pieces
 * (their iterator is returned), and an error while they are made errors the stream.
 */
function readableOf(body: BodyStream): ReadableStream<Uint8Array> {
  const pieces = body[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await pieces.next();
      if (done) controller.close();
      else controller.enqueue(typeof value === 'string' ? encoder.encode(value) : value);
    },
    async cancel() {
      await pieces.return?.();
    },
  });
}

/**
 * A Fetch API handler serving the platform's API, for any runtime or framework that speaks
 * Request/Response (Hono, Next.js route handlers, Bun, Deno, Workers): `(request) => Promise<Response>`.
 * With `health: true` it answers `/healthz` and `/readyz`; with `rateLimit: { perMinute }` it limits each
 * token (and `clientAddress`) and sends X-RateLimit-* headers.
 */
export function createFetchHandler(platform: Platform, options: FetchHandlerOptions = {}) {
  return fetchHandlerOver(createPipeline(platform, options), options);
}

/**
 * A Fetch handler over a pipeline. With `path`, every request is answered as if sent to that path (a
 * handler the app mounts where it likes, such as the author server's).
 */
export function fetchHandlerOver(pipeline: ReturnType<typeof createPipeline>, options: FetchHandlerOptions, path?: string) {
  return async (request: Request): Promise<Response> => {
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const requestId = requestIdOf(headers);
    const body = await readBody(request);
    if (body === null) return toResponse(errorResponse(413, `The request body is larger than ${MAX_BODY_BYTES} bytes`, { 'x-request-id': requestId }));
    const url = new URL(request.url);
    return toResponse(
      await pipeline({
        method: request.method,
        path: path ?? url.pathname,
        query: url.search.slice(1),
        headers,
        body,
        origin: url.origin,
        clientAddress: options.clientAddress?.(request),
        requestId,
      }),
    );
  };
}
