import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { createMemoryBlobStore, sha256Hex, type BlobStore, type BlobStoreOptions } from '../../src/core/blobs.js';
import { createPostgresStore, type PostgresStore } from '../../src/postgres.js';
import { createFolderBlobStore } from '../../src/store/blob-folder.js';
import { dropSchemas, freshSchema, postgresAvailable, TEST_DATABASE_URL } from '../postgres/database.js';

/**
 * The blob stores: content-addressed, idempotent, stamped with when bytes were last stored, removed only
 * when stored before a time; the folder one on disk where a restart finds it.
 */

const bytes = (text: string) => new TextEncoder().encode(text);

const schemas: string[] = [];
const opened: PostgresStore[] = [];
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await dropSchemas(schemas);
});

/** A PostgreSQL store's blobs, in a schema of their own. */
async function postgresBlobs(options: BlobStoreOptions): Promise<BlobStore> {
  const schema = freshSchema('blobs');
  schemas.push(schema);
  const store = await createPostgresStore({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 2, log: () => undefined, now: options.now });
  opened.push(store);
  return store.blobs;
}

const STORES: [string, (options: BlobStoreOptions) => Promise<BlobStore>][] = [
  ['memory', async (options) => createMemoryBlobStore(options)],
  ['folder', async (options) => createFolderBlobStore(await mkdtemp(join(tmpdir(), 'blobs-')), options)],
  ...(postgresAvailable ? [['postgres', postgresBlobs] as [string, (options: BlobStoreOptions) => Promise<BlobStore>]] : []),
];

describe.each(STORES)('%s blob store', (_name, create) => {
  let store: BlobStore;
  const clock = manualClock('2026-03-01T00:00:00.000Z');
  beforeEach(async () => {
    clock.set('2026-03-01T00:00:00.000Z');
    store = await create({ now: clock.now });
  });

  it('stamps when bytes were last stored or touched, lists blobs by key with their size, and removes only those stored before a time', async () => {
    const a = await store.put(bytes('first'));
    clock.advance(60_000);
    const b = await store.put(bytes('second one'));
    const listed = async () => {
      const all = [];
      for await (const blob of store.list()) all.push({ key: blob.key, size: blob.size, storedAt: blob.storedAt.toISOString() });
      return all;
    };
    expect(await listed()).toEqual(
      [
        { key: a, size: 5, storedAt: '2026-03-01T00:00:00.000Z' },
        { key: b, size: 10, storedAt: '2026-03-01T00:01:00.000Z' },
      ].sort((x, y) => (x.key < y.key ? -1 : 1)),
    );
    // Stored at 00:00, not before it: kept. Before 00:00:30: removed, once.
    expect(await store.delete(a, new Date('2026-03-01T00:00:00.000Z'))).toBe(false);
    expect(await store.delete(a, new Date('2026-03-01T00:00:30.000Z'))).toBe(true);
    expect(await store.delete(a, new Date('2026-03-01T00:00:30.000Z'))).toBe(false);
    expect(await store.get(a)).toBeUndefined();
    // A put of bytes already there, or a touch, moves their time on: an older cutoff no longer removes them.
    clock.advance(60_000);
    expect(await store.put(bytes('second one'))).toBe(b);
    expect(await store.delete(b, new Date('2026-03-01T00:01:30.000Z'))).toBe(false);
    clock.advance(60_000);
    expect(await store.touch(b)).toBe(true);
    expect(await store.delete(b, new Date('2026-03-01T00:02:30.000Z'))).toBe(false);
    expect((await listed()).map((blob) => blob.storedAt)).toEqual(['2026-03-01T00:03:00.000Z']);
    expect(await store.touch(a)).toBe(false);
    expect(await store.touch('not a key')).toBe(false);
    expect(await store.delete('not a key', new Date())).toBe(false);
    // A clock that steps back never makes bytes look older.
    clock.set('2026-02-01T00:00:00.000Z');
    await store.put(bytes('second one'));
    expect((await listed()).map((blob) => blob.storedAt)).toEqual(['2026-03-01T00:03:00.000Z']);
  });

  it('a delete and a put of the same bytes at once: the bytes are there afterwards, or the put came first and they were not removed', async () => {
    const key = await store.put(bytes('raced'));
    clock.advance(60_000);
    await Promise.all([store.delete(key, new Date('2026-03-01T00:00:30.000Z')), store.put(bytes('raced'))]);
    const there = await store.get(key);
    // Either the delete ran first and the put stored the bytes again, or the put re-stamped them first.
    expect(there).toEqual(bytes('raced'));
  });

  it('keys bytes by their SHA-256, gives them back, and keeps one copy of the same bytes', async () => {
    const key = await store.put(bytes('hello'));
    expect(key).toBe(await sha256Hex(bytes('hello')));
    expect(key).toBe('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
    expect(await store.get(key)).toEqual(bytes('hello'));
    expect(await store.put(bytes('hello'))).toBe(key);
    expect(await store.get(await store.put(new Uint8Array()))).toEqual(new Uint8Array());
  });

  it('answers undefined for unknown keys and anything that is not a key', async () => {
    expect(await store.get('0'.repeat(64))).toBeUndefined();
    expect(await store.get('../../etc/passwd')).toBeUndefined();
  });

  it('hands out copies: changing what it gave or took does not change what it keeps', async () => {
    const input = bytes('abc');
    const key = await store.put(input);
    input[0] = 0;
    const output = (await store.get(key))!;
    output[1] = 0;
    expect(await store.get(key)).toEqual(bytes('abc'));
  });
});

describe('folder blob store on disk', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'blobs-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('writes <folder>/<two hex digits>/<key>, found again by a new store on the same folder, and leaves no temporary file', async () => {
    const key = await (await createFolderBlobStore(folder)).put(bytes('persisted'));
    expect(await readdir(folder)).toEqual([key.slice(0, 2)]);
    expect(await readdir(join(folder, key.slice(0, 2)))).toEqual([key]);
    expect(await readFile(join(folder, key.slice(0, 2), key), 'utf8')).toBe('persisted');
    expect(await (await createFolderBlobStore(folder)).get(key)).toEqual(bytes('persisted'));
  });

  it.skipIf(process.platform === 'win32')('takes from a folder left readable by others its bits beyond 0700 on opening, and says so once', async () => {
    await chmod(folder, 0o755);
    const logged: string[] = [];
    await createFolderBlobStore(folder, { log: (line) => logged.push(line) });
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    expect(logged).toEqual([`docs-platform store: tightened permissions of ${folder} from 0755 to 0700: no other user of the machine may read it`]);
    await createFolderBlobStore(folder, { log: (line) => logged.push(line) });
    expect(logged).toHaveLength(1);
  });

  it('never reads a temporary file a crash left behind', async () => {
    const store = await createFolderBlobStore(folder);
    const key = await sha256Hex(bytes('torn'));
    await (await import('node:fs/promises')).mkdir(join(folder, key.slice(0, 2)), { recursive: true });
    await writeFile(join(folder, key.slice(0, 2), `${key}.abc.tmp`), 'to');
    expect(await store.get(key)).toBeUndefined();
    expect(await store.get(await store.put(bytes('torn')))).toEqual(bytes('torn'));
  });
});
