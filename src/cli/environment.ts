import { parseTrustedProxies } from '../adapters/client-address.js';
import { LOG_LEVELS, type LogLevel } from '../adapters/node-http/pino-log.js';
import { isLoopback, parseIp } from '../outbound/addresses.js';
import { parseAllowList } from '../outbound/allow-list.js';
import type { ServerSettings } from './server-settings.js';

/** The settings serverEnvironment() reads. */
export type EnvironmentSettings = Pick<ServerSettings, 'baseUrl' | 'fetchAllow' | 'logLevel' | 'metrics' | 'metricsPort' | 'rateLimit' | 'trustProxy'>;

/** A whole number from `min` to `max` in variable `name`; undefined when unset. */
function wholeNumber(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new Error(`${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(raw)}`);
  return Number(raw);
}

/**
 * The server's settings that come from the environment, for `npm start` and `docs-platform serve` alike:
 * DOCS_PLATFORM_BASE_URL, DOCS_PLATFORM_FETCH_ALLOW, DOCS_PLATFORM_LOG_LEVEL, DOCS_PLATFORM_METRICS,
 * DOCS_PLATFORM_METRICS_PORT, DOCS_PLATFORM_RATE_LIMIT and DOCS_PLATFORM_TRUST_PROXY. Throws an Error naming
 * the variable for a value it cannot use.
 */
export function serverEnvironment(env: NodeJS.ProcessEnv = process.env): EnvironmentSettings {
  const baseUrl = env.DOCS_PLATFORM_BASE_URL || undefined;
  if (baseUrl !== undefined && !/^https?:\/\/[^/]/i.test(baseUrl)) {
    throw new Error(`DOCS_PLATFORM_BASE_URL must be an http(s) URL such as https://docs.example.com, not ${JSON.stringify(baseUrl)}`);
  }
  const fetchAllow = env.DOCS_PLATFORM_FETCH_ALLOW || undefined;
  try {
    parseAllowList(fetchAllow);
  } catch (error) {
    throw new Error(`DOCS_PLATFORM_FETCH_ALLOW: ${(error as Error).message}`);
  }
  const trustProxy = env.DOCS_PLATFORM_TRUST_PROXY || undefined;
  try {
    if (trustProxy !== undefined) parseTrustedProxies(trustProxy);
  } catch (error) {
    throw new Error(`DOCS_PLATFORM_TRUST_PROXY: ${(error as Error).message}`);
  }
  const logLevel = (env.DOCS_PLATFORM_LOG_LEVEL || 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) throw new Error(`DOCS_PLATFORM_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not ${JSON.stringify(env.DOCS_PLATFORM_LOG_LEVEL)}`);
  const metrics = env.DOCS_PLATFORM_METRICS || '0';
  if (metrics !== '0' && metrics !== '1') throw new Error(`DOCS_PLATFORM_METRICS must be 1 (serve /metrics on the API's port) or 0, not ${JSON.stringify(metrics)}`);
  return {
    baseUrl,
    fetchAllow,
    logLevel: logLevel as LogLevel,
    metrics: metrics === '1',
    metricsPort: wholeNumber(env, 'DOCS_PLATFORM_METRICS_PORT', 0, 65535),
    // Off unless set, as GitHub Enterprise Server ships: the public API's clients (@gitbook/api) do not retry a
    // 429, so a budget a script can spend (a site of a few dozen pages, a migration) breaks it part-way.
    rateLimit: wholeNumber(env, 'DOCS_PLATFORM_RATE_LIMIT', 0, 1_000_000) ?? 0,
    trustProxy,
  };
}

/**
 * What the operator should hear at start: a server reachable from other machines without a base URL
 * builds the URLs in its answers (downloadURL, the SAML acsURL, the OpenAPI `servers`) from each request's
 * Host header, which a client chooses.
 */
export function startWarnings(settings: Pick<ServerSettings, 'host' | 'baseUrl'>): string[] {
  const address = parseIp(settings.host.replace(/^\[(.*)\]$/, '$1'));
  const loopback = settings.host.toLowerCase() === 'localhost' || (address !== undefined && isLoopback(address));
  if (settings.baseUrl || loopback) return [];
  return [
    `warning: listening on ${settings.host} without DOCS_PLATFORM_BASE_URL: the URLs in answers (downloadURL, the SAML acsURL, the OpenAPI servers) come from each request's Host header. Set DOCS_PLATFORM_BASE_URL to the server's public URL.`,
  ];
}
