import type { LogLevel } from '../adapters/node-http/pino-log.js';

/** Where the server keeps its data and where it listens. */
export interface ServerSettings {
  /** A JSON data file, or a PostgreSQL URL. */
  data: string;
  port: number;
  host: string;
  /** The public base URL for the URLs in responses; default the origin of each request. */
  baseUrl?: string;
  /** What outbound fetches may reach besides the public internet (DOCS_PLATFORM_FETCH_ALLOW; src/platform.ts). */
  fetchAllow?: string;
  /** How often deleted spaces past their 7 days are purged, in milliseconds; default every hour. */
  purgeIntervalMs?: number;
  /** How often the blob collection runs, in milliseconds; default every 6 hours. */
  collectIntervalMs?: number;
  /** The level of the request logs (DOCS_PLATFORM_LOG_LEVEL); default info. */
  logLevel?: LogLevel;
  /** Serve /metrics on the API's port (DOCS_PLATFORM_METRICS=1); default not. */
  metrics?: boolean;
  /** Serve /metrics alone on this port, on the same host (DOCS_PLATFORM_METRICS_PORT); default not. */
  metricsPort?: number;
  /** Units a minute for each token and client address (DOCS_PLATFORM_RATE_LIMIT); default 0: no limits. */
  rateLimit?: number;
  /** The proxies whose X-Forwarded-For gives the client address (DOCS_PLATFORM_TRUST_PROXY); default none. */
  trustProxy?: string;
}
