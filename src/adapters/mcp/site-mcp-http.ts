import { admitSiteMcp, type ReaderRequest, type SiteMcpAdmission } from '../../core/reader.js';
import type { Platform } from '../../core/platform.js';
import { bearerOf } from '../bearer.js';
import { errorResponse, type PlainRequest, type PlainResponse } from '../plain.js';
import type { RequestLogger } from '../request-log.js';
import { exchangeMessage } from './mcp-http.js';
import { createSiteServer, runAsVisitor } from './site-server.js';

/**
 * Answers one HTTP request to a published site's MCP server (`<site or section URL>/~mcp`): the core admits
 * the visitor as the site admits readers (a share key in `?share=` or the site's cookie, a visitor token as
 * the bearer token, claims in the query), then a new site server answers the request's JSON-RPC message
 * over a stateless transport. Undefined when no server is at that path (a page is, or nothing): the reader
 * answers it then.
 */
export async function answerSiteMcpHttp(platform: Platform, request: PlainRequest, reader: ReaderRequest, requestId: string, logger?: RequestLogger): Promise<PlainResponse | undefined> {
  const token = bearerOf(request.headers.authorization);
  const visitor: ReaderRequest = token === undefined ? reader : { ...reader, visitorToken: token };
  const admission = (await platform.run(admitSiteMcp, undefined as never, { request: visitor } as never, request.origin)) as SiteMcpAdmission;
  switch (admission.kind) {
    case 'not-here':
      return undefined;
    case 'missing':
      return errorResponse(404, 'There is no published site here');
    case 'unauthorized':
      // What MCP clients read to know they must send a token (RFC 6750), and which one.
      return errorResponse(401, 'This site needs a visitor token: send it as Authorization: Bearer <token>', { 'www-authenticate': `Bearer realm="${admission.realm.replace(/["\\]/g, '')}"` });
  }
  if (request.method !== 'POST') return errorResponse(405, `${request.method} is not allowed on a site's MCP server; use POST (the server is stateless and answers JSON)`, { allow: 'POST' });
  let message: unknown;
  try {
    message = request.body ? JSON.parse(request.body) : undefined;
  } catch {
    message = undefined;
  }
  if (message === undefined) return errorResponse(400, 'The request body must be a JSON-RPC message (JSON), sent with Content-Type: application/json');
  const server = createSiteServer({ run: runAsVisitor(platform, visitor, request.origin), failed: (tool, error) => logger?.failure(requestId, request.method, `mcp:${tool}`, error) });
  return exchangeMessage(server, request, message);
}
