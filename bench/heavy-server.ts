/**
 * Child process: the bundled server's platform (openServerPlatform: the JSON-file store, blobs beside it,
 * a pool of worker threads) over a seeded data file (`heavy-server.ts <path> [inline]`), served on a free
 * port. With `inline`, jobs run on the main thread instead (BENCH_HEAVY_INLINE=1), for comparison.
 */
import { writeFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { serve } from '../src/adapters/node-http/index.js';
import { openServerPlatform } from '../src/cli/run-server.js';
import { inlineWorkers } from '../src/core/inline-workers.js';
import { runAsChild } from './child.js';

/**
 * With BENCH_TRACE_GC=<file>: the main thread's garbage collections (start in monotonic µs, as CPU profiles
 * count, duration in ms, kind), written to the file when the server stops, for bench/heavy-trace.ts.
 */
function traceCollections(file: string | undefined): () => void {
  if (!file) return () => undefined;
  // performance.now() counts from the time origin on the monotonic clock: this puts entries on that clock.
  const originUs = Number(process.hrtime.bigint() / 1000n) - performance.now() * 1000;
  const collections: [number, number, number][] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) collections.push([originUs + entry.startTime * 1000, entry.duration, (entry as unknown as { detail: { kind: number } }).detail.kind]);
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    observer.disconnect();
    writeFileSync(file, JSON.stringify(collections));
  };
}

runAsChild<{ url: string }>(async () => {
  const writeCollections = traceCollections(process.env.BENCH_TRACE_GC);
  // The sources are served on 127.0.0.1, which the server's outbound fetch reaches only when allowed.
  const settings = { data: process.argv[2], fetchAllow: '127.0.0.1' };
  const platform = await openServerPlatform(settings, process.argv[3] === 'inline' ? inlineWorkers : undefined);
  const running = await serve({ platform, port: 0, host: '127.0.0.1' });
  return {
    info: { url: running.url },
    async stop() {
      await running.close();
      await platform.close();
      writeCollections();
    },
  };
});
