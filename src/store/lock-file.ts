import { open, readFile, unlink } from 'node:fs/promises';

/** Thrown when another live process holds a data file. */
export class StoreLockedError extends Error {
  constructor(
    readonly path: string,
    readonly pid: number,
  ) {
    super(
      `${path} is in use by process ${pid} (a running docs-platform server or CLI). ` +
        'Stop that process first: only one process may open a data file at a time.',
    );
    this.name = 'StoreLockedError';
  }
}

/**
 * Takes the lock file `<path>.lock` holding this process's pid. A lock left by a process that no longer
 * runs (a crash, `kill -9`) is taken over. Resolves to a function that releases the lock.
 */
export async function acquireLock(path: string): Promise<() => Promise<void>> {
  const lockPath = `${path}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const file = await open(lockPath, 'wx');
      await file.writeFile(String(process.pid));
      await file.close();
      return () => unlink(lockPath).catch(() => undefined);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(await readFile(lockPath, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(pid) && (pid === process.pid || isRunning(pid))) throw new StoreLockedError(path, pid);
      await unlink(lockPath).catch(() => undefined);
    }
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
