import { readFile } from 'node:fs/promises';

/**
 * How much CPU the rest of the machine used while a case ran. The bench owns both cores of a 2-core
 * machine (autocannon on one, the server on the other), so any other busy process (a test run, a
 * build) takes CPU from one of them and lowers the figures. The load average says so only vaguely
 * and late; this counts it, from Linux's /proc: all busy CPU time, minus the bench's own process and
 * the server's. Elsewhere it reports null.
 */

/** CPU figures of one interval, in cores (1 = one core busy for the whole interval). */
export interface CpuUsage {
  /** The server's process (every thread of it). */
  server: number;
  /** The bench's own process: autocannon. */
  bench: number;
  /** Everything else that ran. */
  others: number;
  /** Time the hypervisor gave to other machines (steal). */
  steal: number;
}

interface Snapshot {
  busy: number;
  steal: number;
  total: number;
  processes: number[];
}

async function ticksOf(pid: number | 'self'): Promise<number> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

async function snapshot(pids: (number | 'self')[]): Promise<Snapshot> {
  const [line] = (await readFile('/proc/stat', 'utf8')).split('\n');
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system + irq + softirq;
  return { busy, steal, total: busy + idle + iowait + steal, processes: await Promise.all(pids.map(ticksOf)) };
}

/**
 * Starts counting; the returned function ends the interval. Both resolve to null where /proc is missing.
 * `benchPid` is the process counted as the bench (default this one).
 */
export async function startCpuCount(serverPid: number, benchPid: number | 'self' = 'self'): Promise<() => Promise<CpuUsage | null>> {
  const pids: (number | 'self')[] = [serverPid, benchPid];
  const before = await snapshot(pids).catch(() => null);
  const cores = before ? (await readFile('/proc/stat', 'utf8')).split('\n').filter((line) => /^cpu\d/.test(line)).length : 0;
  return async () => {
    const after = before && (await snapshot(pids).catch(() => null));
    if (!before || !after) return null;
    // /proc/stat counts every core's ticks: the interval's length in core-ticks divided by cores is its wall length in ticks.
    const wall = (after.total - before.total) / cores;
    const server = (after.processes[0] - before.processes[0]) / wall;
    const bench = (after.processes[1] - before.processes[1]) / wall;
    const busy = (after.busy - before.busy) / wall;
    return { server, bench, others: Math.max(0, busy - server - bench), steal: (after.steal - before.steal) / wall };
  };
}
