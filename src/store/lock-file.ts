import { createHash, randomBytes } from 'node:crypto';
import { link, readFile, rename, unlink } from 'node:fs/promises';
import { openPrivate } from './private-files.js';
import { currentProcess, isRunning, type ProcessIdentity } from './process-identity.js';

/**
 * Thrown when another live process holds a data file. `instead` is what to do while it runs, when there is
 * another way (a CLI command that the running server offers over HTTP says which endpoint).
 */
export class StoreLockedError extends Error {
  constructor(
    readonly path: string,
    readonly pid: number,
    instead?: string,
  ) {
    super(
      `${path} is in use by process ${pid} (a running docs-platform server or CLI). ` +
        (instead === undefined
          ? 'Stop that process first: only one process may open a data file at a time.'
          : `While it runs, ${instead}; or stop it first: only one process may open a data file at a time.`),
    );
    this.name = 'StoreLockedError';
  }
}

/**
 * Takes the lock file `<path>.lock`, which names this process: `{"pid","bootId","startTime"}` (see
 * ProcessIdentity). A lock whose process no longer runs is taken over, whatever pid it names: one left by a
 * crash or `kill -9`, by a zombie, or from before a reboot or a container restart that gave its pid to
 * another process, this one included. Resolves to a function that releases the lock.
 */
export async function acquireLock(path: string): Promise<() => Promise<void>> {
  const lockPath = `${path}.lock`;
  const holder = await claim(lockPath, JSON.stringify(await currentProcess()));
  if (holder) throw new StoreLockedError(path, holder.pid);
  return () => unlink(lockPath).catch(() => undefined);
}

/** How many times claim() looks again at a lock that changes under it before giving up. */
const ATTEMPTS = 100;

/** Makes the file at `path` hold `me`; resolves to undefined once it does, or to the live process that holds it. */
async function claim(path: string, me: string): Promise<ProcessIdentity | undefined> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (await place(path, me, 'create')) return undefined;
    const found = await readIfPresent(path);
    if (found === undefined) continue; // released in between
    const holder = parseHolder(found);
    if (holder && (await isRunning(holder))) return holder;
    // Stale. Of the processes that found it, only the one that claims its gate replaces it, and only while it
    // still holds what was found: two processes starting at once never both take it over, and neither
    // replaces a lock the other has just taken. A gate left by a crash is stale in turn, and claimed alike.
    const gate = `${path}.takeover-${createHash('sha256').update(found).digest('hex').slice(0, 16)}`;
    if ((await claim(gate, me)) !== undefined) {
      await new Promise((resolve) => setTimeout(resolve, 10)); // another process is taking over: see what it leaves
      continue;
    }
    try {
      if ((await readIfPresent(path)) === found) {
        await place(path, me, 'replace');
        return undefined;
      }
    } finally {
      await unlink(gate).catch(() => undefined);
    }
  }
  throw new Error(`Could not take the lock ${path}: it kept changing`);
}

/**
 * Puts `content` at `path` in one step, through a temporary file (mode 0600), so that no reader ever sees a
 * lock half written. 'create' resolves to false when `path` exists; 'replace' overwrites it.
 */
async function place(path: string, content: string, how: 'create' | 'replace'): Promise<boolean> {
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const file = await openPrivate(temp, 'wx');
  try {
    await file.writeFile(content).finally(() => file.close());
    await (how === 'create' ? link(temp, path) : rename(temp, path));
    return true;
  } catch (error) {
    if (how === 'create' && (error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The process a lock names; undefined for a file no running process wrote (locks are written whole).
 * A lock of an earlier version holds only the pid.
 */
function parseHolder(text: string): ProcessIdentity | undefined {
  if (/^\d+$/.test(text.trim())) return validPid({ pid: Number(text), bootId: null, startTime: null });
  try {
    const { pid, bootId, startTime } = JSON.parse(text);
    return validPid({ pid, bootId: typeof bootId === 'string' ? bootId : null, startTime: typeof startTime === 'string' ? startTime : null });
  } catch {
    return undefined;
  }
}

/** Pids 0 and below address process groups, not a process. */
function validPid(holder: ProcessIdentity): ProcessIdentity | undefined {
  return Number.isSafeInteger(holder.pid) && holder.pid > 0 ? holder : undefined;
}
