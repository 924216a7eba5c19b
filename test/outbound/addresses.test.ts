import { describe, expect, it } from 'vitest';
import { formatIp, parseIp, parseRange, refusedRange } from '../../src/outbound/addresses.js';
import { AllowListError, parseAllowList } from '../../src/outbound/allow-list.js';

/** The address rules of the outbound fetch: parsing, the refused ranges, and the operator's allow list. */

const refused = (text: string) => refusedRange(parseIp(text)!);

describe('IP addresses', () => {
  it('reads IPv4 and IPv6 addresses as dns.lookup and URL hosts write them, and nothing else', () => {
    expect(formatIp(parseIp('192.0.2.1')!)).toBe('192.0.2.1');
    expect(formatIp(parseIp('::1')!)).toBe('0:0:0:0:0:0:0:1');
    expect(formatIp(parseIp('::ffff:192.0.2.1')!)).toBe('0:0:0:0:0:ffff:c000:201');
    expect(formatIp(parseIp('fe80::1%eth0')!)).toBe('fe80:0:0:0:0:0:0:1');
    expect(formatIp(parseIp('2001:db8:0:0:1:0:0:1')!)).toBe('2001:db8:0:0:1:0:0:1');
    for (const bad of ['', '1.2.3', '1.2.3.4.5', '256.0.0.1', '01.2.3.4', '1.2.3.-1', 'example.com', '1::2::3', ':::', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7', 'g::1', '::1.2.3']) {
      expect(parseIp(bad), bad).toBeUndefined();
    }
  });

  it('reads CIDR ranges, a bare address being a range of one', () => {
    expect(parseRange('10.0.0.0/8')).toEqual({ base: parseIp('10.0.0.0'), prefix: 8 });
    expect(parseRange('fd00::/8')).toEqual({ base: parseIp('fd00::'), prefix: 8 });
    expect(parseRange('127.0.0.1')).toEqual({ base: parseIp('127.0.0.1'), prefix: 32 });
    for (const bad of ['10.0.0.0/33', '::/129', '10.0.0.0/', '10.0.0.0/8/1', '10/8', 'x/8']) expect(parseRange(bad), bad).toBeUndefined();
  });
});

describe('the refused ranges', () => {
  it('refuses loopback, private, link-local, unique-local, multicast and unspecified addresses, IPv4 and IPv6', () => {
    const cases: [string, string][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['0.0.0.0', 'unspecified ("this network")'],
      ['10.0.0.1', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['100.64.0.1', 'shared (carrier-grade NAT)'],
      ['169.254.169.254', 'link-local'],
      ['224.0.0.1', 'multicast'],
      ['255.255.255.255', 'reserved (and broadcast)'],
      ['::', 'unspecified'],
      ['::1', 'loopback'],
      ['fe80::1', 'link-local'],
      ['fd12:3456::1', 'unique-local'],
      ['fc00::1', 'unique-local'],
      ['ff02::1', 'multicast'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:169.254.169.254', 'link-local'],
      ['::127.0.0.1', 'IPv4-compatible (deprecated)'],
      ['64:ff9b::a00:1', 'private, carried in IPv6'],
      ['2002:7f00:1::', 'loopback, carried in IPv6'],
    ];
    for (const [address, why] of cases) expect(refused(address), address).toBe(why);
  });

  it('lets public addresses through, also when IPv6 forms carry them', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '172.15.255.255', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1']) {
      expect(refused(address), address).toBeUndefined();
    }
  });
});

describe('the allow list', () => {
  it('allows addresses, ranges and host names, from a comma-separated string or a list', () => {
    const allow = parseAllowList(' 127.0.0.1, 10.1.0.0/16 ,, [::1], fd00::/8, Docs.Internal.Example. ');
    expect(allow.entries).toEqual(['127.0.0.1', '10.1.0.0/16', '[::1]', 'fd00::/8', 'Docs.Internal.Example.']);
    for (const address of ['127.0.0.1', '::ffff:127.0.0.1', '10.1.2.3', '::1', 'fd00::5', '8.8.8.8']) expect(allow.allowsAddress(parseIp(address)!), address).toBe(true);
    for (const address of ['127.0.0.2', '10.2.0.1', 'fe80::1', '169.254.169.254']) expect(allow.allowsAddress(parseIp(address)!), address).toBe(false);
    expect(allow.allowsHost('docs.internal.example')).toBe(true);
    expect(allow.allowsHost('DOCS.internal.example.')).toBe(true);
    expect(allow.allowsHost('other.internal.example')).toBe(false);
    expect(parseAllowList(['localhost']).allowsHost('localhost')).toBe(true);
  });

  it('allows an IPv4-mapped entry for the IPv4 address it maps, and the other way round', () => {
    expect(parseAllowList('::ffff:127.0.0.1').allowsAddress(parseIp('127.0.0.1')!)).toBe(true);
    expect(parseAllowList('::ffff:10.0.0.0/104').allowsAddress(parseIp('10.9.9.9')!)).toBe(true);
    expect(parseAllowList('127.0.0.1').allowsAddress(parseIp('::ffff:7f00:1')!)).toBe(true);
  });

  it('allows nothing more when empty', () => {
    for (const empty of [parseAllowList(), parseAllowList(''), parseAllowList([])]) {
      expect(empty.allowsAddress(parseIp('127.0.0.1')!)).toBe(false);
      expect(empty.allowsHost('localhost')).toBe(false);
    }
  });

  it('refuses an entry that is none of an address, a range or a host name, naming it', () => {
    for (const bad of ['10.0.0.0/33', 'http://example.com', 'a b', '127.1', '0x7f.0.0.1', 'exa*mple.com', '-bad.example', 'host:8080']) {
      expect(() => parseAllowList(`127.0.0.1,${bad}`), bad).toThrow(new AllowListError(bad));
    }
  });
});
