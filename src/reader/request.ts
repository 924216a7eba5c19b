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

/** The decoded segments of a path, or undefined when one does not decode or is empty. */
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

/** Reads a request under PUBLISHED_PREFIX: a site (`o/<organization>/<site>/...`) or a space (`s/<space>/...`); undefined for any other path. */
export function parseRequest(path: string, query: string, cookieHeader: string | undefined): ParsedRequest | undefined {
  const segments = segmentsOf(path.slice(PUBLISHED_PREFIX.length));
  if (!segments) return undefined;
  let site: ReaderRequest['site'];
  let rest: string[];
  if (segments[0] === 'o' && segments.length >= 3) {
    site = { organizationId: segments[1], name: segments[2] };
    rest = segments.slice(3);
  } else if (segments[0] === 's' && segments.length >= 2) {
    site = { spaceId: segments[1] };
    rest = segments.slice(2);
  } else return undefined;
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
  return {
    reader: {
      site,
      segments: rest,
      ...((share ?? cookies.get(SHARE_COOKIE)) !== undefined && { share: share ?? cookies.get(SHARE_COOKIE) }),
      ...((visitorToken ?? cookies.get(VISITOR_COOKIE)) !== undefined && { visitorToken: visitorToken ?? cookies.get(VISITOR_COOKIE) }),
      unsigned,
      ...(q !== null && { query: q }),
    },
    fromQuery: { share: share !== undefined, visitorToken: visitorToken !== undefined },
    fragment: params.get('fragment') === '1',
  };
}
