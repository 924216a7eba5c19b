import { existsSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import type { BlobStore } from '../core/blobs.js';
import { readJsonData } from '../store/backup.js';
import { createFolderBlobStore, folderBlobKeys } from '../store/blob-folder.js';
import { DurableTextFile } from '../store/durable-file.js';
import { acquireLock } from '../store/lock-file.js';
import { makePrivateFolder } from '../store/private-files.js';
import { serializeSnapshot } from '../store/snapshot.js';
import type { StoredRecord } from '../store/types.js';
import { isPostgresUrl, postgresOptions, shownData } from './open-data.js';

/**
 * Copies a whole installation, records and file bytes, between a JSON data file and a PostgreSQL database
 * in either direction (`migrate`, and `backup` of a database). The source is read in one consistent state
 * while servers may go on using it; the target must hold nothing yet.
 */

/** Thrown when the target of a copy holds data already: nothing is written to it. */
export class TargetNotEmptyError extends Error {
  constructor(target: string) {
    super(`${target} holds data already: migrate copies into an empty store only`);
    this.name = 'TargetNotEmptyError';
  }
}

/** Where a copy reads from. */
interface Source {
  /** The number of records of each table. */
  readonly counts: Record<string, number>;
  /** Every record, table by table, a batch at a time. */
  records(): AsyncIterable<readonly [string, readonly StoredRecord[]]>;
  blobKeys(): AsyncIterable<string>;
  readonly blobs: BlobStore;
  close(): Promise<void>;
}

/** Where a copy writes to. */
interface Target {
  /** Whether it holds any record or blob. */
  isEmpty(): Promise<boolean>;
  add(table: string, records: readonly StoredRecord[]): Promise<void>;
  readonly blobs: BlobStore;
  /** Makes what was added durable (a JSON file is written here, in one piece). */
  finish(): Promise<void>;
  /** The number of records of each table, as stored. */
  counts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

/** How many records one batch of a copy holds: one transaction of a PostgreSQL target. */
const BATCH = 500;

/** What a copy found: the record counts of each table on both sides, and the blobs copied. */
export interface CopyReport {
  readonly tables: readonly { table: string; source: number; target: number }[];
  readonly blobs: number;
  /** Whether every table has as many records in the target as in the source. */
  readonly complete: boolean;
}

/** Copies the installation at `from` into the one at `to` (a JSON data file or a PostgreSQL URL each). */
export async function copyInstallation(from: string, to: string, options: { replaceFile?: boolean } = {}): Promise<CopyReport> {
  if (!isPostgresUrl(from) && !isPostgresUrl(to) && resolve(from) === resolve(to)) throw new Error('The source and the target are the same file');
  const source = await openSource(from);
  try {
    const target = await openTarget(to, options.replaceFile === true);
    try {
      if (!(await target.isEmpty())) throw new TargetNotEmptyError(shownData(to));
      for await (const [table, records] of source.records()) await target.add(table, records);
      let blobs = 0;
      for await (const key of source.blobKeys()) {
        const bytes = await source.blobs.get(key);
        if (!bytes) throw new Error(`The blob ${key} vanished from the source while it was copied`);
        if ((await target.blobs.put(bytes)) !== key) throw new Error(`The blob ${key} does not hold the bytes of its key`);
        blobs++;
      }
      await target.finish();
      const stored = await target.counts();
      const names = [...new Set([...Object.keys(source.counts), ...Object.keys(stored)])].sort();
      const tables = names.map((table) => ({ table, source: source.counts[table] ?? 0, target: stored[table] ?? 0 }));
      return { tables, blobs, complete: tables.every((row) => row.source === row.target) };
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

/** A report as lines: a table of counts, then the blobs. */
export function describeCopy(report: CopyReport): string[] {
  const width = Math.max(...report.tables.map((row) => row.table.length), 5);
  return [
    `${'table'.padEnd(width)}  ${'source'.padStart(8)}  ${'target'.padStart(8)}`,
    ...report.tables.map((row) => `${row.table.padEnd(width)}  ${String(row.source).padStart(8)}  ${String(row.target).padStart(8)}${row.source === row.target ? '' : '  DIFFERS'}`),
    `${report.blobs} file blobs copied`,
  ];
}

async function openSource(data: string): Promise<Source> {
  if (isPostgresUrl(data)) {
    const { createPostgresStore } = await import('../postgres.js');
    const store = await createPostgresStore(postgresOptions(data));
    return {
      counts: await store.countRecords(),
      records: () => store.exportRecords(),
      blobKeys: () => store.exportBlobKeys(),
      blobs: store.blobs,
      close: () => store.close(),
    };
  }
  if (!existsSync(data)) throw new Error(`There is no data file at ${data}`);
  const { tables } = await readJsonData(data);
  return {
    counts: Object.fromEntries(tables.map(([table, records]) => [table, records.length])),
    async *records() {
      for (const [table, records] of tables) for (let i = 0; i < records.length; i += BATCH) yield [table, records.slice(i, i + BATCH)] as const;
    },
    blobKeys: () => folderBlobKeys(`${data}.blobs`),
    blobs: await createFolderBlobStore(`${data}.blobs`),
    close: async () => undefined,
  };
}

async function openTarget(data: string, replaceFile: boolean): Promise<Target> {
  if (isPostgresUrl(data)) {
    const { createPostgresStore } = await import('../postgres.js');
    // A database that does not exist yet is created, when the URL's user may: a copy's target is new.
    const store = await createPostgresStore({ ...postgresOptions(data), createDatabase: true });
    return {
      async isEmpty() {
        const counts = await store.countRecords();
        if (Object.values(counts).some((n) => n > 0)) return false;
        for await (const _ of store.exportBlobKeys()) return false;
        return true;
      },
      add: (table, records) =>
        store.write(async (tx) => {
          // The target was empty: plain inserts (they read nothing first), one statement a table and batch.
          for (const record of records) await tx.insert(table, record);
        }),
      blobs: store.blobs,
      finish: async () => undefined,
      counts: () => store.countRecords(),
      close: () => store.close(),
    };
  }
  // Nothing may open the file while it is written, and a file with data is never overwritten unless asked.
  await makePrivateFolder(dirname(resolve(data)));
  const release = await acquireLock(resolve(data));
  const tables = new Map<string, StoredRecord[]>();
  return {
    async isEmpty() {
      if (replaceFile) return true;
      const journal = (await readdir(dirname(resolve(data))).catch(() => [])).some((name) => name.startsWith(`${basename(data)}.journal.`));
      return !journal && (!existsSync(data) || statSync(data).size === 0) && !(await hasBlobs(`${data}.blobs`));
    },
    async add(table, records) {
      const rows = tables.get(table) ?? [];
      tables.set(table, rows);
      rows.push(...records);
    },
    blobs: await createFolderBlobStore(`${data}.blobs`),
    async finish() {
      await new DurableTextFile(resolve(data)).writeChunks(serializeSnapshot([...tables], 0));
    },
    async counts() {
      // What the file holds, read back from disk.
      const written = await readJsonData(data);
      return Object.fromEntries(written.tables.map(([table, records]) => [table, records.length]));
    },
    close: release,
  };
}

async function hasBlobs(folder: string): Promise<boolean> {
  for await (const _ of folderBlobKeys(folder)) return true;
  return false;
}
