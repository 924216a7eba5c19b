import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker, type TransferListItem } from 'node:worker_threads';
import type { Job } from '../core/job.js';
import { errorOf, type JobResult } from '../core/jobs.js';
import { JobLimitError, type Workers } from '../core/workers.js';
import type { JobMessage } from './worker.js';

/**
 * A pool of worker threads that runs the platform's jobs (the `Workers` port, core/workers.ts) off the main
 * thread, for Node: `createPlatform({ store, workers: createWorkerPool() })`. Threads start when jobs come and
 * end after a while without one; each runs one job at a time, the others wait in order. A job that uses
 * more than its time of work (its thread's CPU time, so that a job slowed by a busy machine is not cut
 * short; wall time where the CPU time cannot be read, and a generous wall time in any case), or whose thread
 * runs out of its memory, is stopped (its thread ends) and fails with a 422 naming the limit.
 *
 * Why not piscina: it loads its task module by file path (require, then import), so running from TypeScript
 * (npm start, vitest) would need a plain JavaScript shim in src/ and a build step that copies it into dist/.
 * This pool starts each thread from a small module in a data: URL that registers tsx only when given a .ts
 * module; the rest (a queue, lazy threads that idle out, limits, cancelling by ending the thread) is short.
 */

/** How a pool is sized and limited. */
export interface WorkerPoolOptions {
  /**
   * How many threads run jobs at once. Default: DOCS_PLATFORM_WORKER_THREADS, else one fewer than the
   * machine's cores (at least 1), leaving a core to the main thread.
   */
  readonly threads?: number;
  /** How long a thread without a job lives, in milliseconds; default 30 seconds. */
  readonly idleTimeoutMs?: number;
  /** How much CPU time one job may use, in milliseconds; default 60 seconds. */
  readonly jobTimeoutMs?: number;
  /** How long one job may run in all (waiting for a core included), in milliseconds; default 5 times jobTimeoutMs. */
  readonly jobWallTimeoutMs?: number;
  /**
   * The CPU time a thread has used so far, in milliseconds, by its operating-system id; undefined where it
   * cannot be read (the job's wall time counts then). Default: threadCpuTime (Linux). Tests give their own.
   */
  readonly cpuTime?: (thread: number) => number | undefined;
  /** The most heap (V8 old generation) one thread may use, in MB; default 1024. */
  readonly jobMemoryMb?: number;
  /**
   * How much lower the threads' scheduling priority is than the process's (nice, Linux only); default 10, so
   * that on a busy machine the main thread answering requests gets a core before a job does. 0 keeps it.
   */
  readonly niceIncrement?: number;
  /**
   * How many threads start with the pool and stay when idle (at most `threads`); default 0, every thread
   * starts with a job. A thread's start (its isolate, then loading the jobs' libraries, ~0.5 s of CPU)
   * otherwise comes with the first job after a while without one, and on a small machine its first part,
   * before the thread lowers its priority, competes with the requests being answered. A warm thread also
   * prepares the jobs (Job.prepare: the OpenAPI validator's schemas), whose code V8's helper threads would
   * otherwise compile during the first job, at the main thread's priority. The bundled server keeps one.
   */
  readonly warmThreads?: number;
}

/** The defaults of the pool's limits. */
export const DEFAULT_JOB_TIMEOUT_MS = 60_000;
const WALL_TIMES_CPU = 5;
export const DEFAULT_JOB_MEMORY_MB = 1024;
const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
const DEFAULT_NICE_INCREMENT = 10;

/**
 * The module each thread starts from. It imports the worker module it is given (worker.ts under tsx and
 * vitest, worker.js in the built package); a .ts module that Node cannot load by itself (the thread was not
 * started with tsx's loader: vitest's workers, an embedder's `node` without `--import tsx`) is loaded after
 * registering tsx's ESM loader in the thread (under `node --import tsx` the thread has the loader already).
 */
const BOOTSTRAP = new URL(
  `data:text/javascript,${encodeURIComponent(`
import { workerData } from 'node:worker_threads';
try {
  await import(workerData.module);
} catch (error) {
  if (error?.code !== 'ERR_UNKNOWN_FILE_EXTENSION' || !workerData.module.endsWith('.ts')) throw error;
  const { register } = await import(workerData.tsx);
  register();
  // Another URL: the failed import of the first one stays cached as failed.
  await import(workerData.module + '?tsx');
}`)}`,
);

/** The worker module next to this one, in the same form (.ts from source, .js when built). */
const WORKER_MODULE = new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url).href;

/** Where tsx's ESM API is, for a thread that must load TypeScript; undefined when tsx is not installed (a built package). */
function tsxApi(): string | undefined {
  try {
    return import.meta.resolve('tsx/esm/api');
  } catch {
    return undefined;
  }
}

