import type { Logger } from 'pino';
import type { Platform } from '../core/platform.js';
import { isInitialized } from '../core/setup/operator.js';
import { serve, type ServeOptions } from '../adapters/node-http/index.js';
import { createMetrics, type Metrics } from '../adapters/node-http/metrics.js';
import { serveMetrics } from '../adapters/node-http/metrics-server.js';
import { createLogger, pinoRequestLogger } from '../adapters/node-http/pino-log.js';
import type { Workers } from '../core/workers.js';
import { createWorkerPool } from '../workers/pool.js';
import { createPlatform } from '../platform.js';
import { startWarnings } from './environment.js';
import { openData, shownData } from './open-data.js';
import type { ServerSettings } from './server-settings.js';
import type { StoreLog } from '../store/postgres/outage.js';
import { StoreUnavailableError } from '../store/types.js';

/**
 * How the bundled server treats its clients, from its settings: each one's budget (DOCS_PLATFORM_RATE_LIMIT;
 * none by default), and the proxies believed about their addresses (DOCS_PLATFORM_TRUST_PROXY).
 */
export function clientOptions(settings: Pick<ServerSettings, 'rateLimit' | 'trustProxy'>): Pick<ServeOptions, 'rateLimit' | 'trustProxy'> {
  return { ...(settings.rateLimit ? { rateLimit: { perMinute: settings.rateLimit } } : {}), ...(settings.trustProxy !== undefined && { trustProxy: settings.trustProxy }) };
}

/** How often the server sweeps the trash by default: reads already hide expired spaces, so this only frees storage. */
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * How often the server collects the blob store by default: a collection walks the files of every revision,
 * and bytes wait a day (the grace period) anyway, so a few times a day is enough.
 */
const COLLECT_INTERVAL_MS = 6 * 60 * 60 * 1000;

/**
 * The bundled server's platform over its data (a JSON file with its blob folder, or a PostgreSQL database
 * with its blobs table), with a pool of worker threads for the CPU-heavy jobs (the bench's heavy-work case
 * serves this same one; it may pass `inlineWorkers` to measure the difference). `log` hears the PostgreSQL
 * store's migrations and outages.
 */
export async function openServerPlatform(
  settings: Pick<ServerSettings, 'data' | 'baseUrl' | 'fetchAllow'>,
  workers: Workers = createWorkerPool({ warmThreads: 1 }),
  metrics?: Metrics,
  log?: StoreLog,
): Promise<Platform> {
  const { store: opened, blobs, rateLimiter } = await openData(settings.data, log);
  // With metrics, the store's writes are timed and its journal figures read at each scrape.
  const store = metrics ? metrics.instrument(opened) : opened;
  // Node loads its fetch (undici) when a fetch class is first touched, ~25 ms of one turn: here at start-up,
  // rather than while requests wait on the first import or OpenAPI source.
  void globalThis.Response;
  // CPU-heavy jobs (OpenAPI documents, PDFs, imports, search indexes) run in worker threads, not between requests.
  // Outbound fetches go through the fetch that refuses inside addresses, with the operator's allow list.
  return createPlatform({ store, baseUrl: settings.baseUrl, blobs, workers, fetchAllow: settings.fetchAllow, rateLimiter });
}

/**
 * Runs the bundled server over its data (a JSON file or a PostgreSQL database) until SIGTERM or SIGINT, then stops accepting,
 * lets in-flight requests finish, flushes the store and resolves. On a first start it creates an
 * organization, its owner and a token, and prints the token once. Requests are logged through pino to
 * stdout (JSON lines, or readable ones on a terminal), rate limited, and counted for /metrics when asked.
 */
