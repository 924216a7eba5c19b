import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Platform } from '../../core/platform.js';
import { answerClientErrors } from './client-errors.js';
import { drainOnClose } from './drain.js';
import { swaggerUiAssets } from './docs-assets.js';
import { METRICS_PATH, type Metrics } from './metrics.js';
import { createHealth, type Health } from '../health.js';
import { MAX_BODY_BYTES, createPipeline, type PipelineOptions } from '../pipeline.js';
import { errorResponse, type PlainResponse } from '../plain.js';
import { requestIdOf } from '../request-id.js';
import { createTurnSender, write } from './send.js';
import { zlibCompress } from '../../zlib-compress.js';

/** How much of a body over MAX_BODY_BYTES is read, in all, and dropped before the connection is cut. */
const DISCARD_BYTES = 8 * 1024 * 1024;

/**
 * Whether a request has no body: without Content-Length or Transfer-Encoding it has none (RFC 9112 6.3). It is
 * answered at once rather than a turn of the event loop later, at the stream's 'end' (most requests are such
 * GETs). node:http discards an unread request stream itself, so the connection stays usable.
 */
const bodyless = (request: IncomingMessage) => request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined;

/**
 * Reads a request body up to MAX_BODY_BYTES. Resolves to null when it is larger, once refuseBody() has
 * answered with 413.
 */
function readBody(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<string | null> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) {
    refuseBody(request, response, 0, requestId);
    return Promise.resolve(null);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      request.off('data', onData).off('end', onEnd);
      refuseBody(request, response, size, requestId);
      resolve(null);
    };
    const onEnd = () => resolve(Buffer.concat(chunks).toString('utf8'));
    request.on('data', onData).on('end', onEnd).on('error', reject);
  });
}

/**
 * Answers 413 at once, but ends the response (and node then closes the connection) only once the client
 * has sent the rest of its body, read and dropped up to DISCARD_BYTES in all: a connection closed while
 * bytes still arrive is reset, and a client still writing gets EPIPE or ECONNRESET instead of the answer.
 * Beyond the bound the connection is cut.
 */
function refuseBody(request: IncomingMessage, response: ServerResponse, received: number, requestId: string): void {
  const { status, headers, body } = errorResponse(413, `The request body is larger than ${MAX_BODY_BYTES} bytes`, { connection: 'close', 'x-request-id': requestId });
  // Content-Length frames the answer, so the client has all of it before the connection ends.
  response.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body!)) }).write(body);
  let discarded = received;
  const onData = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded <= DISCARD_BYTES) return;
    request.off('data', onData);
    response.end(() => request.socket.destroy());
  };
  request.on('data', onData);
  request.once('end', () => response.end());
  request.resume();
}

/** Options of the node:http listener, besides the pipeline's. */
export interface NodeListenerOptions extends PipelineOptions {
  /** Serve `GET /metrics` from these metrics on the API's own port (DOCS_PLATFORM_METRICS=1); default not. */
  serveMetrics?: Metrics;
}

/**
 * A node:http request listener serving the platform's API: `http.createServer(createNodeListener(platform))`.
 * It also serves the API reference page at `/docs`, from the installed swagger-ui-dist unless `docsAssets` is given,
 * and compresses with node:zlib (`zlibCompress`) unless `compress` is given.
 * Wrap the server in answerClientErrors() so that what node answers itself (unparsable requests, timeouts)
 * comes in the error shape too, as serve() does.
 */
