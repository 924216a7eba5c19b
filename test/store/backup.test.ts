import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backupJsonFile } from '../../src/store/backup.js';
import { createJsonFileStore } from '../../src/store/json-file.js';

const folder = await mkdtemp(join(tmpdir(), 'dp-backup-'));
afterAll(() => rm(folder, { recursive: true, force: true }));
const ALL = { by: 'kind', order: [] } as const;

describe('backupJsonFile', () => {
  it('copies an open store, journal included, into one snapshot that opens as a store', async () => {
    const path = join(folder, 'open.json');
    const store = await createJsonFileStore({ path });
    await store.write((tx) => tx.put('things', { id: 'a', kind: 'thing', n: 1 }));
    await store.write((tx) => tx.put('things', { id: 'b', kind: 'thing', n: 2 }));
    await store.write((tx) => tx.delete('things', 'a'));
    const result = await backupJsonFile(path, join(folder, 'open-backup.json'));
    expect(result).toMatchObject({ sequence: 3, records: 1 });
    expect(JSON.parse(await readFile(join(folder, 'open-backup.json'), 'utf8'))).toEqual({
      format: 'docs-platform',
      version: 1,
      sequence: 3,
      tables: { things: { b: { id: 'b', kind: 'thing', n: 2 } } },
    });
    await store.close();
    const copy = await createJsonFileStore({ path: join(folder, 'open-backup.json') });
    expect(await copy.read((tx) => tx.get('things', 'b'))).toEqual({ id: 'b', kind: 'thing', n: 2 });
    await copy.close();
  });

  it('holds every write acknowledged before it began, while writes and compactions go on', async () => {
    const path = join(folder, 'busy.json');
    const store = await createJsonFileStore({ path, compaction: { minBytes: 4 * 1024, ratio: 0 }, log: () => undefined });
    const acknowledged = new Set<string>();
    let stop = false;
    const writer = async (w: number) => {
      for (let n = 0; !stop; n++) {
        const id = `w${w}-${n}`;
        await store.write((tx) => tx.put('things', { id, kind: 'thing', padding: 'x'.repeat(200) }));
        acknowledged.add(id);
      }
    };
    const writers = Array.from({ length: 8 }, (_, w) => writer(w));
    try {
      for (let i = 0; i < 15; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const before = new Set(acknowledged);
        const destination = join(folder, `busy-backup-${i}.json`);
        await backupJsonFile(path, destination);
        const copy = await createJsonFileStore({ path: destination, log: () => undefined });
        const { items } = await copy.read((tx) => tx.list('things', { index: ALL, value: 'thing' }));
        await copy.close();
        const ids = new Set(items.map((item) => item.id));
        expect([...before].filter((id) => !ids.has(id))).toEqual([]);
      }
    } finally {
      stop = true;
      await Promise.all(writers);
      await store.close();
    }
    expect(acknowledged.size).toBeGreaterThan(500);
  });

  it('starts over when a compaction replaces the snapshot and removes the journal between its reads', async () => {
    const path = join(folder, 'race.json');
    let compacted = () => undefined as void;
    const store = await createJsonFileStore({
      path,
      compaction: { minBytes: 4 * 1024, ratio: 0 },
      onCompactionStep: (step) => void (step === 'journal-removed' && compacted()),
    });
    await store.write((tx) => tx.put('things', { id: 'early', kind: 'thing' }));
    let reads = 0;
    const result = await backupJsonFile(path, join(folder, 'race-backup.json'), {
      async onSnapshotRead() {
        if (++reads > 1) return;
        // The first read saw no snapshot; now a compaction folds 'early' into one and deletes its segment.
        const done = new Promise<void>((resolve) => (compacted = resolve));
        for (let i = 0; i < 40; i++) await store.write((tx) => tx.put('things', { id: `late-${i}`, kind: 'thing', padding: 'x'.repeat(200) }));
        await done;
      },
    });
    expect(reads).toBe(2);
    expect(result.records).toBe(41);
    await store.close();
  });

  it('copies the blob folder beside the data file as private files, skipping half-written temporary files and names that are not keys', async () => {
    const path = join(folder, 'with-blobs.json');
    const store = await createJsonFileStore({ path });
    await store.write((tx) => tx.put('things', { id: 'a', kind: 'thing' }));
    const key = 'ab'.repeat(32);
    await mkdir(join(`${path}.blobs`, 'ab'), { recursive: true });
    await writeFile(join(`${path}.blobs`, 'ab', key), 'bytes');
    await chmod(join(`${path}.blobs`, 'ab', key), 0o644); // as an older version left it
    await writeFile(join(`${path}.blobs`, 'ab', `${key}.1234.tmp`), 'half');
    await writeFile(join(`${path}.blobs`, 'ab', 'abcdef'), 'stray');
    await backupJsonFile(path, join(folder, 'with-blobs-backup.json'));
    await store.close();
    expect(await readFile(join(folder, 'with-blobs-backup.json.blobs', 'ab', key), 'utf8')).toBe('bytes');
    if (process.platform !== 'win32') {
      expect((await stat(join(folder, 'with-blobs-backup.json.blobs', 'ab', key))).mode & 0o777).toBe(0o600);
      expect((await stat(join(folder, 'with-blobs-backup.json.blobs', 'ab'))).mode & 0o777).toBe(0o700);
    }
    expect(existsSync(join(folder, 'with-blobs-backup.json.blobs', 'ab', `${key}.1234.tmp`))).toBe(false);
    expect(existsSync(join(folder, 'with-blobs-backup.json.blobs', 'ab', 'abcdef'))).toBe(false);
  });

  it('refuses to write over the data file it copies', async () => {
    const path = join(folder, 'self.json');
    await expect(backupJsonFile(path, path)).rejects.toThrow(/cannot overwrite/);
  });
});
