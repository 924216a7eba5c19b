/**
 * `npx tsx bench/outbound-fetch.ts`: what fetching a 4 MB source costs the main thread, through the global
 * fetch (undici) and through the outbound fetch on node:http (src/outbound/fetch.ts), both read the way
 * the platform reads OpenAPI sources (core/fetch-bytes.ts). The source is served from a worker thread on
 * 127.0.0.1, so the main thread does only the client's work. For each fetch: the longest event-loop turn
 * (a 1 ms monitorEventLoopDelay histogram's max), the main thread's active time (eventLoopUtilization) and
 * the wall time; best, median and worst of BENCH_OUTBOUND_ROUNDS (default 30) rounds after 5 warm-up
 * rounds. The two take turns round by round, so that a busy machine weighs on both alike; on a shared
 * machine the best and the median say more than the worst. Printed only: a measurement, not a test.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { Fetch } from '../src/core/context.js';
import { fetchBytes } from '../src/core/fetch-bytes.js';
import { createOutboundFetch } from '../src/outbound/fetch.js';

const BODY_BYTES = 4 * 1024 * 1024;
const ROUNDS = Number(process.env.BENCH_OUTBOUND_ROUNDS ?? 30);
const WARM_UP = 5;

/** The source server, in a worker thread: a JSON-like text of BODY_BYTES. */
const SERVER = `
const { createServer } = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const body = Buffer.from(JSON.stringify({ openapi: '3.1.0', padding: 'x'.repeat(workerData.bytes - 40) }));
const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
parentPort.on('message', () => server.close(() => process.exit(0)));
`;

interface Round {
  longestTurnMs: number;
  activeMs: number;
  wallMs: number;
}

async function measure(fetch: Fetch, url: string): Promise<Round> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  const ports = { fetch, fetchTimeoutMs: 30_000, closing: new AbortController().signal };
  const elu = performance.eventLoopUtilization();
  const started = performance.now();
  histogram.enable();
  const { bytes } = await fetchBytes(ports, url, 5 * 1024 * 1024);
  // One more timer tick, so that the histogram has seen the last turn.
  await new Promise((resolve) => setTimeout(resolve, 2));
  histogram.disable();
  const wallMs = performance.now() - started;
  if (bytes.byteLength < BODY_BYTES - 100) throw new Error(`read ${bytes.byteLength} bytes`);
  const used = performance.eventLoopUtilization(elu);
  // The histogram counts delay beyond its 1 ms resolution: the turn that held the timer.
  return { longestTurnMs: histogram.max / 1e6, activeMs: used.active, wallMs };
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const summary = (values: number[]) => {
  const order = sorted(values);
  return `${order[0].toFixed(1)} / ${order[Math.floor(order.length / 2)].toFixed(1)} / ${order[order.length - 1].toFixed(1)}`;
};

async function main(): Promise<void> {
  const worker = new Worker(SERVER, { eval: true, workerData: { bytes: BODY_BYTES } });
  const port = await new Promise<number>((resolve) => worker.once('message', resolve));
  const url = `http://127.0.0.1:${port}/openapi.json`;
  const candidates: [string, Fetch][] = [
    ['global fetch (undici)', (input, init) => globalThis.fetch(input, init)],
    ['outbound fetch (node:http)', createOutboundFetch({ allow: '127.0.0.1' })],
  ];
  console.log(`fetching ${BODY_BYTES} bytes from a worker thread on 127.0.0.1, ${ROUNDS} rounds each after ${WARM_UP} warm-up rounds (node ${process.version})\n`);
  for (let i = 0; i < WARM_UP; i++) for (const [, fetch] of candidates) await measure(fetch, url);
  const rounds = candidates.map((): Round[] => []);
  for (let i = 0; i < ROUNDS; i++) {
    // Alternate which goes first, so that neither always follows the other's garbage.
    for (const index of i % 2 ? [1, 0] : [0, 1]) rounds[index].push(await measure(candidates[index][1], url));
  }
  console.log('ms: best / median / worst        longest turn          main-thread active    wall');
  for (const [index, [name]] of candidates.entries()) {
    const column = (pick: (round: Round) => number) => summary(rounds[index].map(pick)).padEnd(22);
    console.log(`${name.padEnd(32)} ${column((round) => round.longestTurnMs)}${column((round) => round.activeMs)}${column((round) => round.wallMs)}`);
  }
  worker.postMessage('stop');
  await new Promise((resolve) => worker.once('exit', resolve));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
