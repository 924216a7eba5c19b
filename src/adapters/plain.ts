import { errorBody } from '../core/errors.js';

// The plain request and response that the pipeline, the handlers it delegates to (the reader, the API
// reference) and the adapters speak: apart from the pipeline, so that those handlers need not import it.

/** A request as the pipeline sees it; each adapter converts its runtime's request into this. */
export interface PlainRequest {
  readonly method: string;
  /** The path, still percent-encoded, without the query string. */
  readonly path: string;
  /** The query string, without `?`. */
  readonly query: string;
  /** Header values by lower-case name. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The raw body; undefined or empty when there is none. */
  readonly body?: string;
  /**
   * Where the request came to, e.g. `http://127.0.0.1:8080`, for the URLs in responses (unless the platform
   * has a base URL); a host that is not valid (host.ts) is answered 400.
   */
  readonly origin?: string;
  /** The connection's peer (trustProxy may believe what it forwards), whose budget a request without a valid token spends. */
  readonly clientAddress?: string;
  /** The request id an adapter already chose (requestIdOf); else the pipeline takes or makes one. */
  readonly requestId?: string;
}

/**
 * A body sent in pieces as they are made (llms-full.txt), each as soon as it comes and the next only once the
 * client took it; an error while it is made cuts the answer short, since its status is already sent.
 */
export type BodyStream = AsyncIterable<string | Uint8Array>;

/** Whether a body is sent in pieces. */
export const isBodyStream = (body: PlainResponse['body']): body is BodyStream => typeof body === 'object' && Symbol.asyncIterator in body;

/** A response as the pipeline produces it; each adapter writes it back in its runtime's terms. */
export interface PlainResponse {
  status: number;
  headers: Record<string, string>;
  /** The serialized JSON body, the bytes of a download, or a text sent as it is made; absent for 204 and 205. */
  body?: string | Uint8Array | BodyStream;
  /** Set-Cookie values, one header each (the published-site reader keeps a visitor's credentials in cookies). */
  cookies?: readonly string[];
}

/**
 * The headers of every JSON answer (its type, and no sniffing another one out of it), a new object each time.
 * Made by a literal, not by spreading a shared object: V8's optimized code gives a spread's copy a map of
 * its own, so every header added after (the request id, the rate limits) made another map, in the runtime
 * (perf: MigrateToMap; 1-2 µs a request).
 */
export const jsonHeaders = (): Record<string, string> => ({ 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff' });

/** Renders a failure in the one error shape. */
export function errorResponse(status: number, message: string, headers: Readonly<Record<string, string>> = {}): PlainResponse & { body: string } {
  return { status, headers: Object.assign(jsonHeaders(), headers), body: JSON.stringify(errorBody(status, message)) };
}
