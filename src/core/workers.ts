import { ApiError } from './errors.js';
import type { Job } from './job.js';

/**
 * The port that runs jobs (job.ts): injected through `createPlatform({ workers })`. The default runs each job
 * in-process (`inlineWorkers`), which works in every runtime but holds the event loop while it runs; the
 * bundled server injects a pool of worker threads (src/workers/pool.ts), so that no request waits behind
 * another's heavy work.
 */
export interface Workers {
  /**
   * Runs a job and resolves to its output, or rejects with its error (an ApiError keeps its status and
   * message; a job over the time or memory one job may use is a JobLimitError). `signal` cancels it: a queued
   * job never starts, a running one in a thread is stopped.
   */
  run<I, O>(job: Job<I, O>, input: I, signal?: AbortSignal): Promise<O>;
  /** Stops running jobs: queued and running ones are rejected; resolves once nothing runs any more. */
  close(): Promise<void>;
}

/** A job went over the time or memory one job may use: 422, naming the job and the limit. */
export class JobLimitError extends ApiError {
  constructor(what: string, limit: string) {
    super(422, `${what} went over ${limit}, the most one job may use`);
    this.name = 'JobLimitError';
  }
}
