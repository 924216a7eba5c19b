/** docs-platform/fetch: the Fetch API adapter. */
import type { Platform } from './core/platform.js';
import { createFetchHandler as createPortableFetchHandler, type FetchHandlerOptions } from './adapters/fetch/index.js';
import { zlibCompress } from './zlib-compress.js';

export type { FetchHandlerOptions } from './adapters/fetch/index.js';
export type { PipelineOptions } from './adapters/pipeline.js';
export type { Compress, ContentCoding } from './adapters/compression.js';
export { zlibCompress } from './zlib-compress.js';
export { createHealth, type Health } from './adapters/health.js';
export type { RateLimitOptions } from './adapters/rate-limit.js';
export type { RequestLogEntry, RequestLogger, RequestMetrics } from './adapters/request-log.js';
export { RATE_COSTS, createMemoryRateLimiter, type RateLimiter } from './core/rate-limit.js';
export type { DocsAssets } from './adapters/openapi/docs-page.js';

/**
 * A Fetch API handler serving the platform's API (adapters/fetch/index.ts), compressing as the node:http
 * adapter does (node:zlib, which Node, Bun, Deno and Workers' nodejs_compat all have) unless `compress` says
 * otherwise: both send the same answer to the same request.
 */
export function createFetchHandler(platform: Platform, options: FetchHandlerOptions = {}): (request: Request) => Promise<Response> {
  return createPortableFetchHandler(platform, { ...options, compress: options.compress ?? zlibCompress });
}
