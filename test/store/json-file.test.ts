import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { encodeEntry, Journal, segmentPath } from '../../src/store/journal.js';
import { CorruptDataFileError, createJsonFileStore } from '../../src/store/json-file.js';
import { StoreLockedError } from '../../src/store/lock-file.js';
import type { Store } from '../../src/store/types.js';
import { runStoreContract } from './contract.js';

const folder = await mkdtemp(join(tmpdir(), 'dp-json-store-'));
afterAll(() => rm(folder, { recursive: true, force: true }));
let n = 0;
const paths = new WeakMap<Store, string>();

runStoreContract({
  name: 'json-file',
  async create() {
    const path = join(folder, `store-${++n}.json`);
    const store = await createJsonFileStore({ path });
    paths.set(store, path);
    return store;
  },
  async reopen(store) {
    const path = paths.get(store)!;
    await store.close();
    const reopened = await createJsonFileStore({ path });
    paths.set(reopened, path);
    return reopened;
  },
});

describe('JSON-file store', () => {
  it('is not ready once its journal cannot be written (here: its segment removed under it)', async () => {
    const path = join(folder, 'unready.json');
    const store = await createJsonFileStore({ path });
    await store.write((tx) => tx.put('things', { id: 'a' }));
    await expect(store.ready()).resolves.toBeUndefined();
    const segments = (await readdir(folder)).filter((name) => name.startsWith('unready.json.journal.'));
    for (const segment of segments) await rm(join(folder, segment));
    await expect(store.ready()).rejects.toThrow(/journal cannot be written: ENOENT/);
    await store.close().catch(() => undefined);
  });

  it.skipIf(process.platform === 'win32')('takes from a data file and journal left readable by others their bits beyond 0600 on opening, a line for each', async () => {
    const path = join(folder, 'loose.json');
    const first = await createJsonFileStore({ path });
    await first.write((tx) => tx.put('things', { id: 'a' }));
    await first.close();
    const segment = segmentPath(path, 7);
    await writeFile(segment, encodeEntry({ seq: 2, changes: [{ table: 'things', id: 'b', record: { id: 'b' } }] }));
    for (const file of [path, segment]) await chmod(file, 0o644);
    const logged: string[] = [];
    const store = await createJsonFileStore({ path, log: (line) => logged.push(line) });
    expect(await store.read((tx) => tx.get('things', 'b'))).toEqual({ id: 'b' });
    for (const file of [path, segment]) {
      expect((await stat(file)).mode & 0o777, file).toBe(0o600);
      expect(logged.filter((line) => line.startsWith(`docs-platform store: tightened permissions of ${file} from 0644 to 0600`)), file).toHaveLength(1);
    }
    await store.close();
    const reopened = await createJsonFileStore({ path, log: (line) => logged.push(line) });
    await reopened.close();
    expect(logged.filter((line) => line.includes('tightened'))).toHaveLength(2);
  });

  it('acknowledges a write once it is in the journal, and leaves one readable JSON file on close', async () => {
    const path = join(folder, 'readable.json');
    const store = await createJsonFileStore({ path });
    await store.write((tx) => tx.put('things', { id: 'a', title: 'Ünïcode ✓' }));
    const [segment] = (await readdir(folder)).filter((name) => name.startsWith('readable.json.journal.'));
    expect(await readFile(join(folder, segment), 'utf8')).toContain('"title":"Ünïcode ✓"');
    await store.close();
    const file = JSON.parse(await readFile(path, 'utf8'));
    expect(file).toEqual({ format: 'docs-platform', version: 1, sequence: 1, tables: { things: { a: { id: 'a', title: 'Ünïcode ✓' } } } });
    expect((await readdir(folder)).filter((name) => name.startsWith('readable.json.'))).toEqual([]);
  });

  it('refuses a second opener of the same file while the first holds it', async () => {
    const path = join(folder, 'locked.json');
    const store = await createJsonFileStore({ path });
    await expect(createJsonFileStore({ path })).rejects.toBeInstanceOf(StoreLockedError);
    await store.close();
    const again = await createJsonFileStore({ path });
    await again.close();
  });

  it('takes over a lock left by a process that is gone', async () => {
    const path = join(folder, 'stale.json');
    await writeFile(`${path}.lock`, '999999999');
    const store = await createJsonFileStore({ path });
    await store.close();
  });

  it.each([
    ['not JSON', '{"format":"docs-platform","tab'],
    ['another format', '{"hello":"world"}'],
    ['a future version', '{"format":"docs-platform","version":99,"tables":{}}'],
  ])('refuses a data file that is %s and leaves it untouched', async (_, content) => {
    const path = join(folder, `corrupt-${++n}.json`);
    await writeFile(path, content);
    await expect(createJsonFileStore({ path })).rejects.toBeInstanceOf(CorruptDataFileError);
    expect(await readFile(path, 'utf8')).toBe(content);
    const store = await createJsonFileStore({ path }).catch((error) => error);
    expect(store).toBeInstanceOf(CorruptDataFileError);
  });

  it('groups concurrent writes into few journal appends, each acknowledged only once durable', async () => {
    const path = join(folder, 'group.json');
    const store = await createJsonFileStore({ path });
    const appends = vi.spyOn(Journal.prototype, 'append');
    try {
      await Promise.all(Array.from({ length: 200 }, (_, i) => store.write((tx) => tx.put('things', { id: `r${i}` }))));
      expect(appends.mock.calls.length).toBeGreaterThan(0);
      expect(appends.mock.calls.length).toBeLessThan(20);
      expect(appends.mock.calls.flatMap(([entries]) => entries.map((entry) => entry.seq))).toEqual(
        Array.from({ length: 200 }, (_, i) => i + 1),
      );
    } finally {
      appends.mockRestore();
    }
    await store.close();
    const file = JSON.parse(await readFile(path, 'utf8'));
    expect(Object.keys(file.tables.things)).toHaveLength(200);
  });
});
