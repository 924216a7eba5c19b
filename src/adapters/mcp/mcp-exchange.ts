import type { Platform } from '../../core/platform.js';
import { RATE_COSTS } from '../../core/rate-limit.js';
import type { PlainRequest } from '../plain.js';
import { authorTools, toolCost } from './author-tools.js';

// What the pipeline learns of a request to the author server before the MCP SDK is loaded: its JSON-RPC
// message, what it costs, and the route it is logged under. The SDK itself is loaded at the first request
// to /mcp (answer-mcp.ts).

/** The path of the author server on the API. */
export const MCP_PATH = '/mcp';

/** A request to the author server, as the pipeline tracks it. */
export interface McpExchange {
  /** The JSON-RPC message (or batch) of the body; undefined when the body is not JSON. */
  readonly message: unknown;
  /** Its rate-limit cost: each tool call as its operations cost, anything else a read. */
  readonly cost: number;
  /** The route of its log entry: `mcp:<tool>` for a tool call, else `/mcp`. */
  readonly route: string;
  /** The status its log entry shows: the API error's status of a tool call that failed; else the HTTP status. */
  status?: number;
}

interface JsonRpcMessage {
  method?: unknown;
  params?: { name?: unknown };
}

/** Reads a request to /mcp: its message, cost and route. */
export function readMcpExchange(platform: Platform, request: PlainRequest): McpExchange {
  let message: unknown;
  try {
    message = request.body ? JSON.parse(request.body) : undefined;
  } catch {
    message = undefined;
  }
  const tools = authorTools(platform.operations);
  const messages = (Array.isArray(message) ? message : [message]) as (JsonRpcMessage | null | undefined)[];
  const costOf = (one: JsonRpcMessage | null | undefined) => (one?.method === 'tools/call' ? toolCost(tools, one.params?.name) : RATE_COSTS.read);
  const cost = messages.reduce((total, one) => total + costOf(one), 0);
  const single = messages.length === 1 ? messages[0] : undefined;
  const tool = single?.method === 'tools/call' && typeof single.params?.name === 'string' && tools.has(single.params.name) ? single.params.name : undefined;
  return { message, cost: Math.max(cost, RATE_COSTS.read), route: tool === undefined ? MCP_PATH : `mcp:${tool}` };
}