export function createNodeListener(platform: Platform, options: NodeListenerOptions = {}) {
  const pipeline = createPipeline(platform, { ...options, docsAssets: options.docsAssets ?? swaggerUiAssets(), compress: options.compress ?? zlibCompress });
  const metrics = options.serveMetrics;
  const sendAtTurnEnd = createTurnSender();
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Chosen before the body is read, so that a 413 for a body too large carries it too.
    const requestId = requestIdOf(req.headers);
    const failed = (error: unknown) => options.logger?.failure(requestId, req.method ?? 'GET', null, error);
    let response: PlainResponse;
    try {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const path = q === -1 ? url : url.slice(0, q);
      if (metrics && path === METRICS_PATH) return void write(res, await metricsResponse(metrics, req.method, requestId));
      const body = bodyless(req) ? '' : await readBody(req, res, requestId);
      if (body === null) return;
      response = await pipeline({
        method: req.method ?? 'GET',
        path,
        query: q === -1 ? '' : url.slice(q + 1),
        headers: req.headers as Record<string, string | undefined>,
        body,
        origin: `http://${req.headers.host ?? 'localhost'}`,
        clientAddress: req.socket.remoteAddress,
        requestId,
      });
    } catch (error) {
      // The connection closed under a request still arriving: the client went away, or its 408 was answered.
      if ((error as NodeJS.ErrnoException).code === 'ECONNRESET' && req.destroyed) return;
      failed(error);
      response = errorResponse(500, 'Internal server error', { 'x-request-id': requestId });
    }
    sendAtTurnEnd(() => {
      try {
        write(res, response, failed);
      } catch (error) {
        // An answer node refuses to write (a header it finds invalid) is a failure of ours: a 500 instead.
        failed(error);
        if (!res.headersSent) write(res, errorResponse(500, 'Internal server error', { 'x-request-id': requestId }));
        else res.destroy();
      }
    });
  };
}

/** Answers a scrape of `/metrics`: GET only, no token (it is served only where the operator turned it on). */
export async function metricsResponse(metrics: Metrics, method: string | undefined, requestId: string): Promise<PlainResponse> {
  if (method !== 'GET' && method !== 'HEAD') return errorResponse(405, `${method} is not allowed on ${METRICS_PATH}; use GET`, { allow: 'GET, HEAD', 'x-request-id': requestId });
  const { type, body } = await metrics.scrape();
  return { status: 200, headers: { 'content-type': type, 'cache-control': 'no-store', 'x-request-id': requestId }, body };
}

/** Options of serve(). */
export interface ServeOptions extends NodeListenerOptions {
  platform: Platform;
  /** The port; 0 picks a free one. Default 8080. */
  port?: number;
  /** The interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** How long a client may take to send the request line and headers before a 408, in ms. Default 60 s (node's). */
  headersTimeoutMs?: number;
  /** How long a client may take to send the whole request before a 408, in ms; at least headersTimeoutMs. Default 300 s (node's). */
  requestTimeoutMs?: number;
}

/** A running server. */
export interface RunningServer {
  readonly server: Server;
  /** The base URL it answers on, e.g. http://127.0.0.1:8080. */
  readonly url: string;
  /**
   * Stops accepting connections, ends keep-alive connections once their request is answered, and
   * resolves when every in-flight request has finished.
   */
  close(): Promise<void>;
}

/** Starts a node:http server for the platform; resolves once it accepts connections. */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  // node's defaults; 0 turns a timeout off.
  const requestTimeout = options.requestTimeoutMs ?? 300_000;
  const headersTimeout = options.headersTimeoutMs ?? Math.min(60_000, requestTimeout || 60_000);
  // node looks for expired requests every connectionsCheckingInterval, 30 s by default, so a 408 could come
  // that much late; a tenth of the shorter timeout keeps it near its time.
  const shortest = Math.min(...[headersTimeout, requestTimeout].filter((ms) => ms > 0), 300_000);
  const connectionsCheckingInterval = Math.min(30_000, Math.max(100, shortest / 10));
  // /healthz and /readyz are served unless turned off; a graceful stop (close()) makes /readyz answer 503.
  const health: Health | undefined = options.health === false ? undefined : typeof options.health === 'object' ? options.health : createHealth(options.platform);
  const server = createServer({ headersTimeout, requestTimeout, connectionsCheckingInterval }, createNodeListener(options.platform, { ...options, health }));
  answerClientErrors(server, options.logger);
  server.keepAliveTimeout = 5_000;
  const drain = drainOnClose(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8080, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    server,
    url: `http://${shownHost}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        health?.stop();
        drain();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
