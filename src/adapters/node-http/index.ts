import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Platform } from '../../core/platform.js';
import { drainOnClose } from './drain.js';
import { swaggerUiAssets } from './docs-assets.js';
import { MAX_BODY_BYTES, createPipeline, errorResponse, type PipelineOptions, type PlainResponse } from '../pipeline.js';

/** Reads a request body up to MAX_BODY_BYTES; resolves to null when it is larger. */
function readBody(request: IncomingMessage): Promise<string | null> {
  // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112 6.3): answer at once rather
  // than wait a turn of the event loop for the stream's 'end' (most requests are such GETs). node:http
  // discards an unread request stream itself, so the connection stays usable.
  if (request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined) return Promise.resolve('');
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        request.removeAllListeners('data');
        request.resume();
        resolve(null);
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function write(res: ServerResponse, response: PlainResponse): void {
  res.writeHead(response.status, response.headers);
  res.end(response.body);
}

/**
 * A node:http request listener serving the platform's API: `http.createServer(createNodeListener(platform))`.
 * It also serves the API reference page at `/docs`, from the installed swagger-ui-dist unless `docsAssets` is given.
 */
export function createNodeListener(platform: Platform, options: PipelineOptions = {}) {
  const pipeline = createPipeline(platform, { ...options, docsAssets: options.docsAssets ?? swaggerUiAssets() });
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const body = await readBody(req);
      if (body === null) {
        write(res, errorResponse(413, `The request body is larger than ${MAX_BODY_BYTES} bytes`, { connection: 'close' }));
        return;
      }
      const response = await pipeline({
        method: req.method ?? 'GET',
        path: q === -1 ? url : url.slice(0, q),
        query: q === -1 ? '' : url.slice(q + 1),
        headers: req.headers as Record<string, string | undefined>,
        body,
        origin: `http://${req.headers.host ?? 'localhost'}`,
      });
      write(res, response);
    } catch (error) {
      options.log?.(`error: ${(error as Error)?.stack ?? String(error)}`);
      if (!res.headersSent) write(res, errorResponse(500, 'Internal server error'));
      else res.destroy();
    }
  };
}

/** Options of serve(). */
export interface ServeOptions extends PipelineOptions {
  platform: Platform;
  /** The port; 0 picks a free one. Default 8080. */
  port?: number;
  /** The interface to listen on. Default 127.0.0.1. */
  host?: string;
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
  const server = createServer(createNodeListener(options.platform, options));
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
        drain();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
