import * as v from 'valibot';
import { ApiError } from '../core/errors.js';
import type { Actor } from '../core/context.js';
import { BinaryBody, type Operation, type Route } from '../core/operation.js';
import type { Platform, Trace } from '../core/platform.js';
import { chargeRequest, RATE_COSTS, type RateDecision } from '../core/rate-limit.js';
import { parseOrThrow } from '../core/validate.js';
import { serializeJson } from '../core/json-text.js';
import { BEARER_CHALLENGE, bearerOf, bearerToken } from './bearer.js';
import { errorResponse, isBodyStream, jsonHeaders, type PlainRequest, type PlainResponse } from './plain.js';
import { createHealth, HEALTH_PATH, READY_PATH, type Health } from './health.js';
import { BAD_HOST_MESSAGE, isValidOrigin } from './host.js';
import { createLanding } from './landing.js';
import type { DocsAssets } from './openapi/docs-page.js';
import { createReferenceHandler, DOCS_PATH, OPENAPI_PATH } from './openapi/serve.js';
import { createReader } from '../reader/handler.js';
import { answerMcp, answerSiteMcp, isSiteMcpPath } from './mcp/answer-mcp.js';
import { MCP_PATH, readMcpExchange, type McpExchange } from './mcp/mcp-exchange.js';
import { PUBLISHED_PREFIX } from '../reader/request.js';
import { clientAddressOf, parseTrustedProxies } from './client-address.js';
import { createCompression, type Compress } from './compression.js';
import { setRateLimitHeaders, requestCost, type RateLimitOptions } from './rate-limit.js';
import { requestIdOf } from './request-id.js';
import { byteLength, type RequestLogger, type RequestMetrics } from './request-log.js';
import { Router, type Match as RouteMatch } from './router.js';

/** The largest request body accepted: 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Options of the pipeline. */
export interface PipelineOptions {
  /** Receives one entry per request and the stack of each unexpected failure (pinoRequestLogger() writes them). */
  logger?: RequestLogger;
  /** Counts requests for /metrics (node-http's createMetrics()). */
  metrics?: RequestMetrics;
  /** The files of the API reference page at `/docs`; without them `/docs` is a 404 (node-http supplies them). */
  docsAssets?: DocsAssets;
  /**
   * Answer `GET /healthz` and `GET /readyz` without a token: true for the platform's store readiness, or a
   * Health whose stop() the embedding app calls when it begins to stop. Default off (serve() turns it on).
   */
  health?: boolean | Health;
  /** Per-token and per-address budgets, with X-RateLimit-* headers on every answer; default off. */
  rateLimit?: RateLimitOptions;
  /**
   * The proxies whose X-Forwarded-For is believed for the client address (DOCS_PLATFORM_TRUST_PROXY):
   * comma-separated IP addresses, CIDR ranges and `loopback`, e.g. `127.0.0.1,10.0.0.0/8`. Default none: the
   * address is the connection's peer (the Fetch handler's `clientAddress`). Throws at creation for a bad value.
   */
  trustProxy?: string;
  /**
   * Compresses text answers (HTML, CSS, JavaScript, JSON, XML, Markdown) in brotli or gzip for a client whose
   * Accept-Encoding accepts it (compression.ts). The Node entries (`docs-platform/fetch`, `docs-platform/node-http`)
   * default it to node:zlib (`zlibCompress`); elsewhere, and with `false`, answers are sent as they are: pass
   * `false` where the runtime or a proxy in front compresses on its own (Cloudflare Workers do, unless a
   * response says `encodeBody: 'manual'`).
   */
  compress?: Compress | false;
}

/** What answering a request found on the way: its route match (or its MCP message), and its budget's decision. */
interface Seen {
  match?: RouteMatch;
  mcp?: McpExchange;
  decision?: RateDecision;
}

/**
 * The request pipeline shared by both adapters: match the route, authenticate the bearer token,
 * validate the path, query and body with the operation's valibot schemas, run the operation,
 * render the result or the error. No domain logic lives here.
 */
