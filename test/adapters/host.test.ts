import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidHost, isValidOrigin } from '../../src/adapters/host.js';

/** The check of a request's host before URLs and the reader's Content-Security-Policy are built of it. */

describe('isValidHost', () => {
  it('accepts host names, IPv4 addresses and bracketed IPv6 addresses, with a port from 1 to 65535', () => {
    for (const host of ['localhost', 'docs.example.com', 'Docs.Example.COM.', 'my_host-1.internal', 'xn--bcher-kva.example', '127.0.0.1', '127.0.0.1:8080', '[::1]', '[::1]:3000', '[2001:DB8::ffff:192.0.2.1]:443', 'a:1', 'a:65535']) {
      expect(isValidHost(host), host).toBe(true);
    }
  });

  it('refuses what a URL would not parse, or a CSP would read as its own syntax', () => {
    for (const host of ['', 'a b', 'e"v<il>', 'evil.example;x', "a'b", 'a,b', 'a%3bb', 'a:99999', 'a:0', 'a:', ':80', 'a:80:80', 'user@host', '[::1', '::1', '[fe80::1%25eth0]', '[1.2.3.4]', '999.1.1.1', '1.2.3', 'docs.0x1f', '-a.example', 'a..b', `${'a'.repeat(64)}.example`, 'é.example']) {
      expect(isValidHost(host), host).toBe(false);
    }
  });

  it('accepts only hosts that parse as a URL\'s whole host, and hold nothing a CSP or a URL reads as its syntax', () => {
    const piece = fc.constantFrom('a', 'z', 'Q', '0', '9', '1', '255', '.', '-', '_', ':', '[', ']', '::', 'ffff', '0x', '80', '65536', ';', "'", '"', ',', ' ', '%', '@', '/', '#', '?');
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const host = pieces.join('');
        if (!isValidHost(host)) return;
        accepted++;
        const url = new URL(`http://${host}/`);
        expect([url.username, url.password, url.pathname, url.search, url.hash]).toEqual(['', '', '/', '', '']);
        expect(url.origin).toMatch(/^http:\/\/[a-z0-9_.\-[\]:]+$/);
      }),
      { numRuns: 10_000 },
    );
    // The pieces make valid hosts often enough for the property to say something.
    expect(accepted).toBeGreaterThan(300);
  });
});

describe('isValidOrigin', () => {
  it('checks the host of an http(s) origin', () => {
    expect(isValidOrigin('http://127.0.0.1:8080')).toBe(true);
    expect(isValidOrigin('https://docs.example.com')).toBe(true);
    expect(isValidOrigin('http://evil.example;x')).toBe(false);
    expect(isValidOrigin('ftp://docs.example.com')).toBe(false);
    expect(isValidOrigin('null')).toBe(false);
  });
});
