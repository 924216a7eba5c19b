import { constants } from 'node:fs';
import { copyFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { folderBlobKeys } from './blob-folder.js';
import { DurableTextFile } from './durable-file.js';
import { Journal } from './journal.js';
import { makePrivate, makePrivateFolder } from './private-files.js';
import { recover } from './recover.js';
import { serializeSnapshot, type CapturedTables } from './snapshot.js';

/** What a backup wrote. */
export interface BackupResult {
  /** The sequence number of the last transaction in the backup. */
  readonly sequence: number;
  readonly records: number;
  readonly bytes: number;
}

/** Moments of a backup that tests use to make a compaction happen in between. */
export interface BackupHooks {
  /** Called after the snapshot was read, before the journal is. */
  onSnapshotRead?: () => Promise<void>;
}

/** How many times a read starts over when a compaction replaces the snapshot meanwhile. */
const ATTEMPTS = 10;

/** A JSON-file store's durable state, read from its files: see readJsonData. */
export interface JsonData {
  /** The sequence number of the last transaction in it. */
  readonly sequence: number;
  readonly tables: CapturedTables;
}

/**
 * Reads a JSON-file store's state from its files, also while a server has the store open: it takes no
 * lock and writes nothing. It reads the snapshot, then the journal. A compaction renames a new snapshot
 * into place before it deletes the journal segments that snapshot holds, so if segments vanished while it
 * read them, the snapshot changed too: it sees that and starts over. What it returns holds every
 * transaction acknowledged before it began.
 */
export async function readJsonData(path: string, hooks: BackupHooks = {}): Promise<JsonData> {
  const source = new DurableTextFile(resolve(path));
  for (let attempt = 1; ; attempt++) {
    if (attempt > ATTEMPTS) throw new Error(`${source.path} was compacted ${ATTEMPTS} times while it was read; try again`);
    const before = await identity(source.path);
    try {
      const text = await source.read();
      await hooks.onSnapshotRead?.();
      const { engine } = recover(source.path, text, await Journal.read(source.path));
      if ((await identity(source.path)) !== before) continue;
      return engine.captureVisible();
    } catch (error) {
      // A segment deleted between listing and reading it: a compaction finished meanwhile.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/**
 * Copies a JSON-file store into one self-contained snapshot file at `destination` (temp, fsync, rename),
 * and its blob folder (`<data>.blobs/`, file bytes) to `<destination>.blobs/`, also while a server has the
 * store open (see readJsonData): the copy holds every transaction acknowledged before it began. The copy's
 * files have mode 0600 and the folders it creates 0700, as the store's own (private-files.ts).
 */
export async function backupJsonFile(path: string, destination: string, hooks: BackupHooks = {}): Promise<BackupResult> {
  if (resolve(destination) === resolve(path)) throw new Error('A backup cannot overwrite the data file it copies');
  await makePrivateFolder(dirname(resolve(destination)));
  const { sequence, tables } = await readJsonData(path, hooks);
  const records = tables.reduce((sum, [, rows]) => sum + rows.length, 0);
  const bytes = await new DurableTextFile(resolve(destination)).writeChunks(serializeSnapshot(tables, sequence));
  await copyBlobs(resolve(path), resolve(destination));
  return { sequence, records, bytes };
}

/** Which snapshot file is in place: a rename puts a new inode there. */
async function identity(path: string): Promise<string> {
  try {
    const { ino, size, mtimeMs } = await stat(path);
    return `${ino}:${size}:${mtimeMs}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw error;
  }
}

/**
 * Copies the file bytes kept beside the data file (`<data>.blobs/`, the bundled server's blob folder)
 * to beside the copy. Blobs are written before the transaction that refers to them commits, so every
 * blob the copied state names is already there; they are content-addressed and never rewritten, so
 * files the destination already has are kept, and half-written temporary files are skipped. A blob the
 * server's blob collection removes while the copy runs is skipped, not an error.
 */
async function copyBlobs(source: string, destination: string): Promise<void> {
  if ((await identity(`${source}.blobs`)) === 'none') return;
  for await (const key of folderBlobKeys(`${source}.blobs`)) {
    const shard = join(`${destination}.blobs`, key.slice(0, 2));
    await makePrivateFolder(shard);
    const copied = await copyFile(join(`${source}.blobs`, key.slice(0, 2), key), join(shard, key), constants.COPYFILE_EXCL).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT' && error.code !== 'EEXIST') throw error;
        return false;
      },
    );
    // A copy has the source's mode, 0644 for a blob an older version wrote.
    if (copied) await makePrivate(join(shard, key));
  }
}