export function createPipeline(platform: Platform, options: PipelineOptions = {}) {
  const router = new Router(platform.routes);
  const { logger, metrics, rateLimit } = options;
  const health = options.health === true ? createHealth(platform) : options.health || undefined;
  const limiter = rateLimit?.limiter ?? platform.rateLimiter;
  const trusted = options.trustProxy === undefined ? undefined : parseTrustedProxies(options.trustProxy);
  const serveReference = createReferenceHandler(platform, options.docsAssets);
  const reader = createReader(platform);
  const encode = options.compress ? createCompression(options.compress) : undefined;
  const landing = createLanding({ docs: options.docsAssets !== undefined, health: health !== undefined, baseUrl: platform.baseUrl });

  async function handle(request: PlainRequest, match: RouteMatch, trace: Trace, requestId: string): Promise<PlainResponse> {
    // A path no route has may be a published site read at its own hostname; else `/` is the landing answer.
    if (match.kind === 'not-found') {
      const hosted = (await answerSiteMcp(platform, request, requestId, logger)) ?? (await reader.hosted(request));
      if (hosted) return hosted;
      if (request.path === '/') return home(request);
      // Browsers ask every host for its icon: the server's is the reader's default.
      if (request.path === '/favicon.ico' && (request.method === 'GET' || request.method === 'HEAD')) return reader.favicon();
      return errorResponse(404, `No endpoint ${request.method} ${request.path}`);
    }
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
      result = await platform.run(route.operation, undefined as unknown as Actor, input, request.origin, trace);
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
      result = await platform.runWithToken(route.operation, token, input, request.origin, trace);
    }
    const response = render(route, result);
    if (route.status === 201 && route.location && !response.headers.location) {
      response.headers.location = platform.urls(request.origin).api(route.location(input, result));
    }
    return response;
  }

  /** `/`: the landing answer, to GET and HEAD. */
  function home(request: PlainRequest): PlainResponse | Promise<PlainResponse> {
    if (request.method === 'GET' || request.method === 'HEAD') return landing(request);
    return errorResponse(405, `${request.method} is not allowed on /; use GET`, { allow: 'GET, HEAD' });
  }

  /** `/healthz` and `/readyz`, when served: answered without a token or a budget. */
  async function probe(request: PlainRequest, path: string): Promise<PlainResponse> {
    if (request.method !== 'GET' && request.method !== 'HEAD') return errorResponse(405, `${request.method} is not allowed on ${path}; use GET`, { allow: 'GET, HEAD' });
    const reason = path === READY_PATH ? await health!.readiness() : undefined;
    if (reason !== undefined) return errorResponse(503, `Not ready: ${reason}`, { 'cache-control': 'no-store' });
    return { status: 200, headers: Object.assign(jsonHeaders(), { 'cache-control': 'no-store' }), body: '{"status":"ok"}' };
  }

  /** The route pattern a request is logged under (a tool call's: `mcp:<tool>`); null for a path that matches none. */
  function routeLabel(path: string, match: RouteMatch | undefined, mcp?: McpExchange): string | null {
    if (match?.kind === 'route') return match.route.path;
    if (mcp) return mcp.route;
    if (path === OPENAPI_PATH || path === DOCS_PATH || path === '/') return path;
    if (path.startsWith(PUBLISHED_PREFIX)) return `${PUBLISHED_PREFIX}{path}`;
    return path.startsWith(`${DOCS_PATH}/`) ? `${DOCS_PATH}/{file}` : null;
  }

  /** Answers a request, within its budget when limits are on; `seen` keeps its route and the budget's decision, for the log and the headers. */
  async function answer(request: PlainRequest, requestId: string, trace: Trace, seen: Seen): Promise<PlainResponse> {
    const published = request.path.startsWith(PUBLISHED_PREFIX);
    // Links, the OpenAPI servers and the reader's Content-Security-Policy are built of the host: never of a bad one.
    if (request.origin !== undefined && !isValidOrigin(request.origin)) {
      return published ? reader.failurePage(new ApiError(400, BAD_HOST_MESSAGE)) : errorResponse(400, BAD_HOST_MESSAGE);
    }
    if (health && (request.path === HEALTH_PATH || request.path === READY_PATH)) return probe(request, request.path);
    const reference = published ? undefined : serveReference(request);
    // The author server (MCP): its cost and its log's route are those of the tool it calls.
    const mcp = (seen.mcp = !reference && !published && request.path === MCP_PATH ? readMcpExchange(platform, request) : undefined);
    const match = (seen.match = reference || published || mcp ? undefined : router.match(request.method, request.path));
    if (rateLimit && rateLimit.perMinute > 0) {
      const charge = {
        token: bearerOf(request.headers.authorization),
        clientAddress: () => clientAddressOf(request.clientAddress, request.headers['x-forwarded-for'], trusted),
        cost: mcp ? mcp.cost : requestCost(match?.kind === 'route' ? match.route : undefined),
        limit: rateLimit.perMinute,
        now: platform.clock.now().getTime(),
      };
      try {
        // A value, not a promise, for a token this process knows and a count it holds: no turn waited.
        const decision = chargeRequest(limiter, platform.authenticate, charge);
        seen.decision = decision instanceof Promise ? await decision : decision;
      } catch (error) {
        // A budget that cannot be decided lets the request through: the request meets the same store, and
        // answers 503 itself if it must. A store that is away (a 503; the PostgreSQL store logs its outage
        // once, and its limiter counts in memory meanwhile) is not logged again here for every request; any
        // other failure is a bug, logged with its stack.
        if (!(error instanceof ApiError && error.status === 503)) logger?.failure(requestId, request.method, routeLabel(request.path, match, mcp), error);
      }
      const decision = seen.decision;
      if (decision && !decision.allowed) {
        metrics?.rateLimited();
        const costs = `a read costs ${RATE_COSTS.read}, a write ${RATE_COSTS.write}, an import, PDF or OpenAPI processing ${RATE_COSTS.heavy}`;
        const message = `Rate limit exceeded: ${decision.limit} units a minute (${costs}); try again in ${decision.retryAfter} s`;
        // A reader gets a page that says so; an API client, and a site's MCP server's, the error shape.
        return published && !isSiteMcpPath(request.path) ? reader.failurePage(new ApiError(429, message)) : errorResponse(429, message);
      }
    }
    if (reference) return reference;
    if (mcp) return answerMcp(platform, request, mcp, trace, requestId, logger);
    // A published site's MCP server, where its path has no page.
    const siteMcp = published ? await answerSiteMcp(platform, request, requestId, logger) : undefined;
    if (siteMcp) return siteMcp;
    // Awaited: an async function that returns a promise resolves a turn later than one that returns a value.
    return await (published ? reader.published(request)! : handle(request, match!, trace, requestId));
  }

  return async function pipeline(request: PlainRequest): Promise<PlainResponse> {
    const started = logger || metrics ? performance.now() : 0;
    const requestId = request.requestId ?? requestIdOf(request.headers);
    const trace: Trace = {};
    const seen: Seen = {};
    let response: PlainResponse;
    try {
      response = await answer(request, requestId, trace, seen);
    } catch (error) {
      if (error instanceof ApiError) {
        response = errorResponse(error.status, error.message, error.status === 401 ? { ...BEARER_CHALLENGE, ...error.headers } : error.headers);
      } else {
        logger?.failure(requestId, request.method, routeLabel(request.path, seen.match, seen.mcp), error);
        response = errorResponse(500, 'Internal server error');
      }
    }
    if (encode) {
      // In place; a promise only for an answer it compresses. One that fails leaves the answer as it was.
      const encoding = encode(request, response);
      if (encoding instanceof Promise) {
        const plain = response;
        response = await encoding.catch((error: unknown) => {
          logger?.failure(requestId, request.method, routeLabel(request.path, seen.match, seen.mcp), error);
          return plain;
        });
      }
    }
    // A HEAD is answered as its GET, compressed alike, without the body (but with its length, where it is
    // not sent as it is made: a HEAD makes none of its parts).
    if (request.method === 'HEAD' && response.body !== undefined) {
      if (!isBodyStream(response.body)) response.headers['content-length'] ??= String(byteLength(response.body));
      response.body = undefined;
    }
    response.headers['x-request-id'] = requestId;
    if (seen.decision) setRateLimitHeaders(response.headers, seen.decision);
    if (logger || metrics) {
      const entry = {
        requestId,
        method: request.method,
        route: routeLabel(request.path, seen.match, seen.mcp),
        status: seen.mcp?.status ?? response.status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        bytes: byteLength(response.body),
        ...(trace.userId !== undefined && { userId: trace.userId }),
      };
      logger?.request(entry);
      metrics?.request(entry);
    }
    return response;
  };
}

