/** docs-platform/fetch: the Fetch API adapter. */
export { createFetchHandler, type FetchHandlerOptions } from './adapters/fetch/index.js';
export type { PipelineOptions } from './adapters/pipeline.js';
export { createHealth, type Health } from './adapters/health.js';
export type { RateLimitOptions } from './adapters/rate-limit.js';
export type { RequestLogEntry, RequestLogger, RequestMetrics } from './adapters/request-log.js';
export { RATE_COSTS, createMemoryRateLimiter, type RateLimiter } from './core/rate-limit.js';
export type { DocsAssets } from './adapters/openapi/docs-page.js';
