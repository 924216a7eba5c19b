import { parseIp } from '../outbound/addresses.js';
import { isHostName } from '../outbound/allow-list.js';

/**
 * The check of the host a request came to (its Host header, or the Fetch request's URL), before any URL, link or
 * Content-Security-Policy is built of it. Runtime-free: the pipeline runs it for both adapters.
 */

/** What a request whose host fails the check is told. */
export const BAD_HOST_MESSAGE = 'The Host header must be a host name, an IPv4 address or an IPv6 address in brackets, with an optional port from 1 to 65535';

/** A host and an optional port, as RFC 3986's authority writes them without user information. */
const HOST_AND_PORT = /^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::(\d{1,5}))?$/;

/** The origins found valid, so that a server reached under a few names checks each once; bounded, as a client picks them. */
const valid = new Set<string>();
const MAX_VALID = 64;

/**
 * Whether a host (`docs.example.com`, `127.0.0.1:8080`, `[::1]:8080`) is one URLs can be built from: a host
 * name (RFC 3986's reg-name narrowed to letters, digits, `-`, `_` and `.`, with an optional final dot: no
 * percent-escapes, and none of the sub-delimiters `;`, `'`, `,`, ... that a Content-Security-Policy or a
 * URL would read as its own syntax), a dotted IPv4 address, or an IPv6 address in brackets (no zone); and
 * a port from 1 to 65535. Every host it accepts parses as a URL's host.
 */
export function isValidHost(host: string): boolean {
  const match = HOST_AND_PORT.exec(host.toLowerCase());
  if (!match) return false;
  const [, name, port] = match;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return false;
  if (name.startsWith('[')) return parseIp(name.slice(1, -1))?.family === 6;
  return parseIp(name)?.family === 4 || isHostName(name.endsWith('.') ? name.slice(0, -1) : name);
}

/** Whether an origin an adapter made of a request (`http://<host>`) names a valid host (isValidHost). */
export function isValidOrigin(origin: string): boolean {
  if (valid.has(origin)) return true;
  const scheme = origin.startsWith('http://') ? 7 : origin.startsWith('https://') ? 8 : 0;
  if (scheme === 0 || !isValidHost(origin.slice(scheme))) return false;
  if (valid.size >= MAX_VALID) valid.clear();
  valid.add(origin);
  return true;
}
