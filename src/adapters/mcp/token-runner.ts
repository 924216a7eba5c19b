import type { Platform } from '../../core/platform.js';
import { parseOrThrow } from '../../core/validate.js';
import { createAuthorServer, type AuthorMcpServer, type AuthorSession } from './author-server.js';
import { authorTools } from './author-tools.js';

/**
 * Runs operations for the holder of an API token, as the HTTP API runs them: the input checked with the
 * operation's own schema, the token looked up in the operation's transaction (a revoked token is refused at
 * once), URLs in answers made for `origin`.
 */
export function runAsTokenHolder(platform: Platform, token: string, origin?: string): AuthorSession['run'] {
  return (operation, input, trace) => platform.runWithToken(operation, token, parseOrThrow(operation.input, input), origin, trace);
}

/** Options of createTokenAuthorServer(). */
export interface TokenAuthorServerOptions {
  /** The API token whose holder the tools act for. */
  token: string;
  /** The origin of the URLs in answers; default the platform's base URL. */
  origin?: string;
  /** Told of each tool call once answered (the CLI logs it). */
  called?: AuthorSession['called'];
  /** Told of a failure that is not an API error, with its stack. */
  failed?: AuthorSession['failed'];
}

/**
 * The author server for one token's holder, to connect to a transport of the caller's choosing
 * (`docs-platform mcp` connects it to stdio): `await server.connect(new StdioServerTransport())`.
 */
export function createTokenAuthorServer(platform: Platform, options: TokenAuthorServerOptions): AuthorMcpServer {
  const { token, origin, called, failed } = options;
  return createAuthorServer(authorTools(platform.operations), { run: runAsTokenHolder(platform, token, origin), called, failed });
}
