import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isBlobKey, sha256Hex, type BlobStore } from './blobs.js';
import { syncFolder } from './durable-file.js';

/**
 * A blob store in a folder, the one the bundled server keeps beside its JSON file: each blob is the file
 * `<folder>/<first two hex digits>/<key>`. A blob is written to a temporary file in the same folder,
 * fsynced, renamed into place and its folder fsynced, so a blob that `put` acknowledged survives a crash
 * and a file under a key always holds exactly the bytes of that key. A half-written temporary file left by
 * a crash is never read (its name is not a key).
 */
export async function createFolderBlobStore(folder: string): Promise<BlobStore> {
  await mkdir(folder, { recursive: true });
  const pathOf = (key: string) => join(folder, key.slice(0, 2), key);
  return {
    async put(bytes) {
      const key = await sha256Hex(bytes);
      const target = pathOf(key);
      // Content-addressed: a complete file under the key already holds these bytes.
      if (await stat(target).then((existing) => existing.size === bytes.length, () => false)) return key;
      await mkdir(dirname(target), { recursive: true });
      const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      const handle = await open(temporary, 'w');
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } catch (error) {
        await handle.close();
        await rm(temporary, { force: true });
        throw error;
      }
      await handle.close();
      await rename(temporary, target);
      await syncFolder(dirname(target));
      return key;
    },
    async get(key) {
      if (!isBlobKey(key)) return undefined;
      try {
        return new Uint8Array(await readFile(pathOf(key)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
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
