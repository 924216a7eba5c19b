import { inlineWorkers } from '../../src/core/inline-workers.js';
import type { Workers } from '../../src/core/workers.js';
import { createOutboundFetch } from '../../src/outbound/fetch.js';
import { createGitTransport } from '../../src/outbound/git-transport.js';
import type { GitTransport } from '../../src/core/git-sync/transport.js';
import { createWorkerPool } from '../../src/workers/pool.js';

/**
 * Where the Git transport's jobs run in its tests: in-process (the platform's default) and in a worker thread
 * of a pool (the bundled server's), so that the relay of its HTTP to the outbound fetch is tested across
 * threads too.
 */
export const JOB_RUNNERS = ['in-process', 'a worker thread'] as const;
export type JobRunner = (typeof JOB_RUNNERS)[number];

/** The workers of a runner: the pool starts its thread with the first job; `close` ends it. */
export const workersFor = (runner: JobRunner): Workers => (runner === 'in-process' ? inlineWorkers : createWorkerPool({ threads: 1 }));

/** The Node Git transport over the outbound filter (`allow`: what it may reach besides the internet), its jobs on `workers`. */
export const gitTransportOn = (workers: Workers, allow?: string): GitTransport =>
  createGitTransport({ fetch: createOutboundFetch({ ...(allow !== undefined && { allow }), sendBodies: true }), workers });
