import { describe, expect, it } from 'vitest';
import { clientAddressOf, parseTrustedProxies } from '../../src/adapters/client-address.js';

/** The client address behind trusted proxies (DOCS_PLATFORM_TRUST_PROXY), and the list that names them. */

describe('parseTrustedProxies', () => {
  it('reads addresses, CIDR ranges and loopback', () => {
    const trusted = parseTrustedProxies(' 10.0.0.0/8, 192.0.2.1 ,[fd00::1], loopback');
    for (const address of ['10.1.2.3', '192.0.2.1', 'fd00::1', '127.0.0.1', '127.9.9.9', '::1', '::ffff:10.0.0.1', '::ffff:127.0.0.1']) expect(trusted(address), address).toBe('proxy');
    for (const address of ['11.0.0.1', '192.0.2.2', 'fd00::2', '203.0.113.7']) expect(trusted(address), address).toBe('client');
    for (const address of ['not an address', '', '203.0.113.7:4711']) expect(trusted(address), address).toBe('invalid');
    // Asked again, from what it remembers.
    expect([trusted('10.1.2.3'), trusted('203.0.113.7'), trusted('')]).toEqual(['proxy', 'client', 'invalid']);
  });

  it('refuses an entry it cannot read, naming it, and a list of none', () => {
    expect(() => parseTrustedProxies('127.0.0.1, proxy.internal')).toThrow('"proxy.internal" is not an IP address, a CIDR range (10.0.0.0/8, fd00::/8) or loopback');
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow(/^"10\.0\.0\.0\/33" is not/);
    expect(() => parseTrustedProxies(' , ')).toThrow('" , " names no proxy: give IP addresses, CIDR ranges or loopback');
  });
});

describe('clientAddressOf', () => {
  const trusted = parseTrustedProxies('loopback,10.0.0.0/8');

  it('is the peer when no proxy is trusted, or the peer is not one', () => {
    expect(clientAddressOf('127.0.0.1', '203.0.113.7', undefined)).toBe('127.0.0.1');
    expect(clientAddressOf('198.51.100.1', '203.0.113.7', trusted)).toBe('198.51.100.1');
    expect(clientAddressOf('127.0.0.1', undefined, trusted)).toBe('127.0.0.1');
    expect(clientAddressOf(undefined, '203.0.113.7', trusted)).toBeUndefined();
  });

  it('is the right-most address of X-Forwarded-For that is no trusted proxy: what the client wrote itself is not believed', () => {
    expect(clientAddressOf('127.0.0.1', '203.0.113.7', trusted)).toBe('203.0.113.7');
    expect(clientAddressOf('::ffff:127.0.0.1', '203.0.113.7', trusted)).toBe('203.0.113.7');
    expect(clientAddressOf('127.0.0.1', '1.1.1.1, 203.0.113.7, 10.0.0.5', trusted)).toBe('203.0.113.7');
    expect(clientAddressOf('127.0.0.1', '2001:db8::7,10.0.0.5', trusted)).toBe('2001:db8::7');
  });

  it('is the left-most when every hop is trusted, and the last trusted hop before one that is no address', () => {
    expect(clientAddressOf('127.0.0.1', '10.0.0.9, 10.0.0.5', trusted)).toBe('10.0.0.9');
    expect(clientAddressOf('127.0.0.1', 'made-up, 10.0.0.5', trusted)).toBe('10.0.0.5');
    expect(clientAddressOf('127.0.0.1', '203.0.113.7:4711', trusted)).toBe('127.0.0.1');
    expect(clientAddressOf('127.0.0.1', '', trusted)).toBe('127.0.0.1');
  });
});
