import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server of import sources on 127.0.0.1 and port 0: each path answers what the test put there
 * (status, media type, bytes), `/slow` never answers, and every request is counted, so a test can show
 * that a refused import fetched nothing.
 */

/** What one path answers. */
export interface Served {
  readonly body: string | Uint8Array;
  /** The Content-Type header; absent: none is sent. */
  readonly type?: string;
  readonly status?: number;
  /** Sends Content-Length (the body is otherwise chunked, its size unknown until it ends). */
  readonly declared?: boolean;
}

/** The running server. */
export interface ImportSourceServer {
  /** `http://127.0.0.1:<port>`. */
  readonly base: string;
  /** The URL of a path on the server. */
  url(path: string): string;
  /** Makes a path answer something. */
  serve(path: string, served: Served): string;
  /** How many requests reached the server, all paths together. */
  hits(): number;
  close(): Promise<void>;
}

/** Starts the server. */
export async function startImportSources(): Promise<ImportSourceServer> {
  const answers = new Map<string, Served>();
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits++;
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    // Headers never come: the import's time limit must end the wait.
    if (path === '/slow') return;
    const served = answers.get(path);
    if (!served) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return res.end('not found');
    }
    res.writeHead(served.status ?? 200, {
      ...(served.type !== undefined && { 'content-type': served.type }),
      ...(served.declared && { 'content-length': Buffer.byteLength(served.body) }),
    });
    res.end(served.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    url: (path) => `${base}${path}`,
    serve(path, served) {
      answers.set(path, served);
      return `${base}${path}`;
    },
    hits: () => hits,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
