import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ApiError } from '../../core/errors.js';
import type { Platform, Trace } from '../../core/platform.js';
import { BEARER_CHALLENGE as CHALLENGE, bearerToken } from '../bearer.js';
import { errorResponse, jsonHeaders, type PlainRequest, type PlainResponse } from '../plain.js';
import type { RequestLogger } from '../request-log.js';
import { createAuthorServer, type AuthorMcpServer } from './author-server.js';
import { authorTools } from './author-tools.js';
import { MCP_PATH, type McpExchange } from './mcp-exchange.js';
import { runAsTokenHolder } from './token-runner.js';

/** The request headers the MCP transport reads; nothing else of the request reaches it. */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'mcp-protocol-version'];

/**
 * Answers one HTTP request to the author server: authenticates its bearer token, then hands its JSON-RPC
 * message to a new MCP server and a stateless transport (no session: any process on the store can answer
 * any request) that answers JSON. Tools run as the token's holder, through the platform, with the
 * request's origin for the URLs they answer.
 */
export async function answerMcpHttp(platform: Platform, request: PlainRequest, exchange: McpExchange, trace: Trace, requestId: string, logger?: RequestLogger): Promise<PlainResponse> {
  // Without sessions there is no stream to open (GET) or end (DELETE): every answer comes back to its POST.
  if (request.method !== 'POST') return errorResponse(405, `${request.method} is not allowed on ${MCP_PATH}; use POST (the server is stateless and answers JSON)`, { allow: 'POST' });
  let token: string;
  try {
    token = bearerToken(request);
  } catch (error) {
    return errorResponse((error as ApiError).status, (error as ApiError).message, CHALLENGE);
  }
  const actor = await platform.authenticate(token);
  if (!actor) return errorResponse(401, 'The token is not valid', CHALLENGE);
  trace.userId = actor.user.id;
  if (exchange.message === undefined) return errorResponse(400, 'The request body must be a JSON-RPC message (JSON), sent with Content-Type: application/json');

  const server = createAuthorServer(authorTools(platform.operations), {
    run: runAsTokenHolder(platform, token, request.origin),
    called: ({ status }) => {
      if (status !== 200) exchange.status = status;
    },
    failed: (tool, error) => logger?.failure(requestId, request.method, `mcp:${tool}`, error),
  });
  return exchangeMessage(server, request, exchange.message);
}

/**
 * Hands one JSON-RPC message (or batch) of a request to a server over a new stateless transport that
 * answers JSON (no session: any process on the store can answer any request), and closes the server once
 * answered. Only the headers the transport reads reach it.
 */
export async function exchangeMessage(server: AuthorMcpServer, request: PlainRequest, message: unknown): Promise<PlainResponse> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const headers = new Headers();
    for (const name of TRANSPORT_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers.set(name, value);
    }
    const answered = await transport.handleRequest(new Request(`${request.origin ?? 'http://localhost'}${request.path}`, { method: 'POST', headers }), { parsedBody: message });
    return await toPlainResponse(answered);
  } finally {
    await server.close();
  }
}

/**
 * The transport's answer as the pipeline sends it: a JSON-RPC answer as it is (202 without a body for a
 * notification), a refusal of the transport's (406, 415, 400) in the API's error shape with its message.
 */
async function toPlainResponse(response: Response): Promise<PlainResponse> {
  const text = await response.text();
  if (response.status >= 400) return errorResponse(response.status, transportMessage(text), response.status === 405 ? { allow: 'POST' } : {});
  if (text === '') return { status: response.status, headers: {} };
  return { status: response.status, headers: jsonHeaders(), body: text };
}

/** The message of a JSON-RPC error body, or its text. */
function transportMessage(text: string): string {
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string') return message;
  } catch {
    // Not JSON: the text is the message.
  }
  return text || 'The MCP request was refused';
}
