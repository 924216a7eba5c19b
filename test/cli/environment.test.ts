import { describe, expect, it } from 'vitest';
import { serverEnvironment, startWarnings } from '../../src/cli/environment.js';

/** The server's settings from the environment, and the warning at start about the base URL. */

describe('serverEnvironment', () => {
  const defaults = { logLevel: 'info', metrics: false, metricsPort: undefined, rateLimit: 0, trustProxy: undefined };

  it('reads the base URL and the allow list, empty values as unset', () => {
    expect(serverEnvironment({})).toEqual({ baseUrl: undefined, fetchAllow: undefined, ...defaults });
    expect(serverEnvironment({ DOCS_PLATFORM_BASE_URL: '', DOCS_PLATFORM_FETCH_ALLOW: '' })).toEqual({ baseUrl: undefined, fetchAllow: undefined, ...defaults });
    expect(serverEnvironment({ DOCS_PLATFORM_BASE_URL: 'https://docs.example.com', DOCS_PLATFORM_FETCH_ALLOW: '127.0.0.1, 10.0.0.0/8, wiki.internal' })).toEqual({
      baseUrl: 'https://docs.example.com',
      fetchAllow: '127.0.0.1, 10.0.0.0/8, wiki.internal',
      ...defaults,
    });
  });

  it('reads the log level, metrics, the rate limit (none by default) and the trusted proxies', () => {
    const env = { DOCS_PLATFORM_LOG_LEVEL: 'WARN', DOCS_PLATFORM_METRICS: '1', DOCS_PLATFORM_METRICS_PORT: '9464', DOCS_PLATFORM_RATE_LIMIT: '600' };
    expect(serverEnvironment(env)).toMatchObject({ logLevel: 'warn', metrics: true, metricsPort: 9464, rateLimit: 600 });
    expect(() => serverEnvironment({ DOCS_PLATFORM_LOG_LEVEL: 'loud' })).toThrow(/^DOCS_PLATFORM_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/);
    expect(() => serverEnvironment({ DOCS_PLATFORM_METRICS: 'yes' })).toThrow(/^DOCS_PLATFORM_METRICS must be 1/);
    expect(() => serverEnvironment({ DOCS_PLATFORM_METRICS_PORT: '70000' })).toThrow('DOCS_PLATFORM_METRICS_PORT must be a whole number from 0 to 65535, not "70000"');
    expect(serverEnvironment({ DOCS_PLATFORM_TRUST_PROXY: '127.0.0.1,10.0.0.0/8' }).trustProxy).toBe('127.0.0.1,10.0.0.0/8');
    expect(() => serverEnvironment({ DOCS_PLATFORM_RATE_LIMIT: '-1' })).toThrow(/^DOCS_PLATFORM_RATE_LIMIT must be a whole number/);
  });

  it('refuses values it cannot use, naming the variable and the entry', () => {
    expect(() => serverEnvironment({ DOCS_PLATFORM_FETCH_ALLOW: '127.0.0.1,10.0.0.0/40' })).toThrow(
      'DOCS_PLATFORM_FETCH_ALLOW: "10.0.0.0/40" is not an IP address, a CIDR range (10.0.0.0/8, fd00::/8) or a host name',
    );
    expect(() => serverEnvironment({ DOCS_PLATFORM_BASE_URL: 'docs.example.com' })).toThrow(/^DOCS_PLATFORM_BASE_URL must be an http\(s\) URL/);
    expect(() => serverEnvironment({ DOCS_PLATFORM_TRUST_PROXY: 'loopback, proxy.internal' })).toThrow(
      'DOCS_PLATFORM_TRUST_PROXY: "proxy.internal" is not an IP address, a CIDR range (10.0.0.0/8, fd00::/8) or loopback',
    );
  });
});

describe('startWarnings', () => {
  it('warns when the server listens beyond loopback without a base URL', () => {
    for (const host of ['0.0.0.0', '::', '192.0.2.1', 'docs.example.com']) {
      expect(startWarnings({ host }), host).toEqual([expect.stringMatching(/^warning: listening on \S+ without DOCS_PLATFORM_BASE_URL: .*Host header/)]);
    }
  });

  it('says nothing on loopback, or with a base URL', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]']) expect(startWarnings({ host }), host).toEqual([]);
    expect(startWarnings({ host: '0.0.0.0', baseUrl: 'https://docs.example.com' })).toEqual([]);
  });
});
