/**
 * The code of a worker thread of the pool (pool.ts): runs the jobs it is sent, one at a time, by name from
 * the registry, and posts each one's result back (its output's big byte arrays moved, not copied).
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * Lowers this thread's scheduling priority by `increment` (nice), where a thread has a nice value of its own:
 * Linux, where `/proc/thread-self` names the thread's id. When runnable threads outnumber the cores, the
 * main thread (answering requests) then comes first and jobs take the time left. Elsewhere nothing changes.
 */
function lowerPriority(thread: number | undefined, increment: number): void {
  if (increment <= 0 || thread === undefined) return;
  try {
    setPriority(thread, Math.min(19, getPriority(thread) + increment));
  } catch {
    // Not allowed: the thread keeps the process's priority.
  }
}

/** This thread's operating-system id (Linux: `/proc/thread-self` names it), or undefined elsewhere. */
function threadId(): number | undefined {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return undefined;
  }
}

// Before the registry is loaded: loading it (every job's libraries: pdfkit, yaml, the OpenAPI validator, ...)
// takes ~0.4 s (~0.6 s of CPU with V8's helper threads; ~1.2 s under tsx), which a static import would spend
// at the process's priority, before this module's body runs. A thread pays it at its start, that is with
// the first job after a while without one.
const { niceIncrement = 0, prepare = false } = (workerData ?? {}) as { niceIncrement?: number; prepare?: boolean };
const thread = threadId();
lowerPriority(thread, niceIncrement);
// The pool measures each job's CPU time by this id (pool.ts: threadCpuTime), and sends jobs once told.
parentPort!.postMessage({ thread: thread ?? null });
const { hasJob, prepareJobs, runJob } = await import('../core/jobs.js');

/**
 * The jobs defined above the core, which register themselves as their module loads (core/jobs.ts:
 * registerJobs), each module loaded when one of its jobs first comes: the Git transport's (isomorphic-git),
 * named `gitTransport.*`, and the reader's, since loading the reader (markdown-it's renderer, highlight.js
 * and its languages) would add ~0.7 s under tsx to every thread's start.
 */
const above = new Map<string, Promise<unknown>>();
const loadAbove = (name: string): Promise<unknown> => {
  const area = name.startsWith('gitTransport.') ? 'git' : 'reader';
  let loading = above.get(area);
  if (!loading) above.set(area, (loading = area === 'git' ? import('../outbound/git-jobs.js') : import('../reader/body-job.js')));
  return loading;
};

/** What the pool sends: a job by name and its input. */
export interface JobMessage {
  readonly name: string;
  readonly input: unknown;
}

const port = parentPort!;
port.on('message', async ({ name, input }: JobMessage) => {
  if (!hasJob(name)) await loadAbove(name);
  const { result, transfer } = await runJob(name, input);
  try {
    port.postMessage(result, transfer as ArrayBuffer[]);
  } catch (error) {
    // An output that cannot be cloned is the job's bug: report it rather than crash the thread.
    port.postMessage({ ok: false, message: `its output cannot be sent back: ${(error as Error).message}` });
  }
});
// A warm thread readies its jobs while nothing waits (a job that comes meanwhile runs between two steps).
if (prepare) void prepareJobs();
