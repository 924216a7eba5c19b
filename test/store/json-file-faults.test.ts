import { open, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { createPlatform } from '../../src/core/platform.js';
import type { SegmentHandle } from '../../src/store/journal.js';
import { createJsonFileStore } from '../../src/store/json-file.js';
import { StoreUnavailableError, type IndexDefinition, type Store } from '../../src/store/types.js';

const folder = await mkdtemp(join(tmpdir(), 'dp-json-faults-'));
afterAll(() => rm(folder, { recursive: true, force: true }));
let n = 0;

const byGroup: IndexDefinition = { by: 'group', order: ['rank'] };

/**
 * A disk whose journal appends can be held and made to fail: `hold()` makes the next datasync wait for
 * `release(error?)`; `failNext(how)` makes the next append fail after writing part of its bytes ('torn')
 * or all of them ('sync': the data is written, the flush fails); `failRepair` makes cutting it off fail too.
 */
function faultyDisk() {
  let held: { gate: Promise<Error | undefined>; open: (error?: Error) => void } | undefined;
  let failing: 'torn' | 'sync' | undefined;
  let failRepair = false;
  const disk = {
    hold() {
      let open!: (error?: Error) => void;
      held = { gate: new Promise((resolve) => (open = resolve)), open };
    },
    release(error?: Error) {
      held!.open(error);
      held = undefined;
    },
    failNext(how: 'torn' | 'sync', repairFails = false) {
      failing = how;
      failRepair = repairFails;
    },
    async openSegment(path: string): Promise<SegmentHandle> {
      const file = await open(path, 'a');
      return {
        async write(bytes, offset, length) {
          if (failing === 'torn') {
            failing = undefined;
            await file.write(bytes, offset, Math.max(1, length >> 1));
            throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          }
          return file.write(bytes, offset, length);
        },
        async datasync() {
          const gate = held?.gate;
          const error = gate && (await gate);
          if (error) throw error;
          if (failing === 'sync') {
            failing = undefined;
            throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
          }
          return file.datasync();
        },
        async truncate(length) {
          if (failRepair) throw Object.assign(new Error('EIO: i/o error, ftruncate'), { code: 'EIO' });
          return file.truncate(length);
        },
        close: () => file.close(),
      };
    },
  };
  return disk;
}

async function openFaulty() {
  const path = join(folder, `faults-${++n}.json`);
  const disk = faultyDisk();
  const logs: string[] = [];
  const store = await createJsonFileStore({ path, openSegment: disk.openSegment, log: (line) => logs.push(line) });
  return { path, disk, store, logs };
}

const put = (store: Store, id: string, rank = 1) => store.write((tx) => tx.put('things', { id, group: 'g', rank }));
const ids = (store: Store) => store.read(async (tx) => (await tx.list('things', { index: byGroup, value: 'g' })).items.map((r) => r.id));
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('JSON-file store: what readers see is on disk', () => {
  it('shows a write to other transactions only once its journal append is durable', async () => {
    const { store, disk } = await openFaulty();
    await put(store, 'a');
    disk.hold();
    const writing = put(store, 'b');
    await tick();
    // Applied in memory, not on disk yet: no reader sees it, in get or list.
    expect(await store.read((tx) => tx.get('things', 'b'))).toBeUndefined();
    expect(await ids(store)).toEqual(['a']);
    disk.release();
    await writing;
    expect(await ids(store)).toEqual(['a', 'b']);
    await store.close();
  });

  it.each(['torn', 'sync'] as const)('rolls back a write whose append fails (%s), and every write that read it', async (how) => {
    const { path, store, disk, logs } = await openFaulty();
    await put(store, 'a');
    disk.hold();
    disk.failNext(how);
    const failed = put(store, 'b', 2);
    await tick();
    // Queued behind it while it waits for the disk: a write that read b, and one that read nothing of it.
    const readB = store.write(async (tx) => {
      const b = await tx.get('things', 'b');
      await tx.put('things', { id: 'c', group: 'g', rank: 3, sawB: b !== undefined });
    });
    const noChange = store.write(async (tx) => (await tx.get('things', 'b')) !== undefined);
    await tick();
    expect(await ids(store)).toEqual(['a']);
    disk.release();
    await expect(failed).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(readB).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(noChange).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(await ids(store)).toEqual(['a']);
    expect(logs.join('\n')).toMatch(/rolled back 2 unacknowledged transactions/);

    // The store goes on: later writes are acknowledged, and reopening finds exactly what was acknowledged.
    await put(store, 'd', 4);
    expect(await ids(store)).toEqual(['a', 'd']);
    await store.close();
    const reopened = await createJsonFileStore({ path });
    expect(await ids(reopened)).toEqual(['a', 'd']);
    await reopened.close();
  });

  it('refuses writes once a failed append cannot be cut off, keeps serving reads, and reopens to what was acknowledged', async () => {
    const { path, store, disk, logs } = await openFaulty();
    await put(store, 'a');
    await expect(store.ready()).resolves.toBeUndefined();
    disk.failNext('torn', true);
    await expect(put(store, 'b')).rejects.toThrow(/could not be saved to disk/);
    await expect(put(store, 'c')).rejects.toThrow(/restart to reopen it/);
    // Not ready (a readiness probe says so, and why) until reopened.
    await expect(store.ready()).rejects.toThrow(/restart to reopen it/);
    expect(await ids(store)).toEqual(['a']);
    expect(logs.join('\n')).toMatch(/cannot take writes/);
    await store.close();
    // Recovery stops at the torn entry: only the acknowledged write is there.
    const reopened = await createJsonFileStore({ path, log: () => undefined });
    expect(await ids(reopened)).toEqual(['a']);
    await put(reopened, 'e');
    expect(await ids(reopened)).toEqual(['a', 'e']);
    await expect(reopened.ready()).resolves.toBeUndefined();
    await reopened.close();
  });

  it('answers a write that could not be saved with a 503 and changes nothing', async () => {
    const { store, disk } = await openFaulty();
    const platform = createPlatform({ store });
    const { userId, organizationId } = await platform.initialize({ title: 'Acme', email: 'ada@acme.test' });
    const api = platform.as(userId);
    disk.failNext('sync');
    const error = await api.createTeam({ organizationId, title: 'Writers' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, message: expect.stringMatching(/could not be saved to disk \(EIO/) });
    expect((await api.listTeams({ organizationId })).count).toBe(0);
    await api.createTeam({ organizationId, title: 'Writers' });
    expect((await api.listTeams({ organizationId })).count).toBe(1);
    await platform.close();
  });
});
