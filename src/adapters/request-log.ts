import { isBodyStream, type PlainResponse } from './plain.js';

/** What the pipeline tells of each request it answered: one entry, never a token or a body. */
export interface RequestLogEntry {
  /** The request's X-Request-Id (the client's when well-formed, else made), also sent back on the response. */
  readonly requestId: string;
  readonly method: string;
  /**
   * The route's pattern (`/v1/orgs/{organizationId}/members`), never the path with its ids; `mcp:<tool>` for
   * a tool call of the author server (`/mcp` for its other messages); null for a path that matches no route,
   * or a request node could not parse.
   */
  readonly route: string | null;
  /**
   * The HTTP status; for a tool call of the author server (`mcp:<tool>`) that failed, the status of the API
   * error the tool answered (its HTTP answer is a 200 that carries the error).
   */
  readonly status: number;
  /** From the request's arrival in the pipeline to its answer, in milliseconds. */
  readonly durationMs: number;
  /** The bytes of the response body. */
  readonly bytes: number;
  /** The user the request acted for, once its token was resolved. */
  readonly userId?: string;
}

/** Receives the pipeline's entries: the bundled server writes them as JSON lines through pino (pino-log.ts). */
export interface RequestLogger {
  /** One entry per answered request. */
  request(entry: RequestLogEntry): void;
  /** An unexpected failure (a 500), with its stack, once; the entry of its request follows. */
  failure(requestId: string, method: string, route: string | null, error: unknown): void;
}

/** Counts the pipeline's requests (node-http's createMetrics() implements it with prom-client). */
export interface RequestMetrics {
  /** One call per answered request. */
  request(entry: RequestLogEntry): void;
  /** One call per request refused by a rate limit (it is also a request, with status 429). */
  rateLimited(): void;
}

const encoder = new TextEncoder();

/** The bytes of a response body; 0 for one sent as it is made, whose size is not known when its request is logged. */
export function byteLength(body: PlainResponse['body']): number {
  if (body === undefined || isBodyStream(body)) return 0;
  if (typeof body !== 'string') return body.byteLength;
  // Buffer (Node, Bun, Deno) counts without copying the text; elsewhere it is encoded.
  return typeof Buffer === 'function' ? Buffer.byteLength(body) : encoder.encode(body).byteLength;
}
