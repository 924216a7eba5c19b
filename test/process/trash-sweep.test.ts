import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { createPlatform } from '../../src/core/platform.js';
import { TABLES } from '../../src/core/records.js';
import { createJsonFileStore } from '../../src/store/json-file.js';
import { cleanUp, serve, tempDir } from './spawn.js';

// Every test spawns a Node process; on a loaded machine a start can take seconds.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });
afterEach(cleanUp);

const DAY = 24 * 60 * 60 * 1000;

describe('the bundled server sweeps the trash', () => {
  test('purges, when it starts, the spaces deleted more than 7 days ago, and keeps the others', async () => {
    const data = join(tempDir(), 'data.json');
    const clock = manualClock(new Date(Date.now() - 10 * DAY));
    const platform = createPlatform({ store: await createJsonFileStore({ path: data }), clock });
    const { organizationId, userId } = await platform.initialize({ email: 'owner@acme.test' });
    const api = platform.as(userId);
    const expired = await api.createSpace({ organizationId, title: 'Expired' });
    const recent = await api.createSpace({ organizationId, title: 'Recent' });
    await api.deleteSpace({ spaceId: expired.id });
    clock.set(new Date(Date.now() - DAY));
    await api.deleteSpace({ spaceId: recent.id });
    await platform.close();

    const server = await serve(data);
    // Logged through pino, as a JSON line on stdout (not a terminal here).
    const [line] = await server.child.waitFor(/^\{.*purged 1 deleted spaces past their 7 days.*\}$/m, 20_000);
    expect(JSON.parse(line!)).toMatchObject({ level: 30, purged: 1, msg: 'purged 1 deleted spaces past their 7 days' });
    server.child.signal('SIGTERM');
    expect(await server.child.exited).toEqual({ code: 0, signal: null });

    const store = await createJsonFileStore({ path: data });
    const [gone, kept, revision] = await store.read(async (tx) => [
      await tx.get(TABLES.spaces, expired.id),
      await tx.get(TABLES.spaces, recent.id),
      await tx.get(TABLES.revisions, expired.revision),
    ]);
    await store.close();
    expect(gone).toBeUndefined();
    expect(revision).toBeUndefined();
    expect(kept).toMatchObject({ id: recent.id, trashed: true });
  });
});
