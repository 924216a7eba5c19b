/**
 * IP addresses and the ranges an outbound fetch refuses: parsing, CIDR ranges, and the rule. Runtime-free
 * (no Node API), so the rules are tested on their own and could serve any runtime.
 */

/** An IP address as a number: 32 bits for IPv4, 128 for IPv6. */
export interface IpAddress {
  readonly family: 4 | 6;
  readonly value: bigint;
}

/** A CIDR range: an address and how many leading bits of it are fixed. */
export interface IpRange {
  readonly base: IpAddress;
  readonly prefix: number;
}

const BITS = { 4: 32, 6: 128 } as const;

/** A dotted-decimal IPv4 address (`192.0.2.1`, no leading zeros), or undefined. */
function parseIPv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

/** An IPv6 address (`::1`, `fe80::1%eth0`, `::ffff:192.0.2.1`), or undefined; a zone is dropped. */
function parseIPv6(text: string): bigint | undefined {
  const address = text.replace(/%[\w.~-]+$/, '');
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (half: string): number[] | undefined => {
    if (half === '') return [];
    const groups: number[] = [];
    const parts = half.split(':');
    for (const [index, part] of parts.entries()) {
      // The last 32 bits may be written as an IPv4 address.
      if (index === parts.length - 1 && part.includes('.')) {
        const v4 = parseIPv4(part);
        if (v4 === undefined) return undefined;
        groups.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else if (/^[0-9a-f]{1,4}$/i.test(part)) {
        groups.push(parseInt(part, 16));
      } else {
        return undefined;
      }
    }
    return groups;
  };
  const head = groupsOf(halves[0]);
  const tail = halves.length === 2 ? groupsOf(halves[1]) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

/** Parses an IP address written as dns.lookup and URL hosts write them (IPv6 without brackets); undefined if it is none. */
export function parseIp(text: string): IpAddress | undefined {
  const v4 = parseIPv4(text);
  if (v4 !== undefined) return { family: 4, value: v4 };
  const v6 = text.includes(':') ? parseIPv6(text) : undefined;
  return v6 === undefined ? undefined : { family: 6, value: v6 };
}

/** Writes an address in its usual form (IPv6 as eight hex groups, not compressed): for messages and tests. */
export function formatIp(address: IpAddress): string {
  if (address.family === 4) return [24n, 16n, 8n, 0n].map((shift) => String((address.value >> shift) & 0xffn)).join('.');
  return Array.from({ length: 8 }, (_, i) => ((address.value >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');
}

/** Parses `address/prefix` (or a bare address, the range of that one address); undefined if it is none. */
export function parseRange(text: string): IpRange | undefined {
  const [addressText, prefixText, ...rest] = text.split('/');
  const base = parseIp(addressText);
  if (!base || rest.length > 0) return undefined;
  if (prefixText === undefined) return { base, prefix: BITS[base.family] };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > BITS[base.family]) return undefined;
  return { base, prefix: Number(prefixText) };
}

/** Whether an address lies in a range (of the same family). */
export function inRange(address: IpAddress, range: IpRange): boolean {
  if (address.family !== range.base.family) return false;
  const shift = BigInt(BITS[address.family] - range.prefix);
  return address.value >> shift === range.base.value >> shift;
}

const range = (text: string): IpRange => parseRange(text)!;

/** The IPv4 address an IPv6 address maps (`::ffff:a.b.c.d`), so that it is judged, and allowed, as that address. */
export function unmapped(address: IpAddress): IpAddress {
  return address.family === 6 && inRange(address, MAPPED) ? { family: 4, value: address.value & 0xffffffffn } : address;
}
const MAPPED = range('::ffff:0:0/96');

const LOOPBACK = [range('127.0.0.0/8'), range('::1/128')];

/** Whether an address is a loopback address (127.0.0.0/8, ::1, or ::ffff:127.x.y.z). */
export const isLoopback = (address: IpAddress): boolean => LOOPBACK.some((loopback) => inRange(unmapped(address), loopback));

/** The IPv4 ranges refused, each with what it is. */
const REFUSED_V4: readonly [IpRange, string][] = [
  [range('0.0.0.0/8'), 'unspecified ("this network")'],
  [range('10.0.0.0/8'), 'private'],
  [range('100.64.0.0/10'), 'shared (carrier-grade NAT)'],
  [range('127.0.0.0/8'), 'loopback'],
  [range('169.254.0.0/16'), 'link-local'],
  [range('172.16.0.0/12'), 'private'],
  [range('192.0.0.0/24'), 'IETF protocol assignments'],
  [range('192.168.0.0/16'), 'private'],
  [range('198.18.0.0/15'), 'benchmarking'],
  [range('224.0.0.0/4'), 'multicast'],
  [range('240.0.0.0/4'), 'reserved (and broadcast)'],
];

/**
 * IPv6 ranges that carry an IPv4 address in their last 32 bits (bits 16-47 for 6to4), reaching it through
 * a translator or a tunnel: judged as the address they carry.
 */
const CARRYING_V4: readonly [IpRange, (value: bigint) => bigint][] = [
  [range('::ffff:0:0:0/96'), (value) => value & 0xffffffffn], // IPv4-translated (SIIT)
  [range('64:ff9b::/96'), (value) => value & 0xffffffffn], // NAT64
  [range('2002::/16'), (value) => (value >> 80n) & 0xffffffffn], // 6to4
];

/** The IPv6 ranges refused, each with what it is. */
const REFUSED_V6: readonly [IpRange, string][] = [
  [range('::/128'), 'unspecified'],
  [range('::1/128'), 'loopback'],
  [range('::/96'), 'IPv4-compatible (deprecated)'],
  [range('64:ff9b:1::/48'), 'local-use NAT64'],
  [range('100::/64'), 'discard-only'],
  [range('fc00::/7'), 'unique-local'],
  [range('fe80::/10'), 'link-local'],
  [range('fec0::/10'), 'site-local (deprecated)'],
  [range('ff00::/8'), 'multicast'],
];

/**
 * Why an outbound fetch must not connect to an address (`loopback`, `private`, ...), or undefined for an
 * address on the public internet. IPv4-mapped IPv6 addresses, and IPv6 forms that carry an IPv4 address
 * (NAT64, 6to4, SIIT), are judged as the IPv4 address they reach.
 */
export function refusedRange(address: IpAddress): string | undefined {
  const plain = unmapped(address);
  if (plain.family === 4) return REFUSED_V4.find(([refused]) => inRange(plain, refused))?.[1];
  for (const [carrier, carried] of CARRYING_V4) {
    if (!inRange(plain, carrier)) continue;
    const reason = refusedRange({ family: 4, value: carried(plain.value) });
    return reason === undefined ? undefined : `${reason}, carried in IPv6`;
  }
  return REFUSED_V6.find(([refused]) => inRange(plain, refused))?.[1];
}
