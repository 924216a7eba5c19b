import cluster, { type Worker } from 'node:cluster';
import { createPlatform } from '../core/platform.js';
import { isInitialized } from '../core/setup/operator.js';
import { startWarnings } from './environment.js';
import { isPostgresUrl, openData, shownData } from './open-data.js';
import { runServer } from './run-server.js';
import type { ServerSettings } from './server-settings.js';

/** Thrown when a cluster is asked of data only one process can open: a usage error (exit 2). */
export class ClusterNeedsPostgresError extends Error {
  constructor() {
    super('--workers needs a PostgreSQL database (--data postgres://...): a JSON data file is open in one process at a time');
    this.name = 'ClusterNeedsPostgresError';
  }
}

/** A message from a worker process to the primary. */
type WorkerMessage = { type: 'listening'; url: string };

/**
 * Runs `count` server processes on one port with node:cluster (the primary hands connections to them in
 * turn), over one PostgreSQL database; in a worker process, runs that worker's server. The primary creates
 * the organization on a first start (once, before any worker can), prints the listening line once all
 * are up, starts a new worker for one that dies, and on SIGTERM or SIGINT stops them all gracefully.
 */
export async function runCluster(settings: ServerSettings, count: number, print: (line: string) => void): Promise<void> {
  if (cluster.isWorker) {
    await runServer(settings, (line) => {
      const listening = /^docs-platform listening on (\S+)/.exec(line);
      if (listening) process.send?.({ type: 'listening', url: listening[1] } satisfies WorkerMessage);
    });
    return;
  }
  if (!isPostgresUrl(settings.data)) throw new ClusterNeedsPostgresError();
  // Said once here: a worker's print passes on only its listening line.
  for (const line of startWarnings(settings)) print(line);
  await initializeOnce(settings.data, print);

  let stopping: NodeJS.Signals | undefined;
  let ready = 0;
  const start = (): Worker => {
    const worker = cluster.fork();
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'listening' && ++ready === count) {
        print(`docs-platform listening on ${message.url} with ${count} worker processes (data: ${shownData(settings.data)})`);
      }
    });
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      print(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`);
      ready--;
      start();
    });
    return worker;
  };
  for (let i = 0; i < count; i++) start();

  stopping = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  print(`${stopping}: stopping ${count} worker processes, each finishing its in-flight requests`);
  const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
  const outcomes = await Promise.all(
    workers.map(
      (worker) =>
        new Promise<string>((resolve) => {
          // A worker still starting dies of the signal itself, which is as good as a graceful stop.
          const outcome = (code: number | null, signal: string | null) => (code === 0 || signal === stopping ? 'ok' : (signal ?? `code ${code}`));
          // The signal may have reached the process group, and a worker may be gone already.
          if (worker.isDead()) return resolve(outcome(worker.process.exitCode, worker.process.signalCode));
          worker.once('exit', (code, signal) => resolve(outcome(code, signal)));
          // One sent to the primary alone is passed on.
          worker.process.kill(stopping);
        }),
    ),
  );
  const failed = outcomes.filter((outcome) => outcome !== 'ok');
  if (failed.length > 0) throw new Error(`${failed.length} worker processes did not stop gracefully (${failed.join(', ')})`);
  print(`docs-platform stopped: every request answered, data saved to ${shownData(settings.data)}`);
}

/** Creates the organization, its owner and a token on a first start, and prints the token once. */
async function initializeOnce(data: string, print: (line: string) => void): Promise<void> {
  const platform = createPlatform(await openData(data));
  try {
    if (await isInitialized(platform.store)) return;
    const created = await platform.initialize();
    print(`First start: created organization ${created.organizationId} and its owner ${created.userId} (role admin).`);
    print(`API token of the owner (shown once, keep it safe): ${created.token}`);
  } finally {
    await platform.close();
  }
}
