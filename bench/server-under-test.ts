/**
 * Child process: the bundled server over seeded data (`server-under-test.ts <data> [processes]`). A JSON
 * data file is opened with the JSON-file store, as `npm start` does, so every write is durable (fsynced)
 * before it is answered; a PostgreSQL URL (`postgres://…?schema=…`) with the PostgreSQL store, as
 * `--data postgres://…` does, and with `processes` above 1 that many worker processes serve one port
 * through node:cluster, as `serve --workers N` does. Each serves with serve() from the node:http adapter.
 * It serves as `npm start` on the internet does: one pino JSON line per request, written to `log` (a file, as a
 * log shipper's pipe would take them; not a terminal), and each token's budget counted with X-RateLimit-*
 * headers on every answer, as DOCS_PLATFORM_RATE_LIMIT turns them on (a budget no case reaches). With `log` `-` (BENCH_BARE=1) it serves without either.
 */
import cluster, { type Worker } from 'node:cluster';
import { serve } from '../src/adapters/node-http/index.js';
import { createLogger, pinoRequestLogger } from '../src/adapters/node-http/pino-log.js';
import { turnBatchedLines } from '../src/adapters/node-http/turn-batched-lines.js';
import { openData } from '../src/cli/open-data.js';
import { createPlatform } from '../src/core/platform.js';
import { createJsonFileStore } from '../src/store/json-file.js';
import { runAsChild } from './child.js';

/** What the server under test reports. */
export interface ServerInfo {
  url: string;
  /** How long opening the data took (the slowest process's). */
  openMs: number;
  /** The heap after opening, in MB (of all processes). */
  heapMb: number;
  /** The worker processes that serve, when there are several (the primary only hands them connections). */
  workerPids?: number[];
}

const data = process.argv[2];
const processes = Number(process.argv[3] ?? 1);
/** Where request logs go; `-` for none. */
const log = process.argv[4] ?? '-';

/** A budget a minute that no case spends: the limiter counts every request and refuses none. */
const UNREACHED_BUDGET = 1e12;

/** What the bundled server adds to serve(): request logs, and rate limits when set (see runServer in src/cli/run-server.ts). */
function operating() {
  if (log === '-') return {};
  // As createLogger() writes to stdout.
  const logger = createLogger({ destination: turnBatchedLines(log) });
  return { logger: pinoRequestLogger(logger), rateLimit: { perMinute: UNREACHED_BUDGET } };
}

/** One server process over the data. */
async function startServer(): Promise<{ info: ServerInfo; stop: () => Promise<void> }> {
  const started = performance.now();
  const platform = data.startsWith('postgres') ? createPlatform(await openData(data)) : createPlatform({ store: await createJsonFileStore({ path: data }) });
  const openMs = Math.round(performance.now() - started);
  const running = await serve({ platform, port: 0, host: '127.0.0.1', ...operating() });
  return {
    info: { url: running.url, openMs, heapMb: Math.round(process.memoryUsage().heapUsed / 1e6) },
    async stop() {
      await running.close();
      await platform.close();
    },
  };
}

/**
 * The cluster's primary: forks the workers and waits until each serves. A worker's listen on port 0 is
 * the primary's one socket, so every worker reports the same URL.
 */
async function startCluster(): Promise<{ info: ServerInfo; stop: () => Promise<void> }> {
  const workers: Worker[] = [];
  const exited = (worker: Worker) => new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve())));
  const stop = () => Promise.all(workers.map((worker) => (worker.process.kill('SIGTERM'), exited(worker)))).then(() => undefined);
  try {
    const infos = await Promise.all(
      Array.from({ length: processes }, () => {
        const worker = cluster.fork();
        workers.push(worker);
        return new Promise<ServerInfo>((resolve, reject) => {
          worker.once('exit', (code) => reject(new Error(`a worker exited before it served (code ${code})`)));
          worker.once('message', (message: { type: string; info?: ServerInfo; message?: string }) =>
            message.type === 'ready' ? resolve(message.info!) : reject(new Error(message.message)),
          );
        });
      }),
    );
    const urls = new Set(infos.map((info) => info.url));
    if (urls.size !== 1) throw new Error(`the workers listen on ${[...urls].join(', ')}, not one port`);
    return {
      info: {
        url: infos[0].url,
        openMs: Math.max(...infos.map((info) => info.openMs)),
        heapMb: infos.reduce((sum, info) => sum + info.heapMb, 0),
        workerPids: workers.map((worker) => worker.process.pid!),
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

// A worker reports to the primary as a child reports to the bench (runAsChild), and stops on its SIGTERM.
runAsChild<ServerInfo>(processes > 1 && cluster.isPrimary ? startCluster : startServer);
