import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createLogger, pinoRequestLogger, type LogLevel } from '../adapters/node-http/pino-log.js';
import { turnBatchedLines } from '../adapters/node-http/turn-batched-lines.js';
import { MCP_PATH } from '../adapters/mcp/mcp-exchange.js';
import { createTokenAuthorServer } from '../adapters/mcp/token-runner.js';
import { inlineWorkers } from '../core/inline-workers.js';
import { openServerPlatform } from './run-server.js';

/** What `docs-platform mcp` serves on stdio: the tools in this process over data, or a running server's /mcp. */
export type McpCommand =
  | { readonly data: string; readonly token: string; readonly baseUrl?: string; readonly fetchAllow?: string; readonly logLevel: LogLevel }
  | { readonly url: string; readonly token: string };

/** A refusal before anything is served (an unknown token): printed as one line, exit 2. */
export class McpCommandError extends Error {}

/**
 * Serves the author server on stdin/stdout until stdin ends. In this process, its tool calls are logged as
 * JSON lines on stderr (stdout is the protocol's); through `url`, every message goes to the server's /mcp
 * with the token, and the server logs them.
 */
export async function runMcpCommand(command: McpCommand): Promise<void> {
  const stdio = new StdioServerTransport();
  const ended = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  if ('url' in command) {
    await proxy(stdio, command.url, command.token);
    await ended;
    await stdio.close();
    return;
  }
  const platform = await openServerPlatform(command, inlineWorkers);
  try {
    if (!(await platform.authenticate(command.token))) throw new McpCommandError('mcp: the token is not valid (--token or DOCS_PLATFORM_TOKEN)');
    const logger = pinoRequestLogger(createLogger({ level: command.logLevel, destination: turnBatchedLines(2) }));
    const server = createTokenAuthorServer(platform, {
      token: command.token,
      // One line per tool call, as a request's: a request id of its own, the tool as the route.
      called: ({ tool, ...entry }) => logger.request({ requestId: crypto.randomUUID(), method: 'tools/call', route: `mcp:${tool}`, ...entry }),
      failed: (tool, error) => logger.failure(crypto.randomUUID(), 'tools/call', `mcp:${tool}`, error),
    });
    await server.connect(stdio);
    await ended;
    await server.close();
  } finally {
    await platform.close();
  }
}

/** The /mcp URL of a server given by its base URL (or by its /mcp URL). */
export function mcpUrl(base: string): URL {
  const url = new URL(base);
  if (!url.pathname.endsWith(MCP_PATH)) url.pathname = `${url.pathname.replace(/\/+$/, '')}${MCP_PATH}`;
  return url;
}

/**
 * Relays messages between stdio and a server's /mcp: each message from the client is POSTed with the token,
 * each answer written back. A request the server cannot be reached for (or refuses, 401) gets a JSON-RPC
 * error naming why, so that the client is not left waiting.
 */
async function proxy(stdio: StdioServerTransport, url: string, token: string): Promise<void> {
  const remote = new StreamableHTTPClientTransport(mcpUrl(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  remote.onmessage = (message) => void stdio.send(message);
  remote.onerror = (error) => process.stderr.write(`docs-platform mcp: ${error.message}\n`);
  stdio.onmessage = (message: JSONRPCMessage) => {
    remote.send(message).catch((error: Error) => {
      if (isJSONRPCRequest(message)) void stdio.send({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: `${mcpUrl(url)}: ${error.message}` } });
    });
  };
  await remote.start();
  await stdio.start();
}
