import { ApiError } from '../core/errors.js';
import type { PlainRequest } from './plain.js';

/**
 * What every 401 of the API and of the author MCP server carries (RFC 9110 asks a 401 for a challenge): send a
 * bearer token (RFC 6750). Clients and MCP hosts read it to know which credentials to ask for.
 */
export const BEARER_CHALLENGE: Readonly<Record<string, string>> = { 'www-authenticate': 'Bearer realm="docs-platform"' };

/** The token of an `Authorization: Bearer <token>` header; undefined for a missing header or one of another form. */
export function bearerOf(header: string | undefined): string | undefined {
  return header === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
}

/** The bearer token of a request (`Authorization: Bearer <token>`); 401 when there is none. */
export function bearerToken(request: PlainRequest): string {
  const header = request.headers.authorization;
  if (!header) throw new ApiError(401, 'Authentication required: send the header Authorization: Bearer <token>');
  const bearer = bearerOf(header);
  if (bearer === undefined) throw new ApiError(401, 'The Authorization header must be of the form: Bearer <token>');
  return bearer;
}
