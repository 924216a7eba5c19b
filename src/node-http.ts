/** docs-platform/node-http: the node:http adapter and server. */
export { createNodeListener, serve, type NodeListenerOptions, type RunningServer, type ServeOptions } from './adapters/node-http/index.js';
export { createMetrics, type Metrics } from './adapters/node-http/metrics.js';
export { createLogger, pinoRequestLogger, LOG_LEVELS, type LogLevel, type LoggerOptions } from './adapters/node-http/pino-log.js';
export { serveMetrics } from './adapters/node-http/metrics-server.js';
export { createHealth, type Health } from './adapters/health.js';
export type { RateLimitOptions } from './adapters/rate-limit.js';
export type { RequestLogEntry, RequestLogger, RequestMetrics } from './adapters/request-log.js';
export { answerClientErrors } from './adapters/node-http/client-errors.js';
export { swaggerUiAssets } from './adapters/node-http/docs-assets.js';
export type { DocsAssets } from './adapters/openapi/docs-page.js';
export type { PipelineOptions } from './adapters/pipeline.js';
export type { Compress, ContentCoding } from './adapters/compression.js';
export { zlibCompress } from './zlib-compress.js';
