import { readFile } from 'node:fs/promises';

/**
 * A process told apart from every other, including a later one that is given the same pid: after a crash
 * the next server often gets the dead one's pid back (in a container, typically 1). `bootId` and
 * `startTime` are null where /proc is absent (macOS, Windows): there only the pid is known.
 */
export interface ProcessIdentity {
  /** The process id. */
  readonly pid: number;
  /** The kernel's boot id (/proc/sys/kernel/random/boot_id): pids and start times only mean something within one boot. */
  readonly bootId: string | null;
  /** The start time in clock ticks since boot (field 22 of /proc/<pid>/stat), as written there. */
  readonly startTime: string | null;
}

/** What /proc/<pid>/stat says of a process: its state letter (field 3) and start time (field 22). */
async function procStat(pid: number): Promise<{ state: string; startTime: string } | null> {
  try {
    const text = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Field 2, the command name, is in parentheses and may itself hold spaces and parentheses.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, startTime: fields[19]! };
  } catch {
    return null;
  }
}

let self: Promise<ProcessIdentity> | undefined;

/** The identity of this process. */
export function currentProcess(): Promise<ProcessIdentity> {
  self ??= (async () => {
    const bootId = await readFile('/proc/sys/kernel/random/boot_id', 'utf8').then((text) => text.trim(), () => null);
    return { pid: process.pid, bootId, startTime: (await procStat(process.pid))?.startTime ?? null };
  })();
  return self;
}

/**
 * Whether the process `holder` names still runs. On Linux that is: the same boot, a process with that pid
 * that is not a zombie, started at the same time. Without /proc it is whether the pid exists, and a holder
 * with this process's pid is taken to be this process (a zombie then counts as running, until reaped).
 */
export async function isRunning(holder: ProcessIdentity): Promise<boolean> {
  const me = await currentProcess();
  // Our own pid: this very process (it opens the file a second time), or an earlier one that had our pid.
  if (holder.pid === me.pid) return holder.bootId === me.bootId && holder.startTime === me.startTime;
  if (holder.bootId !== null && me.bootId !== null && holder.bootId !== me.bootId) return false;
  const stat = await procStat(holder.pid);
  // No /proc, or another user's process hidden by hidepid: ask the kernel whether the pid exists.
  if (stat === null) return signalable(holder.pid);
  // A zombie (Z) or dead (X) process has exited; only its parent has not collected its exit status yet.
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return holder.startTime === null || holder.startTime === stat.startTime;
}

/** Whether a process with this pid exists (EPERM: it does, and belongs to another user). */
function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
