import type { Platform, Trace } from '../../core/platform.js';
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
