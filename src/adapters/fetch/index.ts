import type { Platform } from '../../core/platform.js';
import { MAX_BODY_BYTES, createPipeline, errorResponse, type PipelineOptions, type PlainResponse } from '../pipeline.js';

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

function toResponse(response: PlainResponse): Response {
  const headers = new Headers(response.headers);
  for (const cookie of response.cookies ?? []) headers.append('set-cookie', cookie);
  return new Response((response.body as BodyInit | undefined) ?? null, { status: response.status, headers });
}

/**
 * A Fetch API handler serving the platform's API, for any runtime or framework that speaks
 * Request/Response (Hono, Next.js route handlers, Bun, Deno, Workers): `(request) => Promise<Response>`.
 */
export function createFetchHandler(platform: Platform, options: PipelineOptions = {}) {
  const pipeline = createPipeline(platform, options);
  return async (request: Request): Promise<Response> => {
    const body = await readBody(request);
    if (body === null) return toResponse(errorResponse(413, `The request body is larger than ${MAX_BODY_BYTES} bytes`));
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return toResponse(
      await pipeline({
        method: request.method,
        path: url.pathname,
        query: url.search.slice(1),
        headers,
        body,
        origin: url.origin,
      }),
    );
  };
}