/** Collects and validates the operation's input from the path, the query string and the body. */
function parseInput(operation: Operation, request: PlainRequest, rawParams: Record<string, string>): unknown {
  const params: Record<string, string> = {};
  for (const name in rawParams) {
    const raw = rawParams[name];
    try {
      // Most segments (ids) hold no escape: decoding them would only copy them.
      params[name] = raw.includes('%') ? decodeURIComponent(raw) : raw;
    } catch {
      throw new ApiError(400, `${name}: is not a valid percent-encoded path segment`);
    }
  }
  const query: Record<string, string | string[]> = {};
  if (request.query !== '') {
    for (const [name, value] of new URLSearchParams(request.query)) {
      const seen = query[name];
      query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
    }
  }
  const schemas = schemasOf(operation);
  const body = operation.body === null ? {} : parseBody(request);
  // The parts that have a schema, the path's last, so that it wins a name they share.
  const parts = [check(schemas.body, body), check(schemas.query, query), check(schemas.params, params)].filter((part) => part !== undefined);
  return parts.length === 1 ? parts[0] : Object.assign({}, ...parts);
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

function check(schema: Schemas[keyof Schemas], value: unknown): Record<string, unknown> | undefined {
  return schema && parseOrThrow(schema, value);
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
  // An answer is for its caller alone and may hold secrets (a new token, claim URLs, a site's keys): no cache keeps it.
  const headers = Object.assign(jsonHeaders(), { 'cache-control': 'no-store' });
  const location = (result as { urls?: { location?: unknown } } | undefined)?.urls?.location;
  if (route.status === 201 && typeof location === 'string') headers.location = location;
  // A document a job made arrives as its JSON's bytes, which go out as they are (core/json-text.ts).
  return { status: route.status, headers, body: serializeJson(result) };
}
