import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { ApiError, errorBody } from '../../core/errors.js';
import type { Operation } from '../../core/operation.js';
import type { Trace } from '../../core/platform.js';
import { parseOrThrow } from '../../core/validate.js';
import { byteLength } from '../request-log.js';
import { convert } from '../openapi/convert.js';
import type { AuthorTool, Runner } from './author-tool.js';
import type { AuthorTools } from './author-tools.js';

/**
 * An MCP server of tools over the platform's operations: the author server (author-server.ts) and the
 * read-only server of each published site (site-server.ts). Each tool validates its arguments with its
 * valibot schema, runs its operations through the session, and answers JSON, or a tool error in the API's
 * error shape with its status and message.
 */

/** What a tool call did, once answered: for request logs. */
export interface ToolCallEntry {
  readonly tool: string;
  /** 200, or the status of the API error the tool answered (500 for a failure of ours). */
  readonly status: number;
  /** From the call's arrival to its answer, in milliseconds. */
  readonly durationMs: number;
  /** The bytes of the result's text. */
  readonly bytes: number;
  /** The user the call acted for, once its token was resolved. */
  readonly userId?: string;
}

/** Who runs the tools of one server, and who hears about their calls. */
export interface AuthorSession {
  /** Runs an operation as the caller (the token's holder), after checking `input` with its schema; sets `trace.userId`. */
  run<O>(operation: Operation<any, O, any>, input: Record<string, unknown>, trace: Trace): Promise<O>;
  /** Told of each tool call once answered. */
  readonly called?: (entry: ToolCallEntry) => void;
  /** Told of a failure that is not an API error (a bug), with its stack; the caller gets only "Internal server error". */
  readonly failed?: (tool: string, error: unknown) => void;
}

/**
 * The author server, to connect to a transport of the MCP SDK (StdioServerTransport, a Streamable HTTP one).
 * Our own shape rather than the SDK's Server, so that the package's declarations hold no SDK type (some of
 * them need the DOM's, which a Node app's TypeScript does not have).
 */
export interface AuthorMcpServer {
  /** Starts serving the transport's messages. */
  connect(transport: { start(): Promise<void>; send(message: never): Promise<void>; close(): Promise<void> }): Promise<void>;
  /** Closes the transport. */
  close(): Promise<void>;
}

/** The tools as tools/list answers them, made once per tool set: their JSON Schemas come from valibot's. */
const listings = new WeakMap<AuthorTools, Tool[]>();

function listing(tools: AuthorTools): Tool[] {
  let listed = listings.get(tools);
  if (!listed) {
    listed = [...tools.values()].map(describeTool);
    listings.set(tools, listed);
  }
  return listed;
}

function describeTool(tool: AuthorTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: convert(tool.input, 'body') as Tool['inputSchema'],
    annotations: { title: tool.title, readOnlyHint: tool.access === 'read', openWorldHint: false },
  };
}

/** What makes a tool server: its name, what it tells the agent, its tools, and more handlers of its own (resources). */
export interface ToolServerOptions {
  readonly info: { readonly name: string; readonly version: string };
  readonly instructions: string;
  readonly tools: AuthorTools;
  /** Capabilities besides tools, with their handlers set by `extend`. */
  readonly capabilities?: Record<string, object>;
  // The SDK's Server, typed `unknown` here: the package's declarations reach this module, and must hold no
  // SDK type (some of them need the DOM's, which an app on Node has not).
  readonly extend?: (server: unknown) => void;
}

/**
 * A tool server for one caller: a server per HTTP request (the transport is stateless) or per stdio session.
 * Each tool validates its arguments with its schema, then runs its operations through `session.run`; an
 * API error comes back as a tool error with its status and message.
 */
export function createToolServer(options: ToolServerOptions, session: AuthorSession): AuthorMcpServer {
  const { tools } = options;
  const server = new Server(options.info, { capabilities: { tools: {}, ...options.capabilities }, instructions: options.instructions });
  options.extend?.(server);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing(tools) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `No tool ${request.params.name}; tools/list names them`);
    const started = performance.now();
    const trace: Trace = {};
    const call: Runner = (operation, input) => session.run(operation, input, trace);
    const { result, status } = await runTool(tool, request.params.arguments ?? {}, call, session);
    const text = (result.content[0] as { text: string }).text;
    const durationMs = Math.round((performance.now() - started) * 100) / 100;
    session.called?.({ tool: tool.name, status, durationMs, bytes: byteLength(text), ...(trace.userId !== undefined && { userId: trace.userId }) });
    return result;
  });
  return { connect: (transport) => server.connect(transport as Transport), close: () => server.close() };
}

/** Runs a tool: its result as JSON (text and structured), or a tool error in the API's error shape, with the status. */
async function runTool(tool: AuthorTool, args: unknown, call: Runner, session: AuthorSession): Promise<{ result: CallToolResult; status: number }> {
  try {
    const value = await tool.run(call, parseOrThrow(tool.input, args));
    return { result: { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value }, status: 200 };
  } catch (error) {
    if (!(error instanceof ApiError)) session.failed?.(tool.name, error);
    const status = error instanceof ApiError ? error.status : 500;
    const body = { ...errorBody(status, error instanceof ApiError ? error.message : 'Internal server error') };
    return { result: { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body }, status };
  }
}
