import { isLoopback, parseIp } from '../outbound/addresses.js';
import { parseAllowList } from '../outbound/allow-list.js';
import type { ServerSettings } from './run-server.js';

/**
 * The server's settings that come from the environment, for `npm start` and `docs-platform serve` alike:
 * DOCS_PLATFORM_BASE_URL and DOCS_PLATFORM_FETCH_ALLOW. Throws an Error naming the variable for a value it
 * cannot use.
 */
export function serverEnvironment(env: NodeJS.ProcessEnv = process.env): Pick<ServerSettings, 'baseUrl' | 'fetchAllow'> {
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
  return { baseUrl, fetchAllow };
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
