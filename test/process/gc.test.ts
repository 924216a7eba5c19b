import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import type { BlobStore } from '../../src/core/blobs.js';
import { manualClock } from '../../src/core/clock.js';
import { createPlatform } from '../../src/core/platform.js';
import { createPostgresStore } from '../../src/postgres.js';
import { createFolderBlobStore } from '../../src/store/blob-folder.js';
import { createJsonFileStore } from '../../src/store/json-file.js';
import type { Store } from '../../src/store/types.js';
import { dropSchemas, freshSchema, postgresAvailable, TEST_DATABASE_URL } from '../postgres/database.js';
import { cleanUp, runCli, tempDir } from './spawn.js';

/** CLI `gc`: what it prints, what a dry run leaves, what it removes, on a JSON data file and on PostgreSQL. */

vi.setConfig({ testTimeout: 90_000, hookTimeout: 30_000 });
afterEach(cleanUp);
const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));

/**
 * An installation whose bytes were stored two days ago (past the one-day grace period): a space with one
 * file, a failed batch's file, and bytes stored by nothing. Returns the keys of the three.
 */
async function seed(open: (now: () => Date) => Promise<{ store: Store; blobs: BlobStore }>) {
  const clock = manualClock(new Date(Date.now() - 2 * 24 * 60 * 60 * 1000));
  const { store, blobs } = await open(clock.now);
  const platform = createPlatform({ store, blobs, clock });
  const { organizationId, userId } = await platform.initialize({ email: 'ada@acme.test' });
  const api = platform.as(userId);
  const space = await api.createSpace({ organizationId, title: 'Handbook' });
  const cr = await api.createChangeRequest({ spaceId: space.id });
  const file = (text: string) => ({ operation: 'insert_files' as const, files: [{ name: `${text}.txt`, contentType: 'text/plain', base64: btoa(text) }] });
  const kept = await api.updateChangeRequestContent({ spaceId: space.id, changeRequestId: cr.id, compat: false, changes: [file('kept')] });
  await expect(
    api.updateChangeRequestContent({ spaceId: space.id, changeRequestId: cr.id, changes: [file('failed'), { operation: 'delete_page', page: 'none' }] }),
  ).rejects.toMatchObject({ status: 400 });
  const orphan = await blobs.put(new TextEncoder().encode('orphan'));
  await platform.close();
  const keyOf = async (text: string) => {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
    return Buffer.from(digest).toString('hex');
  };
  expect(await keyOf('orphan')).toBe(orphan);
  return { kept: await keyOf('kept'), failed: await keyOf('failed'), orphan, insertedFiles: (kept as { insertedFiles: unknown[] }).insertedFiles };
}

const INSTALLATIONS = [
  [
    'a JSON data file',
    async () => {
      const data = join(tempDir(), 'data.json');
      const keys = await seed(async (now) => ({ store: await createJsonFileStore({ path: data, log: () => undefined }), blobs: await createFolderBlobStore(`${data}.blobs`, { now }) }));
      const exists = async (key: string) => existsSync(join(`${data}.blobs`, key.slice(0, 2), key));
      return { data, keys, exists };
    },
  ],
  ...(postgresAvailable
    ? [
        [
          'PostgreSQL',
          async () => {
            const schema = freshSchema('gc');
            schemas.push(schema);
            let blobs: BlobStore | undefined;
            const keys = await seed(async (now) => {
              const store = await createPostgresStore({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 2, log: () => undefined, now });
              return { store, blobs: store.blobs };
            });
            const reader = await createPostgresStore({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 1, log: () => undefined });
            blobs = reader.blobs;
            return { data: `${TEST_DATABASE_URL}?schema=${schema}`, keys, exists: async (key: string) => (await blobs!.get(key)) !== undefined, close: () => reader.close() };
          },
        ] as const,
      ]
    : []),
] as const;

describe.each(INSTALLATIONS)('gc on %s', (_name, install) => {
  test('a dry run names the unreferenced bytes and removes nothing; gc removes them and keeps the file; a second gc finds nothing', async () => {
    const installation = await install();
    const { data, keys, exists } = installation;
    try {
      const dry = await runCli(['gc', '--data', data, '--dry-run']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toContain(`would remove ${keys.failed} 6 bytes (unreferenced, last stored `);
      expect(dry.stdout).toContain(`would remove ${keys.orphan} 6 bytes (unreferenced, last stored `);
      expect(dry.stdout).not.toContain(keys.kept);
      expect(dry.stdout).toMatch(/^Would remove 2 of 3 blobs, 12 bytes \(only bytes last stored before \S+ can go\)$/m);
      for (const key of [keys.kept, keys.failed, keys.orphan]) expect(await exists(key)).toBe(true);

      const run = await runCli(['gc', '--data', data]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout.split('\n').filter((line) => line.startsWith('removed '))).toHaveLength(2);
      expect(run.stdout).toContain(`removed ${keys.failed} 6 bytes`);
      expect(run.stdout).toContain(`removed ${keys.orphan} 6 bytes`);
      expect(run.stdout).toMatch(/^Removed 2 of 3 blobs, 12 bytes/m);
      expect(await exists(keys.kept)).toBe(true);
      expect(await exists(keys.failed)).toBe(false);
      expect(await exists(keys.orphan)).toBe(false);

      const again = await runCli(['gc', '--data', data, '--json']);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ dryRun: false, blobs: 1, removed: [], removedBytes: 0, endedHolds: 0 });
    } finally {
      if ('close' in installation) await (installation.close as () => Promise<void>)();
    }
  });
});

test('gc refuses unknown options with a one-line usage error (exit 2)', async () => {
  const run = await runCli(['gc', '--data', join(tempDir(), 'data.json'), '--everything']);
  expect(run.code).toBe(2);
  expect(run.stderr.trim()).toMatch(/^error: gc: Unknown option '--everything'/);
});
