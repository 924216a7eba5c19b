import { readFileSync } from 'node:fs';

/**
 * How long a thread has run on a core and how long it was ready to run but waited for one (Linux's
 * schedstat, in ms). A light request's wait is the server's work only when its main thread ran; when the
 * thread waited for a core, it was the machine's other work (other processes, or the server's own worker and
 * garbage-collection threads). The benches that time light requests report both beside the latencies.
 */
export interface ThreadTimes {
  readonly cpuMs: number;
  readonly waitMs: number;
}

/** A process's main thread's times so far (its thread id is its pid); null where there is no schedstat. */
export function mainThreadTimes(pid: number): ThreadTimes | null {
  try {
    const [cpu, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'latin1').split(' ').map(Number);
    return { cpuMs: cpu / 1e6, waitMs: wait / 1e6 };
  } catch {
    return null;
  }
}

/** What a thread ran and waited between two readings. */
export function timesBetween(before: ThreadTimes | null, after: ThreadTimes | null): ThreadTimes | null {
  return before && after ? { cpuMs: after.cpuMs - before.cpuMs, waitMs: after.waitMs - before.waitMs } : null;
}
