import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { errorResponse } from '../plain.js';
import { requestIdOf } from '../request-id.js';
import type { RunningServer } from './index.js';
import { METRICS_PATH, type Metrics } from './metrics.js';
import { metricsResponse } from './index.js';

/**
 * Serves `GET /metrics` alone on a port of its own (DOCS_PLATFORM_METRICS_PORT), so that it can stay
 * inside a private network while the API is public. Every other path is a 404.
 */
export async function serveMetrics(metrics: Metrics, options: { port: number; host?: string }): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const requestId = requestIdOf(req.headers);
    const path = (req.url ?? '/').split('?')[0];
    const response = path === METRICS_PATH ? await metricsResponse(metrics, req.method, requestId) : errorResponse(404, `No endpoint ${req.method} ${path}: this port serves ${METRICS_PATH}`, { 'x-request-id': requestId });
    res.writeHead(response.status, response.headers).end(response.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
