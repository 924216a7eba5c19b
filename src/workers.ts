/** docs-platform/workers: the pool of worker threads that runs the platform's CPU-heavy jobs on Node. */
export { createWorkerPool, DEFAULT_JOB_MEMORY_MB, DEFAULT_JOB_TIMEOUT_MS, type WorkerPool, type WorkerPoolOptions } from './workers/pool.js';
export { inlineWorkers } from './core/inline-workers.js';
export { JobLimitError, type Workers } from './core/workers.js';
