/**
 * The code of a worker thread of the pool (pool.ts): runs the jobs it is sent, one at a time, by name from
 * the registry, and posts each one's result back (its output's big byte arrays moved, not copied).
 */
import { parentPort } from 'node:worker_threads';
import { runJob } from '../core/jobs.js';

/** What the pool sends: a job by name and its input. */
export interface JobMessage {
  readonly name: string;
  readonly input: unknown;
}

const port = parentPort!;
port.on('message', async ({ name, input }: JobMessage) => {
  const { result, transfer } = await runJob(name, input);
  try {
    port.postMessage(result, transfer as ArrayBuffer[]);
  } catch (error) {
    // An output that cannot be cloned is the job's bug: report it rather than crash the thread.
    port.postMessage({ ok: false, message: `its output cannot be sent back: ${(error as Error).message}` });
  }
});
