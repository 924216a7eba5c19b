/**
 * Child process: the bundled server over a seeded data file (`server-under-test.ts <path>`). It opens
 * the file with the JSON-file store, as `npm start` does, so every write is durable (fsynced) before
 * it is answered, and serves it with serve() from the node:http adapter. Unlike `npm start` it logs
 * no line per request: the bench measures the API, not a terminal.
 */
import { serve } from '../src/adapters/node-http/index.js';
import { createPlatform } from '../src/core/platform.js';
import { createJsonFileStore } from '../src/store/json-file.js';
import { runAsChild } from './child.js';

/** What the server under test reports. */
export interface ServerInfo {
  url: string;
  /** How long opening the data file took. */
  openMs: number;
  /** The heap after opening, in MB. */
  heapMb: number;
}

runAsChild<ServerInfo>(async () => {
  const started = performance.now();
  const store = await createJsonFileStore({ path: process.argv[2] });
  const platform = createPlatform({ store });
  const openMs = Math.round(performance.now() - started);
  const running = await serve({ platform, port: 0, host: '127.0.0.1' });
  return {
    info: { url: running.url, openMs, heapMb: Math.round(process.memoryUsage().heapUsed / 1e6) },
    async stop() {
      await running.close();
      await platform.close();
    },
  };
});
