import { readdir, readFile } from 'node:fs/promises';

/**
 * How much CPU the rest of the machine used while a case ran. The bench owns both cores of a 2-core
 * machine (autocannon on one, the server on the other), so any other busy process (a test run, a
 * build) takes CPU from one of them and lowers the figures. The load average says so only vaguely
 * and late; this counts it, from Linux's /proc: all busy CPU time, minus the bench's own process,
 * the server's (all its processes) and, when asked, PostgreSQL's. Elsewhere it reports null.
 */

/** CPU figures of one interval, in cores (1 = one core busy for the whole interval). */
export interface CpuUsage {
  /** The server's processes (every thread of them). */
  server: number;
  /** PostgreSQL's processes (named `postgres`: every backend, whoever it serves), when counted. */
  database?: number;
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
  /** Ticks of each PostgreSQL process, by pid. */
  database: Map<number, number>;
}

/** A process's CPU ticks (user and system) and its command name. */
async function statOf(pid: number | 'self'): Promise<{ name: string; ticks: number }> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { name: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')), ticks: Number(fields[11]) + Number(fields[12]) };
}

const ticksOf = async (pid: number | 'self') => (await statOf(pid)).ticks;

/** The ticks of every process named `postgres` (one that ends while read is skipped). */
async function databaseTicks(): Promise<Map<number, number>> {
  const ticks = new Map<number, number>();
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  await Promise.all(
    pids.map(async (pid) => {
      const stat = await statOf(pid).catch(() => null);
      if (stat?.name === 'postgres') ticks.set(pid, stat.ticks);
    }),
  );
  return ticks;
}

async function snapshot(pids: (number | 'self')[], database: boolean): Promise<Snapshot> {
  const [line] = (await readFile('/proc/stat', 'utf8')).split('\n');
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system + irq + softirq;
  const processes = await Promise.all(pids.map(ticksOf));
  return { busy, steal, total: busy + idle + iowait + steal, processes, database: database ? await databaseTicks() : new Map() };
}

/**
 * Starts counting; the returned function ends the interval. Both resolve to null where /proc is missing.
 * `server` is the server's process or processes; `benchPid` is the process counted as the bench (default
 * this one); `database` counts PostgreSQL's processes apart from the others.
 */
export async function startCpuCount(
  server: number | readonly number[],
  benchPid: number | 'self' = 'self',
  database = false,
): Promise<() => Promise<CpuUsage | null>> {
  const pids: (number | 'self')[] = [benchPid, ...(typeof server === 'number' ? [server] : server)];
  const before = await snapshot(pids, database).catch(() => null);
  const cores = before ? (await readFile('/proc/stat', 'utf8')).split('\n').filter((line) => /^cpu\d/.test(line)).length : 0;
  return async () => {
    const after = before && (await snapshot(pids, database).catch(() => null));
    if (!before || !after) return null;
    // /proc/stat counts every core's ticks: the interval's length in core-ticks divided by cores is its wall length in ticks.
    const wall = (after.total - before.total) / cores;
    const spent = (at: number) => (after.processes[at] - before.processes[at]) / wall;
    const bench = spent(0);
    let server = 0;
    for (let at = 1; at < pids.length; at++) server += spent(at);
    // A backend that began during the interval counts from zero.
    let ticks = 0;
    for (const [pid, now] of after.database) ticks += now - (before.database.get(pid) ?? 0);
    const busy = (after.busy - before.busy) / wall;
    const usage: CpuUsage = { server, bench, others: 0, steal: (after.steal - before.steal) / wall };
    if (database) usage.database = ticks / wall;
    usage.others = Math.max(0, busy - server - bench - (usage.database ?? 0));
    return usage;
  };
}
