import type { Platform } from '../../core/platform.js';
import { fetchHandlerOver, type FetchHandlerOptions } from '../fetch/index.js';
import { createPipeline } from '../pipeline.js';
import { MCP_PATH } from './mcp-exchange.js';

/** Options of the author server's Fetch handler: the pipeline's logger, metrics and rate limits, and the client's address. */
export type McpHandlerOptions = Omit<FetchHandlerOptions, 'health' | 'docsAssets'>;

/**
 * The author server (MCP, Streamable HTTP, stateless, JSON answers) as a Fetch handler, for an app to mount
 * at a path of its choosing: `(request) => Promise<Response>`. It answers every request as `/mcp` of the API
 * does (createFetchHandler serves it there too): a bearer token, the same request ids, logs and rate limits.
 */
export function createMcpHandler(platform: Platform, options: McpHandlerOptions = {}): (request: Request) => Promise<Response> {
  return fetchHandlerOver(createPipeline(platform, { ...options, health: false }), options, MCP_PATH);
}
