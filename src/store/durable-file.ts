import { open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';
import { openPrivate } from './private-files.js';

/**
 * Bytes written to a temporary file between two flushes to disk. On ext4 (data=ordered, the default)
 * an fsync waits for the journal commit it joins, and a commit waits for the data blocks allocated in
 * it, those of other files included: one fsync of a
 * 48 MB snapshot at the end held the store's journal appends (every acknowledged write) for 20-50 ms.
 * Flushed as it is written, the final fsync has at most this much left, and each append waits for
 * at most about that much.
 */
const FLUSH_BYTES = 1024 * 1024;

/**
 * A lowdb adapter for a text file whose writes are atomic and durable: the new text goes to a
 * temporary file beside the target (mode 0600, which the rename keeps), is fsynced, renamed over the
 * target, and the folder is fsynced so the rename itself survives a power loss. A reader never sees a
 * half-written file.
 * Like lowdb's TextFile, a missing file reads as null.
 */
export class DurableTextFile implements Adapter<string> {
  private readonly temp: string;

  constructor(readonly path: string) {
    this.temp = join(dirname(path), `.${basename(path)}.tmp`);
  }

  async read(): Promise<string | null> {
    try {
      return await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async write(text: string): Promise<void> {
    await this.writeChunks([text]);
  }

  /**
   * Writes the file from chunks of text as they come (a large snapshot is produced a piece at a time so
   * the process keeps serving meanwhile). `beforeRename` runs once the temporary file is durable.
   */
  async writeChunks(chunks: Iterable<string> | AsyncIterable<string>, beforeRename?: () => Promise<void>): Promise<number> {
    const file = await openPrivate(this.temp, 'w');
    let bytes = 0;
    let unflushed = 0;
    try {
      for await (const chunk of chunks) {
        const buffer = Buffer.from(chunk, 'utf8');
        await file.write(buffer);
        bytes += buffer.length;
        unflushed += buffer.length;
        if (unflushed >= FLUSH_BYTES) {
          await file.datasync();
          unflushed = 0;
        }
      }
      await file.sync();
    } finally {
      await file.close();
    }
    await beforeRename?.();
    await rename(this.temp, this.path);
    await syncFolder(dirname(this.path));
    return bytes;
  }

  /** Removes a temporary file a crash may have left behind. */
  async cleanUp(): Promise<void> {
    await unlink(this.temp).catch(() => undefined);
  }
}

/** fsyncs a folder, making renames and creations in it durable. */
export async function syncFolder(path: string): Promise<void> {
  const folder = await open(path, 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}