/** The number of threads: the option, else DOCS_PLATFORM_WORKER_THREADS, else cores - 1 (at least 1). */
export function poolSize(threads = process.env.DOCS_PLATFORM_WORKER_THREADS): number {
  if (threads === undefined || threads === '') return Math.max(1, availableParallelism() - 1);
  const size = Number(threads);
  if (!Number.isInteger(size) || size < 1) throw new Error(`DOCS_PLATFORM_WORKER_THREADS (or the threads option) must be a whole number of at least 1, not ${JSON.stringify(threads)}`);
  return size;
}

/**
 * The CPU time a thread of this process has used, in milliseconds, from Linux's scheduler statistics (in
 * nanoseconds, where /proc's stat counts 10 ms ticks); undefined elsewhere.
 */
export function threadCpuTime(thread: number): number | undefined {
  try {
    return Number(readFileSync(`/proc/self/task/${thread}/schedstat`, 'latin1').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}

/** A job waiting for, or running in, a thread. */
interface Task {
  readonly job: Job<unknown, unknown>;
  readonly input: unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly signal?: AbortSignal;
  onAbort?: () => void;
}

/** A thread and the job it runs, if any. */
interface Thread {
  readonly worker: Worker;
  task?: Task;
  /** Ends the job when it runs past its wall time. */
  deadline?: NodeJS.Timeout;
  /** Checks the job's CPU time now and then. */
  meter?: NodeJS.Timeout;
  /** Whether the thread told its operating-system id (or that it has none): only then does it take jobs. */
  ready?: boolean;
  /** The thread's operating-system id (Linux). */
  id?: number;
  /** The job's CPU time so far: the thread's CPU time (or the wall time) when it started. */
  used?: () => number;
  /** Ends the thread when it has had no job for a while. */
  idle?: NodeJS.Timeout;
  /** A warm thread (warmThreads): it stays when idle, and is replaced when it ends. */
  warm?: boolean;
}

/** A pool of worker threads: the Workers port, and how many threads it has now. */
export interface WorkerPool extends Workers {
  /** The threads alive now, busy or idle. */
  readonly threadCount: number;
}

/** Creates a pool of worker threads that runs jobs (see the module comment). */
export function createWorkerPool(options: WorkerPoolOptions = {}): WorkerPool {
  const size = poolSize(options.threads?.toString());
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const jobTimeoutMs = options.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
  const jobWallTimeoutMs = options.jobWallTimeoutMs ?? jobTimeoutMs * WALL_TIMES_CPU;
  const cpuTime = options.cpuTime ?? threadCpuTime;
  // Often enough that a job stops soon after its time, rarely enough to cost nothing.
  const meterMs = Math.max(1, Math.min(1000, jobTimeoutMs / 10));
  const jobMemoryMb = options.jobMemoryMb ?? DEFAULT_JOB_MEMORY_MB;
  const workerData = { module: WORKER_MODULE, tsx: WORKER_MODULE.endsWith('.ts') ? tsxApi() : undefined, niceIncrement: options.niceIncrement ?? DEFAULT_NICE_INCREMENT };
  const queue: Task[] = [];
  const threads = new Set<Thread>();
  let closed = false;

  /** Ends a task: no more deadline or abort listener; the thread waits for the next one. */
  const release = (thread: Thread): Task | undefined => {
    const { task } = thread;
    clearTimeout(thread.deadline);
    clearInterval(thread.meter);
    thread.task = undefined;
    if (task?.onAbort) task.signal!.removeEventListener('abort', task.onAbort);
    return task;
  };

  /** Ends a thread (its job, if any, fails with `error`), then lets the queue go on. */
  const end = (thread: Thread, error: unknown) => {
    if (!threads.delete(thread)) return;
    clearTimeout(thread.idle);
    release(thread)?.reject(error);
    // A thread that failed to start fails the job it was started for, rather than start another for it.
    if (!thread.ready && error !== undefined) queue.shift()?.reject(error);
    void thread.worker.terminate();
    if (thread.warm && !closed) warmUp();
    dispatch();
  };

  /** A thread waits for the next job: it does not keep the process alive, and ends if none comes for a while (unless warm). */
  const rest = (thread: Thread) => {
    thread.worker.unref();
    if (!thread.warm) thread.idle = setTimeout(() => end(thread, undefined), idleTimeoutMs).unref();
  };

  /** Starts warm threads up to warmThreads. */
  const warmUp = () => {
    const wanted = Math.min(size, options.warmThreads ?? 0);
    for (let warm = [...threads].filter((thread) => thread.warm).length; warm < wanted; warm++) {
      rest(spawn(true));
    }
  };

  /** Starts a thread; a warm one also prepares the jobs (Job.prepare) once it has loaded them. */
  const spawn = (warm = false): Thread => {
    const worker = new Worker(BOOTSTRAP, { workerData: { ...workerData, prepare: warm }, resourceLimits: { maxOldGenerationSizeMb: jobMemoryMb } });
    const thread: Thread = warm ? { worker, warm } : { worker };
    worker.on('message', (result: JobResult | { thread: number | null }) => {
      if (!threads.has(thread)) return;
      if ('thread' in result) {
        if (result.thread !== null) thread.id = result.thread;
        thread.ready = true;
        rest(thread);
        dispatch();
        return;
      }
      // A job that finished past its time of work fails as one stopped would: the limit does not depend on when it was looked at.
      if (overTime(thread)) return;
      const task = release(thread);
      if (task) {
        if (result.ok) task.resolve(result.value);
        else task.reject(errorOf(result, task.job));
      }
      rest(thread);
      dispatch();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const what = thread.task?.job.what ?? 'a job';
      end(thread, error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new JobLimitError(what, `${jobMemoryMb} MB of memory`) : new Error(`${what} failed in its worker thread: ${error.message}`));
    });
    worker.on('exit', (code) => end(thread, new Error(`${thread.task?.job.what ?? 'a job'} failed: its worker thread stopped (exit code ${code})`)));
    threads.add(thread);
    return thread;
  };

  /** The CPU time of a thread now, or the wall time where it cannot be read. */
  const clock = (thread: Thread): { cpu: boolean; now: number } => {
    const cpu = thread.id === undefined ? undefined : cpuTime(thread.id);
    return cpu === undefined ? { cpu: false, now: performance.now() } : { cpu: true, now: cpu };
  };

  /** Ends the thread's job if it used more than its time of work; whether it did. */
  const overTime = (thread: Thread): boolean => {
    if (!thread.task || !thread.used || thread.used() <= jobTimeoutMs) return false;
    end(thread, new JobLimitError(thread.task.job.what, `${jobTimeoutMs / 1000} s of work`));
    return true;
  };

  const start = (thread: Thread, task: Task) => {
    clearTimeout(thread.idle);
    thread.task = task;
    thread.worker.ref();
    const started = clock(thread);
    const startedWall = performance.now();
    // Measured the way it began; by the wall time if that way fails (or a thread's id came later).
    thread.used = () => {
      const now = clock(thread);
      return now.cpu === started.cpu ? now.now - started.now : performance.now() - startedWall;
    };
    thread.meter = setInterval(() => overTime(thread), meterMs);
    thread.deadline = setTimeout(() => end(thread, new JobLimitError(task.job.what, `${jobWallTimeoutMs / 1000} s in all`)), jobWallTimeoutMs);
    if (task.signal) {
      task.signal.removeEventListener('abort', task.onAbort!);
      task.onAbort = () => end(thread, task.signal!.reason);
      task.signal.addEventListener('abort', task.onAbort, { once: true });
    }
    try {
      const message: JobMessage = { name: task.job.name, input: task.input };
      thread.worker.postMessage(message, (task.job.transferInput?.(task.input) ?? []) as unknown as TransferListItem[]);
    } catch (error) {
      // An input that cannot be cloned: the job never started, the thread is still free.
      release(thread);
      rest(thread);
      task.reject(error);
      dispatch();
    }
  };

  warmUp();

  function dispatch(): void {
    while (queue.length > 0 && !closed) {
      const thread = [...threads].find((each) => each.ready && each.task === undefined);
      if (!thread) break;
      start(thread, queue.shift()!);
    }
    // Threads for the jobs left, up to the size: each takes one once it is ready (its id known, so that
    // the job's CPU time is measured from its start).
    const starting = [...threads].filter((each) => !each.ready).length;
    for (let more = Math.min(queue.length - starting, size - threads.size); more > 0 && !closed; more--) spawn();
  }

  return {
    get threadCount() {
      return threads.size;
    },
    run<I, O>(job: Job<I, O>, input: I, signal?: AbortSignal): Promise<O> {
      return new Promise<O>((resolve, reject) => {
        if (closed) throw new Error('The worker pool is closed');
        signal?.throwIfAborted();
        const task: Task = { job: job as Job<unknown, unknown>, input, resolve: resolve as (value: unknown) => void, reject, signal };
        if (signal) {
          // While it waits in the queue; start() replaces this with one that ends its thread.
          task.onAbort = () => {
            queue.splice(queue.indexOf(task), 1);
            reject(signal.reason);
          };
          signal.addEventListener('abort', task.onAbort, { once: true });
        }
        queue.push(task);
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const task of queue.splice(0)) {
        if (task.onAbort) task.signal!.removeEventListener('abort', task.onAbort);
        task.reject(new Error('The worker pool is closed'));
      }
      const ending = [...threads].map((thread) => {
        threads.delete(thread);
        clearTimeout(thread.idle);
        release(thread)?.reject(new Error('The worker pool is closed'));
        return thread.worker.terminate();
      });
      await Promise.all(ending);
    },
  };
}
