import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Platform } from '../../core/platform.js';
import type { RequestLogEntry, RequestMetrics } from '../request-log.js';

type Store = Platform['store'];

/** The path metrics are served at. */
export const METRICS_PATH = '/metrics';

/** The metrics of a server, in the Prometheus text format (prom-client). */
export interface Metrics extends RequestMetrics {
  readonly registry: Registry;
  /** The store with its writes timed (store write latency) and its figures read at each scrape. */
  instrument<S extends Store>(store: S): S;
  /** The text of a scrape and its content type. */
  scrape(): Promise<{ type: string; body: string }>;
}

/** Latency buckets in seconds: from half a millisecond (a read from memory) to 10 s (a heavy job). */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Creates the metrics: requests by route pattern, method and status with a latency histogram, store write
 * latency, journal bytes and compactions (JSON-file store), reads from PostgreSQL's snapshot cache and in
 * transactions, rate-limited requests, and node's own (event-loop lag, heap, ...), each in its own registry
 * so that two servers in one process do not mix.
 */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({ name: 'docs_platform_requests_total', help: 'Requests answered, by route pattern, method and status', labelNames: ['route', 'method', 'status'], registers: [registry] });
  const latency = new Histogram({ name: 'docs_platform_request_duration_seconds', help: 'Time to answer a request, by route pattern and method', labelNames: ['route', 'method'], buckets: BUCKETS, registers: [registry] });
  const limited = new Counter({ name: 'docs_platform_rate_limited_total', help: 'Requests refused with 429 by a rate limit', registers: [registry] });
  const writes = new Histogram({ name: 'docs_platform_store_write_duration_seconds', help: 'Time a store write transaction takes until durable', buckets: BUCKETS, registers: [registry] });
  const stores: Store[] = [];
  const sum = (pick: (store: Store) => number | undefined) => stores.reduce((total, store) => total + (pick(store) ?? 0), 0);
  new Gauge({
    name: 'docs_platform_journal_bytes',
    help: 'Bytes of the JSON-file store journal not yet folded into the data file',
    registers: [registry],
    collect() {
      this.set(sum((store) => store.figures?.().journalBytes));
    },
  });
  new Counter({
    name: 'docs_platform_compactions_total',
    help: 'Compactions of the JSON-file store since it opened',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(sum((store) => store.figures?.().compactions));
    },
  });
  new Counter({
    name: 'docs_platform_store_reads_total',
    help: 'Read transactions of a PostgreSQL store, by how they were answered: from its snapshot cache, or in a database transaction',
    labelNames: ['answered'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ answered: 'cache' }, sum((store) => store.figures?.().readsFromCache));
      this.inc({ answered: 'transaction' }, sum((store) => store.figures?.().readsInTransaction));
    },
  });
  new Counter({
    name: 'docs_platform_store_write_retries_total',
    help: 'Write transactions of a PostgreSQL store that ran again, by reason: serialization (two changed one row), deadlock, late-lock (a scope locked after the snapshot)',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const store of stores) for (const [reason, n] of Object.entries(store.figures?.().writeRetries ?? {})) this.inc({ reason }, n);
    },
  });

  return {
    registry,
    request(entry: RequestLogEntry) {
      const route = entry.route ?? 'unmatched';
      requests.inc({ route, method: entry.method, status: String(entry.status) });
      latency.observe({ route, method: entry.method }, entry.durationMs / 1000);
    },
    rateLimited: () => limited.inc(),
    instrument(store) {
      stores.push(store);
      const write: Store['write'] = async (fn, options) => {
        const end = writes.startTimer();
        try {
          return await store.write(fn, options);
        } finally {
          end();
        }
      };
      // Every other member is the store's own, bound once (a PostgreSQL store has more: blobs, rateLimiter).
      const bound = new Map<PropertyKey, unknown>();
      return new Proxy(store, {
        get(target, key) {
          if (key === 'write') return write;
          const value = Reflect.get(target, key, target);
          if (typeof value !== 'function') return value;
          if (!bound.has(key)) bound.set(key, value.bind(target));
          return bound.get(key);
        },
      });
    },
    async scrape() {
      return { type: registry.contentType, body: await registry.metrics() };
    },
  };
}