export async function runServer(settings: ServerSettings, print: (line: string) => void): Promise<void> {
  for (const line of startWarnings(settings)) print(line);
  const logger = createLogger({ level: settings.logLevel, pretty: process.stdout.isTTY === true });
  const metrics = settings.metrics || settings.metricsPort !== undefined ? createMetrics() : undefined;
  // The store's lines (an outage, once when it begins and once when it ends) are log entries like the requests'.
  const platform = await openServerPlatform(settings, undefined, metrics, (line, level = 'info') => logger[level](line));
  const { store } = platform;
  if (!(await isInitialized(store))) {
    const created = await platform.initialize();
    print(`First start: created organization ${created.organizationId} and its owner ${created.userId} (role admin).`);
    print(`API token of the owner (shown once, keep it safe): ${created.token}`);
  }
  const running = await serve({
    platform,
    port: settings.port,
    host: settings.host,
    logger: pinoRequestLogger(logger),
    metrics,
    serveMetrics: settings.metrics ? metrics : undefined,
    ...clientOptions(settings),
  }).catch(async (error: unknown) => {
    // Release the data file's lock: a lock left behind would hold off the CLI until the pid is gone.
    await platform.close();
    throw error;
  });
  const metricsServer = metrics && settings.metricsPort !== undefined ? await serveMetrics(metrics, { port: settings.metricsPort, host: settings.host }) : undefined;
  if (metricsServer) print(`metrics on ${metricsServer.url}/metrics`);
  print(`docs-platform listening on ${running.url} (data: ${shownData(settings.data)})`);
  const stopSweeping = every(settings.purgeIntervalMs ?? PURGE_INTERVAL_MS, logger, 'purging deleted spaces', async () => {
    const purged = await platform.purgeDeletedSpaces();
    return purged > 0 ? { fields: { purged }, message: `purged ${purged} deleted spaces past their 7 days` } : undefined;
  });
  const stopCollecting = every(settings.collectIntervalMs ?? COLLECT_INTERVAL_MS, logger, 'collecting file bytes', async () => {
    const report = await platform.collectBlobs();
    if (!report || report.removed.length === 0) return undefined;
    const fields = { removed: report.removed.length, removedBytes: report.removedBytes };
    return { fields, message: `removed ${report.removed.length} unreferenced or expired blobs (${report.removedBytes} bytes)` };
  });
  const signal = await stopSignal();
  const closed = running.close();
  void metricsServer?.close();
  // Printed once the listening socket is closed: from now on a new connection is refused.
  print(`${signal}: finishing in-flight requests, then stopping`);
  await closed;
  await Promise.all([stopSweeping(), stopCollecting()]);
  await platform.close();
  print(`docs-platform stopped: every request answered, data saved to ${shownData(settings.data)}`);
}

/**
 * Runs background work (the trash sweep, the blob collection) now and then every `intervalMs`, one run at
 * a time; what a run reports is logged, a failed run is logged and the next one tries again. Returns a
 * function that stops the runs and waits for a running one to finish, so the store is not closed under it.
 */
function every(intervalMs: number, logger: Logger, what: string, work: () => Promise<{ fields: Record<string, number>; message: string } | undefined>): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = running.then(async () => {
      try {
        const done = await work();
        if (done) logger.info(done.fields, done.message);
      } catch (error) {
        // A store that is away says so in one line (its outage is logged by the store too); a bug with its stack.
        if (error instanceof StoreUnavailableError) logger.error(`${what} failed: ${error.message}`);
        else logger.error({ err: error }, `${what} failed`);
      }
    });
  };
  sweep();
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/**
 * Resolves on the first SIGTERM or SIGINT. Another one a second or more later exits at once (code 1),
 * for an operator who will not wait. One sooner is the same signal delivered twice, not a request to hurry:
 * a process manager signals the whole process group, and npm and tsx forward what they got to the server.
 */
function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let first = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      if (first === 0) {
        first = Date.now();
        resolve(signal);
      } else if (Date.now() - first >= 1_000) {
        process.stderr.write(`${signal} again: exiting without waiting for in-flight requests\n`);
        process.exit(1);
      }
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}
