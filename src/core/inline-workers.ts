import type { Job } from './job.js';
import { jobNamed } from './jobs.js';
import type { Workers } from './workers.js';

/**
 * Runs jobs in-process, on the caller's thread: the default, in every runtime. Jobs are looked up in the
 * registry as a worker thread looks them up, so that a job missing from it fails here too. No time or memory
 * limit applies (synchronous work cannot be stopped from its own thread); the long jobs pause between slices.
 */
export const inlineWorkers: Workers = {
  async run<I, O>(job: Job<I, O>, input: I, signal?: AbortSignal): Promise<O> {
    signal?.throwIfAborted();
    return (jobNamed(job.name) as Job<I, O>).run(input);
  },
  async close() {},
};
