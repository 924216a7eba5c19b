import { randomBytes } from 'node:crypto';
import { readdir, readFile, rename, rm, stat, unlink, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isBlobKey, later, sha256Hex, systemNow, type BlobInfo, type BlobStore, type BlobStoreOptions } from './blobs.js';
import { syncFolder } from './durable-file.js';
import { makePrivateFolder, openPrivate, PRIVATE_FOLDER, tighten } from './private-files.js';

/** Options of the folder blob store. */
export interface FolderBlobStoreOptions extends BlobStoreOptions {
  /** Where it says that it tightened the folder's permissions (default: stderr). */
  log?: (line: string) => void;
}

/**
 * A blob store in a folder, the one the bundled server keeps beside its JSON file: each blob is the file
 * `<folder>/<first two hex digits>/<key>`. A blob is written to a temporary file in the same folder,
 * fsynced, renamed into place and its folder fsynced, so a blob that `put` acknowledged survives a crash
 * and a file under a key always holds exactly the bytes of that key. A half-written temporary file left by
 * a crash is never read (its name is not a key).
 *
 * A blob's `storedAt` is its file's modification time, set from the store's clock. Only one process
 * writes a folder (the data file's lock), so `put`, `touch` and `delete` of one key are made atomic with
 * respect to each other by running them one after the other in this process.
 *
 * Blob files have mode 0600 and the folders it creates 0700 (private-files.ts). Opening takes the bits
 * beyond 0700 from the folder itself, and logs a line when it does: the files an older version left
 * readable inside it are then out of other users' reach too, without walking them all.
 */
export async function createFolderBlobStore(folder: string, options: FolderBlobStoreOptions = {}): Promise<BlobStore> {
  const now = options.now ?? systemNow;
  await makePrivateFolder(folder);
  const tightened = await tighten(folder, PRIVATE_FOLDER);
  if (tightened) (options.log ?? ((line: string) => process.stderr.write(`${line}\n`)))(`docs-platform store: ${tightened}`);
  const pathOf = (key: string) => join(folder, key.slice(0, 2), key);
  const modified = (path: string) => stat(path).then((found) => ({ size: found.size, storedAt: found.mtime }), missing);
  /** Moves a file's modification time to now, never back. */
  const stamp = async (path: string, storedAt: Date | undefined) => {
    const time = later(storedAt, now());
    await utimes(path, time, time);
  };
  const serial = keySerializer();
  return {
    async put(bytes) {
      const key = await sha256Hex(bytes);
      const target = pathOf(key);
      await serial(key, async () => {
        // Content-addressed: a complete file under the key already holds these bytes.
        const existing = await modified(target);
        if (existing?.size === bytes.length) return stamp(target, existing.storedAt);
        await makePrivateFolder(dirname(target));
        const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
        const handle = await openPrivate(temporary, 'w');
        try {
          await handle.writeFile(bytes);
          await handle.sync();
        } catch (error) {
          await handle.close();
          await rm(temporary, { force: true });
          throw error;
        }
        await handle.close();
        await stamp(temporary, undefined);
        await rename(temporary, target);
        await syncFolder(dirname(target));
      });
      return key;
    },
    async get(key) {
      if (!isBlobKey(key)) return undefined;
      return readFile(pathOf(key)).then((bytes) => new Uint8Array(bytes), missing);
    },
    async touch(key) {
      if (!isBlobKey(key)) return false;
      return serial(key, async () => {
        const existing = await modified(pathOf(key));
        if (existing) await stamp(pathOf(key), existing.storedAt);
        return existing !== undefined;
      });
    },
    async *list(): AsyncGenerator<BlobInfo> {
      for await (const key of folderBlobKeys(folder)) {
        const found = await modified(pathOf(key));
        if (found) yield { key, ...found };
      }
    },
    async delete(key, storedBefore) {
      if (!isBlobKey(key)) return false;
      return serial(key, async () => {
        const existing = await modified(pathOf(key));
        if (!existing || existing.storedAt.getTime() >= storedBefore.getTime()) return false;
        await unlink(pathOf(key));
        await syncFolder(dirname(pathOf(key)));
        return true;
      });
    },
  };
}

/** undefined for a file that is not there; any other error is rethrown. */
function missing(error: NodeJS.ErrnoException): undefined {
  if (error.code === 'ENOENT') return undefined;
  throw error;
}

/** Runs the calls made for one key one after the other (calls for different keys run concurrently). */
function keySerializer(): <T>(key: string, call: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return (key, call) => {
    const previous = tails.get(key) ?? Promise.resolve();
    const result = previous.then(call, call);
    const tail = result.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return result;
  };
}

/** The key of every blob in a folder made by createFolderBlobStore (none when it does not exist). */
export async function* folderBlobKeys(folder: string): AsyncGenerator<string> {
  const shards = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  for (const shard of shards.sort()) {
    if (!/^[0-9a-f]{2}$/.test(shard)) continue;
    for (const name of (await readdir(join(folder, shard))).sort()) if (isBlobKey(name)) yield name;
  }
}
