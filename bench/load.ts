import http from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startChild } from './child.js';
import { startCpuCount, type CpuUsage } from './cpu-usage.js';
import { mainThreadTimes, timesBetween, type ThreadTimes } from './thread-times.js';

/** A server to load and the request to send it, over `connections` keep-alive connections, as fast as answered. */
export interface Target {
  /** The server's base URL, e.g. http://127.0.0.1:41234. */
  readonly url: string;
  /** The server's processes, whose CPU is counted. */
  readonly pids: readonly number[];
  /** Count PostgreSQL's CPU apart from the other processes' (the server under test uses it). */
  readonly database?: boolean;
  readonly connections: number;
  /** The request; `setupRequest` may vary it per send. */
  readonly request: autocannon.Request;
  /** The one status every response must have. */
  readonly expectedStatus: number;
}

/** How long to load. */
export interface Schedule {
  /** Seconds measured per target, after `warmup` seconds of the same load that are not counted. */
  readonly duration: number;
  readonly warmup: number;
  /** Into how many slices the measured seconds are cut (see measurePair). */
  readonly slices: number;
}

/** The figures of a target's measured load (or of its warmup). */
export interface Figures {
  seconds: number;
  responses: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
  /** Responses by status code. */
  statusCodes: Record<string, number>;
  /** Responses whose status was not the expected one. */
  unexpectedStatus: number;
  /** Connection errors and request timeouts. */
  errors: number;
  timeouts: number;
}

/** A measured target: its figures, its warmup's, its CPU use, and whether it was clean. */
export interface Measurement extends Figures {
  warmup: Figures | null;
  /** The CPU used while it was measured (mean over its slices). */
  cpu: CpuUsage | null;
  /** Why the figures are invalid; empty when every response had the expected status and nothing failed. */
  problems: string[];
}

/** What one autocannon run saw. */
interface Sample {
  seconds: number;
  latencies: number[];
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
}

/**
 * Measures a target and, when given, its ceiling in alternating slices (ceiling, target, ceiling,
 * target, ...), each slice a fresh autocannon run of `duration / slices` whole seconds. Both are
 * then measured under the same conditions: on a shared virtual machine the speed of a process drifts
 * by tens of percent from one 5-second window to the next, and measuring one after the other turned
 * that drift into the ratio.
 */
export async function measurePair(target: Target, ceiling: Target | null, schedule: Schedule): Promise<{ target: Measurement; ceiling: Measurement | null }> {
  const both = ceiling ? [ceiling, target] : [target];
  const warmups = new Map<Target, Sample>();
  if (schedule.warmup > 0) for (const each of both) warmups.set(each, await run(each, schedule.warmup));
  const sliceSeconds = Math.max(1, Math.round(schedule.duration / schedule.slices));
  const slices = Math.max(1, Math.round(schedule.duration / sliceSeconds));
  const samples = new Map<Target, Sample[]>(both.map((each) => [each, []]));
  const cpu = new Map<Target, (CpuUsage | null)[]>(both.map((each) => [each, []]));
  for (let slice = 0; slice < slices; slice++) {
    for (const each of both) {
      const stopCounting = await startCpuCount(each.pids, 'self', each.database);
      samples.get(each)!.push(await run(each, sliceSeconds));
      cpu.get(each)!.push(await stopCounting());
    }
  }
  const measurement = (each: Target): Measurement => {
    const figures = figuresOf(samples.get(each)!, each.expectedStatus);
    const warmup = warmups.has(each) ? figuresOf([warmups.get(each)!], each.expectedStatus) : null;
    return {
      ...figures,
      warmup,
      cpu: meanUsage(cpu.get(each)!),
      problems: [...problemsOf(figures, each.expectedStatus, ''), ...(warmup ? problemsOf(warmup, each.expectedStatus, 'warmup: ') : [])],
    };
  };
  return { target: measurement(target), ceiling: ceiling && measurement(ceiling) };
}

async function run(target: Target, seconds: number): Promise<Sample> {
  // autocannon's own histogram keeps whole milliseconds, too coarse for sub-millisecond answers and for
  // comparing the latency of two data sets, so the latencies are collected here as measured.
  const latencies: number[] = [];
  const instance = autocannon({ url: target.url, connections: target.connections, duration: seconds, timeout: 10, requests: [target.request] });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => latencies.push(ms));
  const result = await instance;
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
  return { seconds: result.duration, latencies, statusCodes, errors: result.errors, timeouts: result.timeouts };
}

