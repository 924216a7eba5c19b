import type { ReaderRequest } from '../core/reader.js';
import { readCookies, SHARE_COOKIE, VISITOR_COOKIE } from './cookies.js';

/** A reader's request, read from its path, query and cookies. */

/** The prefix of every published URL (core/context.ts `urls.published`). */
export const PUBLISHED_PREFIX = '/published/';

/** What a request to a published URL asks for. */
export interface ParsedRequest {
  readonly reader: ReaderRequest & { readonly query?: string };
  /** Which credentials came in the query, to be kept in cookies once accepted. */
  readonly fromQuery: { readonly share: boolean; readonly visitorToken: boolean };
  /** The instant search's fragment, not a whole page. */
  readonly fragment: boolean;
}

/** The decoded segments of a path (without its leading `/`), or undefined when one does not decode or is empty. */
function segmentsOf(path: string): string[] | undefined {
  const parts = path.split('/');
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  try {
    const segments = parts.map((part) => decodeURIComponent(part));
    return segments.some((segment) => segment === '') ? undefined : segments;
  } catch {
    return undefined;
  }
}

/** The site (or space) a path under PUBLISHED_PREFIX names, and the rest of it: `o/<organization>/<site>/...` or `s/<space>/...`. */
export function placeOfPath(path: string): { site: ReaderRequest['site']; rest: string[] } | undefined {
  const segments = segmentsOf(path.slice(PUBLISHED_PREFIX.length));
  if (!segments) return undefined;
  if (segments[0] === 'o' && segments.length >= 3) return { site: { organizationId: segments[1], name: segments[2] }, rest: segments.slice(3) };
  if (segments[0] === 's' && segments.length >= 2) return { site: { spaceId: segments[1] }, rest: segments.slice(2) };
  return undefined;
}

/** The site a request to a custom hostname names, with its whole path; undefined when the host is not a hostname a site could have. */
export function placeOfHost(origin: string | undefined, path: string): { site: ReaderRequest['site']; rest: string[] } | undefined {
  // The API's own paths stay the API's, whatever host they came to.
  if (origin === undefined || path === '/v1' || path.startsWith('/v1/')) return undefined;
  let hostname: string;
  try {
    hostname = new URL(origin).hostname;
  } catch {
    return undefined;
  }
  // Sites' hostnames have at least three labels (core/sites/schemas.ts); an address or `localhost` is never one.
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+){2,}$/.test(hostname) || /^[\d.]+$/.test(hostname)) return undefined;
  const rest = segmentsOf(path.slice(1));
  return rest && { site: { hostname }, rest };
}

/** Reads a request to a site or space: its credentials from the query or the cookies, its unsigned claims, its search. */
export function parseRequest(place: { site: ReaderRequest['site']; rest: string[] }, query: string, cookieHeader: string | undefined): ParsedRequest {
  const params = new URLSearchParams(query);
  const cookies = readCookies(cookieHeader);
  const share = params.get('share') ?? undefined;
  const visitorToken = params.get('jwt_token') ?? undefined;
  const unsigned: Record<string, boolean> = {};
  for (const [name, value] of params) {
    if (!name.startsWith('visitor.') || (value !== 'true' && value !== 'false')) continue;
    unsigned[name.slice('visitor.'.length)] = value === 'true';
  }
  const q = params.get('q');
  const keptShare = share ?? cookies.get(SHARE_COOKIE);
  const keptToken = visitorToken ?? cookies.get(VISITOR_COOKIE);
  return {
    reader: {
      site: place.site,
      segments: place.rest,
      ...(keptShare !== undefined && { share: keptShare }),
      ...(keptToken !== undefined && { visitorToken: keptToken }),
      ...(visitorToken !== undefined && { visitorTokenInQuery: true }),
      unsigned,
      ...(q !== null && { query: q }),
    },
    fromQuery: { share: share !== undefined, visitorToken: visitorToken !== undefined },
    fragment: params.get('fragment') === '1',
  };
}
