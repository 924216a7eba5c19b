import * as v from 'valibot';
import { ApiError, errorBody } from '../core/errors.js';
import type { Actor } from '../core/context.js';
import { BinaryBody, type Operation, type Route } from '../core/operation.js';
import type { Platform } from '../core/platform.js';
import { parseOrThrow } from '../core/validate.js';
import type { DocsAssets } from './openapi/docs-page.js';
import { createReferenceHandler } from './openapi/serve.js';
import { createReader } from '../reader/handler.js';
import { Router } from './router.js';

/** The largest request body accepted: 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024;

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
  /** Where the request came to, e.g. `http://127.0.0.1:8080`, for the URLs in responses. */
  readonly origin?: string;
}

/** A response as the pipeline produces it; each adapter writes it back in its runtime's terms. */
export interface PlainResponse {
  status: number;
  headers: Record<string, string>;
  /** The serialized JSON body, or the bytes of a download; absent for 204 and 205. */
  body?: string | Uint8Array;
  /** Set-Cookie values, one header each (the published-site reader keeps a visitor's credentials in cookies). */
  cookies?: readonly string[];
}

/** Options of the pipeline. */
export interface PipelineOptions {
  /** Receives one line per request (`GET /v1/orgs 200 1.2ms`) and the details of unexpected failures. */
  log?: (line: string) => void;
  /** The files of the API reference page at `/docs`; without them `/docs` is a 404 (node-http supplies them). */
  docsAssets?: DocsAssets;
}

/** The headers of every JSON answer: its type, and no sniffing another one out of it. */
const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff' };

/** Renders a failure in the one error shape. */
export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): PlainResponse {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(errorBody(status, message)) };
}

/**
 * The request pipeline shared by both adapters: match the route, authenticate the bearer token,
 * validate the path, query and body with the operation's valibot schemas, run the operation,
 * render the result or the error. No domain logic lives here.
 */
export function createPipeline(platform: Platform, options: PipelineOptions = {}) {
  const router = new Router(platform.routes);
  const log = options.log;
  const serveReference = createReferenceHandler(platform, options.docsAssets);
  const reader = createReader(platform);

  async function handle(request: PlainRequest): Promise<PlainResponse> {
    const reference = serveReference(request);
    if (reference) return reference;
    const published = reader.published(request);
    if (published) return published;
    const match = router.match(request.method, request.path);
    if (match.kind === 'not-found') return (await reader.hosted(request)) ?? errorResponse(404, `No endpoint ${request.method} ${request.path}`);
    if (match.kind === 'method-not-allowed') {
      return errorResponse(405, `${request.method} is not allowed on ${request.path}; use ${match.allowed.join(', ')}`, {
        allow: match.allowed.join(', '),
      });
    }
    const { route } = match;
    let result: unknown;
    let input: unknown;
    if (route.authenticated === false) {
      input = parseInput(route.operation, request, match.params);
      result = await platform.run(route.operation, undefined as unknown as Actor, input, request.origin);
    } else {
      const token = bearerToken(request);
      try {
        input = parseInput(route.operation, request, match.params);
      } catch (error) {
        // An unknown token is answered 401 before anything is said about the input.
        if (error instanceof ApiError && !(await platform.authenticate(token))) throw new ApiError(401, 'The token is not valid');
        throw error;
      }
      // The token is looked up in the operation's own transaction: one transaction a request, not two.
      result = await platform.runWithToken(route.operation, token, input, request.origin);
    }
    const response = render(route, result);
    if (route.status === 201 && route.location && !response.headers.location) {
      response.headers.location = platform.urls(request.origin).api(route.location(input, result));
    }
    return response;
  }

  /** The bearer token of a request; 401 when there is none. */
  function bearerToken(request: PlainRequest): string {
    const header = request.headers.authorization;
    if (!header) throw new ApiError(401, 'Authentication required: send the header Authorization: Bearer <token>');
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!bearer) throw new ApiError(401, 'The Authorization header must be of the form: Bearer <token>');
    return bearer[1];
  }

  return async function pipeline(request: PlainRequest): Promise<PlainResponse> {
    const started = performance.now();
    let response: PlainResponse;
    try {
      response = await handle(request);
    } catch (error) {
      if (error instanceof ApiError) {
        response = errorResponse(error.status, error.message);
      } else {
        log?.(`error ${request.method} ${request.path}: ${(error as Error)?.stack ?? String(error)}`);
        response = errorResponse(500, 'Internal server error');
      }
    }
    log?.(`${request.method} ${request.path} ${response.status} ${(performance.now() - started).toFixed(1)}ms`);
    return response;
  };
}

/** Collects and validates the operation's input from the path, the query string and the body. */
function parseInput(operation: Operation, request: PlainRequest, rawParams: Record<string, string>): unknown {
  const params: Record<string, string> = {};
  for (const [name, raw] of Object.entries(rawParams)) {
    try {
      params[name] = decodeURIComponent(raw);
    } catch {
      throw new ApiError(400, `${name}: is not a valid percent-encoded path segment`);
    }
  }
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(request.query)) {
    const seen = query[name];
    query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  const schemas = schemasOf(operation);
  const body = operation.body === null ? {} : parseBody(request);
  return {
    ...check(schemas.body, body),
    ...check(schemas.query, query),
    ...check(schemas.params, params),
  };
}

type Schemas = Record<'params' | 'query' | 'body', v.GenericSchema<unknown, Record<string, unknown>> | undefined>;
const compiled = new WeakMap<Operation, Schemas>();

/** The object schemas of an operation's path, query and body, built once. */
function schemasOf(operation: Operation): Schemas {
  let schemas = compiled.get(operation);
  if (!schemas) {
    const object = (entries: v.ObjectEntries | null) =>
      entries && Object.keys(entries).length > 0 ? (v.object(entries) as v.GenericSchema<unknown, Record<string, unknown>>) : undefined;
    schemas = { params: object(operation.params), query: object(operation.query), body: object(operation.body) };
    compiled.set(operation, schemas);
  }
  return schemas;
}

function check(schema: Schemas[keyof Schemas], value: unknown): Record<string, unknown> {
  return schema ? parseOrThrow(schema, value) : {};
}

function parseBody(request: PlainRequest): unknown {
  const text = request.body;
  if (text === undefined || text.trim() === '') return {};
  if (text.length > MAX_BODY_BYTES) throw new ApiError(413, `The request body is larger than ${MAX_BODY_BYTES} bytes`);
  const type = request.headers['content-type'] ?? '';
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
    throw new ApiError(415, 'A request body must be JSON, sent with Content-Type: application/json');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, `The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, 'The request body must be a JSON object');
  }
  return body;
}

function render(route: Route, result: unknown): PlainResponse {
  if (route.status === 204 || route.status === 205) return { status: route.status, headers: {} };
  if (result instanceof BinaryBody) return { status: route.status, headers: { ...result.headers }, body: result.bytes };
  const headers: Record<string, string> = { ...JSON_HEADERS };
  const location = (result as { urls?: { location?: unknown } } | undefined)?.urls?.location;
  if (route.status === 201 && typeof location === 'string') headers.location = location;
  return { status: route.status, headers, body: JSON.stringify(result) };
}
