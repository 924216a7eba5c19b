import type { Platform, Trace } from '../../core/platform.js';
import { MCP_SEGMENT } from '../../core/reader.js';
import { parseRequest, placeOfHost, placeOfPath, PUBLISHED_PREFIX } from '../../reader/request.js';
import type { PlainRequest, PlainResponse } from '../plain.js';
import type { RequestLogger } from '../request-log.js';
import type { McpExchange } from './mcp-exchange.js';

/**
 * Answers a request to the author server over HTTP (mcp-http.ts). The MCP SDK it uses takes some hundred
 * milliseconds to load: it is imported at the first request to /mcp, not when the server starts.
 */
export async function answerMcp(platform: Platform, request: PlainRequest, exchange: McpExchange, trace: Trace, requestId: string, logger?: RequestLogger): Promise<PlainResponse> {
  const { answerMcpHttp } = await import('./mcp-http.js');
  return answerMcpHttp(platform, request, exchange, trace, requestId, logger);
}

/** Whether a path ends with a site's MCP segment: `…/~mcp`. */
const SITE_MCP_PATH = new RegExp(`/${MCP_SEGMENT}/?$`);

/** Whether a request may be to a site's MCP server (no page takes `~mcp`): what it refuses is in the error shape, for MCP clients, not a page. */
export const isSiteMcpPath = (path: string): boolean => SITE_MCP_PATH.test(path);

/**
 * Answers a request to a published site's MCP server (`<site or section URL>/~mcp`, under /published/ or at
 * a site's hostname), loading the SDK at the first one; undefined when its path is no server's.
 */
export async function answerSiteMcp(platform: Platform, request: PlainRequest, requestId: string, logger?: RequestLogger): Promise<PlainResponse | undefined> {
  if (!isSiteMcpPath(request.path)) return undefined;
  const place = request.path.startsWith(PUBLISHED_PREFIX) ? placeOfPath(request.path) : placeOfHost(request.origin, request.path);
  if (!place || 'spaceId' in place.site) return undefined;
  const { answerSiteMcpHttp } = await import('./site-mcp-http.js');
  return answerSiteMcpHttp(platform, request, parseRequest(place, request.query, request.headers.cookie).reader, requestId, logger);
}
