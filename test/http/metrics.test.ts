/**
 * `/metrics` of the node:http server (prom-client): off unless asked, in the Prometheus text format, on the
 * API's port or on a port of its own; requests, store writes, the journal and rate limits move its figures.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/adapters/node-http/metrics.js';
import { serveMetrics } from '../../src/adapters/node-http/metrics-server.js';
import { serve, type RunningServer } from '../../src/adapters/node-http/index.js';
import { manualClock } from '../../src/core/clock.js';
import { createPlatform } from '../../src/core/platform.js';
import { createJsonFileStore } from '../../src/store/json-file.js';
import { createMemoryStore } from '../../src/store/memory.js';

/** One sample of a scrape: its name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * Parses the Prometheus text exposition format (0.0.4) strictly: every line is a `# HELP`, a `# TYPE` of a
 * known type, or a sample `name{label="value",...} number` of a metric whose TYPE came before (NaN and
 * Inf in any case, as Prometheus's Go float parsing takes them). Throws on anything else.
 */
function parsePrometheus(text: string): Sample[] {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  expect(text.endsWith('\n')).toBe(true);
  for (const line of text.split('\n').slice(0, -1)) {
    if (line === '') continue;
    const help = /^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) .*$/.exec(line);
    if (help) continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*)\})? (-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|nan|\+inf|-inf))$/i.exec(line);
    if (!sample) throw new Error(`not Prometheus text: ${JSON.stringify(line)}`);
    const [, name, labelText, value] = sample;
    const family = name!.replace(/_(bucket|sum|count)$/, '');
    if (!types.has(name!) && !types.has(family)) throw new Error(`sample ${name} has no TYPE before it`);
    const labels = Object.fromEntries([...(labelText ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
    samples.push({ name: name!, labels, value: Number(value) });
  }
  return samples;
}

/** The value of the sample with this name and these labels (0 when absent). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  return found?.value ?? 0;
}

const servers: RunningServer[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function scrape(url: string): Promise<Sample[]> {
  const response = await fetch(`${url}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheus(await response.text());
}

describe('/metrics', () => {
  it('is off by default: /metrics is the API 404', async () => {
    const platform = createPlatform({ store: createMemoryStore(), signingKey: 'k' });
    cleanups.push(() => platform.close());
    const server = await serve({ platform, port: 0 });
    servers.push(server);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
  });

  it('parses as Prometheus text, and a request moves its counter and its latency histogram, by route pattern', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'dp-metrics-'));
    const metrics = createMetrics();
    const store = metrics.instrument(await createJsonFileStore({ path: join(folder, 'data.json') }));
    // A clock that stands still: on the system's, a minute's end between the requests would start a new budget.
    const platform = createPlatform({ store, signingKey: 'k', clock: manualClock('2026-03-01T10:00:00.000Z') });
    cleanups.push(async () => {
      await platform.close();
      await rm(folder, { recursive: true, force: true });
    });
    const { token, organizationId } = await platform.initialize();
    const server = await serve({ platform, port: 0, metrics, serveMetrics: metrics, rateLimit: { perMinute: 10 } });
    servers.push(server);
    const route = { route: '/v1/orgs/{organizationId}', method: 'GET', status: '200' };
    const before = await scrape(server.url);
    expect(valueOf(before, 'docs_platform_requests_total', route)).toBe(0);
    for (const name of ['nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'docs_platform_journal_bytes', 'docs_platform_compactions_total', 'docs_platform_rate_limited_total']) {
      expect(before.some((sample) => sample.name === name), name).toBe(true);
    }

    const auth = { authorization: `Bearer ${token}` };
    expect((await fetch(`${server.url}/v1/orgs/${organizationId}`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${server.url}/v1/orgs/${organizationId}/teams`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: '{"title":"T"}' })).status).toBe(201);
    // Over the budget of 10 (a read 1, a write 5): refused, and counted.
    const refused = await fetch(`${server.url}/v1/orgs/${organizationId}/teams`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: '{"title":"U"}' });
    expect(refused.status).toBe(429);

    const after = await scrape(server.url);
    expect(valueOf(after, 'docs_platform_requests_total', route)).toBe(1);
    expect(valueOf(after, 'docs_platform_request_duration_seconds_count', { route: route.route, method: 'GET' })).toBe(1);
    expect(valueOf(after, 'docs_platform_requests_total', { route: '/v1/orgs/{organizationId}/teams', method: 'PUT', status: '201' })).toBe(1);
    expect(valueOf(after, 'docs_platform_requests_total', { route: '/v1/orgs/{organizationId}/teams', method: 'PUT', status: '429' })).toBe(1);
    expect(valueOf(after, 'docs_platform_rate_limited_total')).toBe(1);
    // The team's write was timed, and its journal line is in the journal's bytes.
    expect(valueOf(after, 'docs_platform_store_write_duration_seconds_count')).toBeGreaterThan(valueOf(before, 'docs_platform_store_write_duration_seconds_count'));
    expect(valueOf(after, 'docs_platform_journal_bytes')).toBeGreaterThan(valueOf(before, 'docs_platform_journal_bytes'));
    // No label holds the organization's id: routes are patterns.
    expect(JSON.stringify(after)).not.toContain(organizationId);
  });

  it('is served alone on a port of its own (DOCS_PLATFORM_METRICS_PORT), and not on the API port', async () => {
    const metrics = createMetrics();
    const platform = createPlatform({ store: createMemoryStore(), signingKey: 'k' });
    cleanups.push(() => platform.close());
    const api = await serve({ platform, port: 0, metrics });
    const own = await serveMetrics(metrics, { port: 0 });
    servers.push(api, own);
    expect((await fetch(`${api.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${api.url}/metrics`)).status).toBe(404);
    const samples = await scrape(own.url);
    expect(valueOf(samples, 'docs_platform_requests_total', { route: 'unmatched', method: 'GET', status: '404' })).toBe(1);
    const elsewhere = await fetch(`${own.url}/v1/orgs`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await fetch(`${own.url}/metrics`, { method: 'POST' })).status).toBe(405);
  });
});
