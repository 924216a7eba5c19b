import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreLockedError, acquireLock } from '../../src/store/lock-file.js';
import { currentProcess, type ProcessIdentity } from '../../src/store/process-identity.js';
import { cleanUp, killToZombie, start, startUnreaped, tempDir, type Child } from '../process/spawn.js';

afterEach(cleanUp);

const linux = process.platform === 'linux';
const me = await currentProcess();
const OTHER_BOOT = '00000000-0000-4000-8000-000000000000';

/** A data file path in a fresh folder, with `<path>.lock` holding `lock` when given. */
function dataFile(lock?: string): string {
  const path = join(tempDir(), 'data.json');
  if (lock !== undefined) writeFileSync(`${path}.lock`, lock);
  return path;
}

/** The lock file's holder. */
function holderOf(path: string): ProcessIdentity {
  return JSON.parse(readFileSync(`${path}.lock`, 'utf8'));
}

/** The start time of a process, from /proc. */
function startTimeOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}

/** The lock child (test/store/lock-child.ts) on `path`; resolves once it printed `ready`, `locked` or `refused`. */
async function lockChild(path: string, when: 'now' | 'on-signal' = 'now'): Promise<Child> {
  const child = start(process.execPath, ['--import', 'tsx', 'test/store/lock-child.ts', path, when]);
  await child.waitFor(when === 'now' ? /^(locked|refused)/m : /^ready$/m);
  return child;
}

describe('acquireLock', () => {
  it('writes who holds the lock, refuses this same process a second time, and takes it again once released', async () => {
    const path = dataFile();
    const release = await acquireLock(path);
    expect(holderOf(path)).toEqual(me);
    if (linux) expect(me).toEqual({ pid: process.pid, bootId: expect.stringMatching(/^[0-9a-f-]{36}$/), startTime: expect.stringMatching(/^\d+$/) });
    const again = await acquireLock(path).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(StoreLockedError);
    expect((again as Error).message).toContain(`in use by process ${process.pid}`);
    await release();
    expect(existsSync(`${path}.lock`)).toBe(false);
    await (await acquireLock(path))();
  });

  describe.skipIf(!linux)('takes over a lock whose process no longer runs, whatever pid it names', () => {
    it.each([
      ['this process\'s pid, from an earlier boot', () => ({ ...me, bootId: OTHER_BOOT })],
      ['this process\'s pid, from an earlier process (a container restarted as the same pid)', () => ({ ...me, startTime: String(Number(me.startTime) + 1) })],
      ['pid 1, from an earlier boot', () => ({ pid: 1, bootId: OTHER_BOOT, startTime: startTimeOf(1) })],
      ['pid 1, from an earlier process', () => ({ pid: 1, bootId: me.bootId, startTime: String(Number(startTimeOf(1)) + 1) })],
      ['a pid no process has', () => ({ pid: 999_999_999, bootId: me.bootId, startTime: '1' })],
    ])('%s', async (_, forged) => {
      const path = dataFile(JSON.stringify(forged()));
      const release = await acquireLock(path);
      expect(holderOf(path)).toEqual(me);
      await release();
    });

    it.each([
      ['a bare pid (an earlier version\'s lock) that is this process\'s', () => String(process.pid)],
      ['a bare pid no process has', () => '999999999'],
      ['not a lock at all', () => '{"pid":'],
      ['pid 0', () => JSON.stringify({ pid: 0, bootId: me.bootId, startTime: '1' })],
    ])('and one that names %s', async (_, forged) => {
      const path = dataFile(forged());
      await (await acquireLock(path))();
    });

    it('one held by a zombie (killed, not yet reaped by its parent)', async () => {
      const path = dataFile();
      const holder = await startUnreaped(['test/store/lock-child.ts', path]);
      await holder.parent.waitFor(/^locked/m);
      expect(holderOf(path).pid).toBe(holder.pid);
      await killToZombie(holder);
      await (await acquireLock(path))();
    });

    it('and leaves no file of its own behind', async () => {
      const path = dataFile(JSON.stringify({ ...me, bootId: OTHER_BOOT }));
      const release = await acquireLock(path);
      await release();
      expect(readdirSync(join(path, '..'))).toEqual([]);
    });
  });

  it.skipIf(!linux)('refuses a lock that names a live process: pid 1 as it runs now', async () => {
    const path = dataFile(JSON.stringify({ pid: 1, bootId: me.bootId, startTime: startTimeOf(1) }));
    await expect(acquireLock(path)).rejects.toThrow(`${path} is in use by process 1 (a running docs-platform server or CLI)`);
  });

  it('refuses a lock another live process holds, with the message that names it', async () => {
    const path = dataFile();
    const holder = await lockChild(path);
    const [, pid] = /^locked (\d+)/m.exec(holder.stdout)!;
    const refused = await acquireLock(path).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StoreLockedError);
    expect((refused as Error).message).toBe(
      `${path} is in use by process ${pid} (a running docs-platform server or CLI). ` +
        'Stop that process first: only one process may open a data file at a time.',
    );
  });

  // Unlinking a stale lock and creating one's own fails this: a taker that read the stale lock before another
  // replaced it unlinks the new one, and two hold the lock.
  it('lets exactly one of many takers have a stale lock they all found at once, in one process', { timeout: 30_000 }, async () => {
    for (let round = 0; round < 100; round++) {
      const path = dataFile(JSON.stringify({ pid: 999_999_999, bootId: me.bootId, startTime: '1' }));
      const outcomes = await Promise.allSettled(Array.from({ length: 16 }, () => acquireLock(path)));
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(StoreLockedError);
      expect(holderOf(path)).toEqual(me);
    }
  });

  it('lets exactly one of several processes started at once have a stale lock', { timeout: 60_000 }, async () => {
    const path = dataFile(JSON.stringify({ pid: 999_999_999, bootId: me.bootId, startTime: '1' }));
    const takers = await Promise.all(Array.from({ length: 5 }, () => lockChild(path, 'on-signal')));
    for (const taker of takers) taker.signal('SIGUSR1');
    await Promise.all(takers.map((taker) => taker.waitFor(/^(locked|refused)/m)));
    const winners = takers.filter((taker) => /^locked/m.test(taker.stdout));
    expect(winners).toHaveLength(1);
    expect(holderOf(path).pid).toBe(winners[0]!.pid);
    for (const taker of takers) if (taker !== winners[0]) expect(taker.stdout).toContain(`in use by process ${winners[0]!.pid}`);
  });
});