function figuresOf(samples: Sample[], expected: number): Figures {
  const sorted = Float64Array.from(samples.flatMap((sample) => sample.latencies)).sort();
  const seconds = samples.reduce((sum, sample) => sum + sample.seconds, 0);
  const statusCodes: Record<string, number> = {};
  for (const sample of samples) for (const [code, count] of Object.entries(sample.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  const unexpectedStatus = Object.entries(statusCodes).reduce((sum, [code, count]) => (Number(code) === expected ? sum : sum + count), 0);
  return {
    seconds,
    responses: sorted.length,
    requestsPerSecond: sorted.length / seconds,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    meanMs: sorted.length === 0 ? NaN : sorted.reduce((sum, ms) => sum + ms, 0) / sorted.length,
    maxMs: sorted.length === 0 ? NaN : sorted[sorted.length - 1],
    statusCodes,
    unexpectedStatus,
    errors: samples.reduce((sum, sample) => sum + sample.errors, 0),
    timeouts: samples.reduce((sum, sample) => sum + sample.timeouts, 0),
  };
}

/** The nearest-rank percentile of sorted values. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/** The mean of CPU usages of equal intervals; null when one of them is unknown. */
export function meanUsage(usages: (CpuUsage | null)[]): CpuUsage | null {
  if (usages.length === 0 || usages.some((usage) => usage === null)) return null;
  const mean = (key: keyof CpuUsage) => usages.reduce((sum, usage) => sum + usage![key]!, 0) / usages.length;
  const usage: CpuUsage = { server: mean('server'), bench: mean('bench'), others: mean('others'), steal: mean('steal') };
  if (usages.every((each) => each!.database !== undefined)) usage.database = mean('database');
  return usage;
}

function problemsOf(figures: Figures, expected: number, prefix: string): string[] {
  const problems: string[] = [];
  if (figures.responses === 0) problems.push(`${prefix}no responses`);
  if (figures.unexpectedStatus > 0) {
    const codes = Object.entries(figures.statusCodes)
      .filter(([code]) => Number(code) !== expected)
      .map(([code, count]) => `${count}× ${code}`);
    problems.push(`${prefix}${figures.unexpectedStatus} responses were not ${expected} (${codes.join(', ')})`);
  }
  if (figures.errors > 0) problems.push(`${prefix}${figures.errors} connection errors`);
  if (figures.timeouts > 0) problems.push(`${prefix}${figures.timeouts} timeouts`);
  return problems;
}

/**
 * startPacedLoad in a process of its own (load-child.ts): what the case does meanwhile on this process's
 * event loop (sending a 1 MiB body, parsing a large answer) then never delays reading the light requests'
 * answers, which counted in their latencies (the bench's event loop was seen stalled for 64 ms). Resolves
 * once the load is sending.
 */
export async function startPacedLoadApart(url: string, path: string, headers: Record<string, string>, rate: number, expectedStatus: number, pid?: number): Promise<PacedLoad> {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'load-child.ts');
  const child = await startChild<Record<string, never>>(script, [JSON.stringify({ url, path, headers, rate, expectedStatus, pid })]);
  return {
    async stop() {
      const figures = await child.request<PacedFigures>({ type: 'stop' });
      await child.stop();
      return figures;
    },
  };
}

/** What a paced load saw: the latency of each answered request, its statuses and its failures. */
export interface PacedFigures {
  responses: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  statusCodes: Record<string, number>;
  unexpectedStatus: number;
  errors: number;
  /** Each answered request: when it was sent (µs of the monotonic clock, as CPU profiles count) and its latency in ms. */
  timeline: [sentUs: number, ms: number][];
  /** What the server's main thread ran and waited for a core meanwhile (when its pid was given, on Linux). */
  mainThread: ThreadTimes | null;
}

/** A paced load that runs until stopped. */
export interface PacedLoad {
  /** Stops sending, waits for the answers of the requests sent, and gives the figures. */
  stop(): Promise<PacedFigures>;
}

/**
 * Sends one GET every `1000 / rate` ms, whatever the answers, over keep-alive connections (as many as
 * requests in flight): a server that stalls cannot slow the sending down, so every request that arrives
 * during a stall is counted with its wait (no coordinated omission, which autocannon's fixed connections
 * would have). Each latency runs from the moment its request was written. With the server's `pid`, the figures
 * say what its main thread ran and waited for a core meanwhile.
 */
export function startPacedLoad(url: string, path: string, headers: Record<string, string>, rate: number, expectedStatus: number, pid?: number): PacedLoad {
  const threadBefore = pid === undefined ? null : mainThreadTimes(pid);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const latencies: number[] = [];
  const timeline: [number, number][] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  const inFlight = new Set<Promise<void>>();
  const send = () => {
    const sent = performance.now();
    const sentUs = Number(process.hrtime.bigint() / 1000n);
    const done = new Promise<void>((resolve) => {
      const attempt = (retried: boolean) => {
        const request = http.get(`${url}${path}`, { agent, headers }, (response) => {
          response.resume();
          response.on('end', () => {
            latencies.push(performance.now() - sent);
            timeline.push([sentUs, latencies[latencies.length - 1]]);
            statusCodes[response.statusCode!] = (statusCodes[response.statusCode!] ?? 0) + 1;
            resolve();
          });
        });
        request.on('error', (error: NodeJS.ErrnoException) => {
          // A kept-alive connection the server closed as the request went out (its keep-alive timeout): sent
          // again once, as Node's documentation advises, its latency still counted from the first send.
          if (!retried && request.reusedSocket && error.code === 'ECONNRESET') return attempt(true);
          errors++;
          resolve();
        });
      };
      attempt(false);
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };
  const interval = 1000 / rate;
  const start = performance.now();
  let sentCount = 0;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    // Catch up on every send that is due: a late timer must not thin out the load.
    while (start + sentCount * interval <= performance.now()) {
      sentCount++;
      send();
    }
    timer = setTimeout(tick, Math.max(0, start + sentCount * interval - performance.now()));
  };
  tick();
  return {
    async stop() {
      clearTimeout(timer);
      await Promise.all([...inFlight]);
      const mainThread = timesBetween(threadBefore, pid === undefined ? null : mainThreadTimes(pid));
      agent.destroy();
      const sorted = Float64Array.from(latencies).sort();
      const unexpectedStatus = Object.entries(statusCodes).reduce((sum, [code, count]) => (Number(code) === expectedStatus ? sum : sum + count), 0);
      return {
        responses: sorted.length,
        p50Ms: percentile(sorted, 0.5),
        p99Ms: percentile(sorted, 0.99),
        maxMs: sorted.length === 0 ? NaN : sorted[sorted.length - 1],
        statusCodes,
        unexpectedStatus,
        errors,
        timeline,
        mainThread,
      };
    },
  };
}
