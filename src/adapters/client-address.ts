import { inRange, parseIp, parseRange, unmapped, type IpRange } from '../outbound/addresses.js';

/**
 * The client address of a request (whose budget a request without a valid token spends): the connection's
 * peer, or behind proxies the operator names (`DOCS_PLATFORM_TRUST_PROXY`, the adapters' `trustProxy`) the
 * address they say in X-Forwarded-For. Runtime-free: both adapters use it.
 */

/** What an address (the peer, or an entry of X-Forwarded-For) is: a trusted proxy, another address, or no IP address. */
export type Hop = 'proxy' | 'client' | 'invalid';

/** Tells the proxies whose X-Forwarded-For is believed from other addresses. */
export type TrustedProxies = (address: string) => Hop;

/**
 * How many addresses a TrustedProxies remembers what it found them to be: parsing one costs microseconds (the
 * numbers are BigInts), and every request without a valid token behind a proxy asks about two.
 */
const MAX_REMEMBERED = 10_000;

/** The loopback ranges, which the entry `loopback` names. */
const LOOPBACK = ['127.0.0.0/8', '::1/128'].map((range) => parseRange(range)!);

/**
 * Reads which proxies are believed: comma-separated IP addresses, CIDR ranges (`10.0.0.0/8`, `fd00::/8`) and
 * `loopback` (127.0.0.0/8 and ::1). Throws an Error naming an entry it cannot read, or for a list of none.
 */
export function parseTrustedProxies(input: string): TrustedProxies {
  const ranges: IpRange[] = [];
  for (const item of input.split(',')) {
    const entry = item.trim();
    if (entry === '') continue;
    if (entry.toLowerCase() === 'loopback') {
      ranges.push(...LOOPBACK);
      continue;
    }
    const range = parseRange(entry.replace(/^\[([^\]]*)\]/, '$1'));
    if (!range) throw new Error(`${JSON.stringify(entry)} is not an IP address, a CIDR range (10.0.0.0/8, fd00::/8) or loopback`);
    ranges.push(range);
  }
  if (ranges.length === 0) throw new Error(`${JSON.stringify(input)} names no proxy: give IP addresses, CIDR ranges or loopback`);
  const remembered = new Map<string, Hop>();
  return (address) => {
    let hop = remembered.get(address);
    if (hop === undefined) {
      const parsed = parseIp(address);
      // An IPv4 peer of a dual-stack socket comes as ::ffff:a.b.c.d.
      hop = parsed === undefined ? 'invalid' : ranges.some((range) => inRange(unmapped(parsed), range) || inRange(parsed, range)) ? 'proxy' : 'client';
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      remembered.set(address, hop);
    }
    return hop;
  };
}

/**
 * The client's address: the peer, unless the peer is a trusted proxy; then, walking X-Forwarded-For from
 * its right (each proxy appends the address it saw), the first address that is not a trusted proxy, or the
 * left-most when all are. An entry that is not an IP address is not believed: the client is then the last
 * trusted proxy, so that no client picks an address of its choosing.
 */
export function clientAddressOf(peer: string | undefined, forwardedFor: string | undefined, trusted: TrustedProxies | undefined): string | undefined {
  if (!trusted || peer === undefined || forwardedFor === undefined || trusted(peer) !== 'proxy') return peer;
  const hops = forwardedFor.split(',');
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const address = hops[i].trim();
    const hop = trusted(address);
    if (hop === 'invalid') return client;
    client = address;
    if (hop === 'client') return address;
  }
  return client;
}
