/**
 * Child process: the bundled server's platform (openServerPlatform: the JSON-file store, blobs beside it,
 * a pool of worker threads) over a seeded data file (`heavy-server.ts <path> [inline]`), served on a free
 * port. With `inline`, jobs run on the main thread instead (BENCH_HEAVY_INLINE=1), for comparison.
 */
import { serve } from '../src/adapters/node-http/index.js';
import { openServerPlatform } from '../src/cli/run-server.js';
import { inlineWorkers } from '../src/core/workers.js';
import { runAsChild } from './child.js';

runAsChild<{ url: string }>(async () => {
  // The sources are served on 127.0.0.1, which the server's outbound fetch reaches only when allowed.
  const settings = { data: process.argv[2], fetchAllow: '127.0.0.1' };
  const platform = await openServerPlatform(settings, process.argv[3] === 'inline' ? inlineWorkers : undefined);
  const running = await serve({ platform, port: 0, host: '127.0.0.1' });
  return {
    info: { url: running.url },
    async stop() {
      await running.close();
      await platform.close();
    },
  };
});
