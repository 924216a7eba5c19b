import { inRange, parseRange, refusedRange, unmapped, type IpAddress, type IpRange } from './addresses.js';

/**
 * What an operator allows an outbound fetch to reach besides the public internet (`DOCS_PLATFORM_FETCH_ALLOW`,
 * the library's `fetchAllow`): IP addresses, CIDR ranges and host names. Runtime-free, like addresses.ts.
 */
export interface AllowList {
  /** The entries as given, normalized (for messages). */
  readonly entries: readonly string[];
  /** Whether a URL's host name is allowed whatever it resolves to. */
  allowsHost(hostname: string): boolean;
  /** Whether the fetch may connect to an address: allowed by an entry, or in no refused range. */
  allowsAddress(address: IpAddress): boolean;
}

/** Thrown for an entry that is neither an IP address, a CIDR range nor a host name. */
export class AllowListError extends Error {
  constructor(entry: string) {
    super(`${JSON.stringify(entry)} is not an IP address, a CIDR range (10.0.0.0/8, fd00::/8) or a host name`);
    this.name = 'AllowListError';
  }
}

/** A host name as a URL's `hostname` gives it: lower case, without a final dot. */
const normalHost = (hostname: string) => hostname.toLowerCase().replace(/\.$/, '');

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/**
 * Whether a lower-case name is a host name: labels of letters, digits, `-` and `_`, whose last is not a number
 * (all digits, or 0x and hex digits: URL parsing reads that as an IPv4 address in some other form, and
 * rewrites it or fails; write an address as a.b.c.d).
 */
export const isHostName = (host: string): boolean => HOST_NAME.test(host) && !/(^|\.)(\d+|0x[0-9a-f]*)$/.test(host);

/**
 * Reads an allow list: a comma-separated string (spaces around entries and empty entries ignored) or a
 * list of entries. An IPv6 address may be written in brackets. Throws AllowListError naming a bad entry.
 */
export function parseAllowList(input: string | readonly string[] = []): AllowList {
  const raw = typeof input === 'string' ? input.split(',') : input;
  const ranges: IpRange[] = [];
  const hosts = new Set<string>();
  const entries: string[] = [];
  for (const item of raw) {
    const entry = item.trim();
    if (entry === '') continue;
    const range = parseRange(entry.replace(/^\[([^\]]*)\]/, '$1'));
    if (range) {
      ranges.push(range.base.family === 6 && range.prefix >= 96 ? unmappedRange(range) : range);
    } else {
      const host = normalHost(entry);
      if (!isHostName(host)) throw new AllowListError(entry);
      hosts.add(host);
    }
    entries.push(entry);
  }
  return {
    entries,
    allowsHost: (hostname) => hosts.has(normalHost(hostname)),
    allowsAddress(address) {
      const plain = unmapped(address);
      return ranges.some((range) => inRange(plain, range)) || refusedRange(plain) === undefined;
    },
  };
}

/** A range within ::ffff:0:0/96 as the IPv4 range it maps, so that it matches the addresses as they are judged. */
function unmappedRange(range: IpRange): IpRange {
  const base = unmapped(range.base);
  return base.family === 4 ? { base, prefix: range.prefix - 96 } : range;
}

