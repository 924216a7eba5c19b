import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBlobStore, sha256Hex, type BlobStore } from '../../src/core/blobs.js';
import { createFolderBlobStore } from '../../src/store/blob-folder.js';

/** The blob stores: content-addressed, idempotent, and for the folder one, on disk where a restart finds it. */

const bytes = (text: string) => new TextEncoder().encode(text);

describe.each([
  ['memory', async () => createMemoryBlobStore()],
  ['folder', async () => createFolderBlobStore(await mkdtemp(join(tmpdir(), 'blobs-')))],
] as const)('%s blob store', (_name, create) => {
  let store: BlobStore;
  beforeEach(async () => {
    store = await create();
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

  it('never reads a temporary file a crash left behind', async () => {
    const store = await createFolderBlobStore(folder);
    const key = await sha256Hex(bytes('torn'));
    await (await import('node:fs/promises')).mkdir(join(folder, key.slice(0, 2)), { recursive: true });
    await writeFile(join(folder, key.slice(0, 2), `${key}.abc.tmp`), 'to');
    expect(await store.get(key)).toBeUndefined();
    expect(await store.get(await store.put(bytes('torn')))).toEqual(bytes('torn'));
  });
});
