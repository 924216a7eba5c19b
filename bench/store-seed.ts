import { copyFile, mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DurableTextFile } from '../src/store/durable-file.js';
import { encodeEntry, journalPrefix, type JournalEntry } from '../src/store/journal.js';
import { serializeSnapshot } from '../src/store/snapshot.js';
import { MEMBERS, benchMember, touchedMember, type BenchMemberRecord } from './store-records.js';

/** What a store of the store case holds on disk before it is opened. */
export interface StoreFiles {
  readonly path: string;
  readonly records: number;
  /** Transactions in the journal after the snapshot, each changing one record. */
  readonly journalEntries: number;
  readonly snapshotBytes: number;
  readonly journalBytes: number;
}

/** The sequence number the seeded snapshot is taken at: as if the records came in one transaction. */
const SNAPSHOT_SEQUENCE = 1;
/** Journal lines written per write() call. */
const LINES_PER_WRITE = 1000;

/** A store to write: its snapshot file, its members, and how many journal entries follow the snapshot. */
export interface StorePlan {
  readonly path: string;
  readonly records: number;
  readonly journalEntries: number;
}

/**
 * Writes the files of stores directly, in the store's own format, through its own serializers (the
 * snapshot's serializeSnapshot, the journal's encodeEntry): a snapshot of `records` members, then,
 * when `journalEntries` > 0, a journal segment of that many transactions after it, each a new version
 * of one member (members in turn). Through the store, 100,000 members would be 100,000 durable
 * commits or a few huge transactions; written directly they take about a second. Stores of the same
 * size get copies of one snapshot.
 */
export async function writeStoreFiles(plans: readonly StorePlan[]): Promise<StoreFiles[]> {
  const written = new Map<number, { path: string; bytes: number; members: BenchMemberRecord[] }>();
  const files: StoreFiles[] = [];
  for (const { path, records, journalEntries } of plans) {
    await mkdir(dirname(path), { recursive: true });
    let snapshot = written.get(records);
    if (snapshot) await copyDurably(snapshot.path, path);
    else {
      const members = Array.from({ length: records }, (_, n) => benchMember(n));
      written.set(records, (snapshot = { path, members, bytes: await writeText(path, serializeSnapshot([[MEMBERS, members]], SNAPSHOT_SEQUENCE)) }));
    }
    let journalBytes = 0;
    if (journalEntries > 0) {
      // The first segment: the store reads every `<path>.journal.<digits>` and appends to a new one.
      journalBytes = await writeText(`${journalPrefix(path)}00000001`, journalLines([...snapshot.members], journalEntries));
    }
    files.push({ path, records, journalEntries, snapshotBytes: snapshot.bytes, journalBytes });
  }
  return files;
}

/** The journal's lines, a chunk at a time; replaces each member it touches in `members` by the new version. */
function* journalLines(members: BenchMemberRecord[], count: number): Generator<string> {
  const now = new Date();
  let lines: string[] = [];
  for (let n = 0; n < count; n++) {
    const at = n % members.length;
    members[at] = touchedMember(members[at], n + 1, now);
    const entry: JournalEntry = { seq: SNAPSHOT_SEQUENCE + 1 + n, changes: [{ table: MEMBERS, id: members[at].id, record: members[at] }] };
    lines.push(encodeEntry(entry));
    if (lines.length === LINES_PER_WRITE) {
      yield lines.join('');
      lines = [];
    }
  }
  yield lines.join('');
}

/**
 * Copies a file and fsyncs the copy. Left in the page cache, the copies (~150 MB) would be written
 * back to disk later, maybe while writers are measured, whose fsyncs would wait behind that.
 */
async function copyDurably(from: string, to: string): Promise<void> {
  await copyFile(from, to);
  const file = await open(to, 'r+');
  try {
    await file.sync();
  } finally {
    await file.close();
  }
}

/** Writes a file from chunks of text with the store's own durable writer (temporary file, fsync, rename). */
function writeText(path: string, chunks: Iterable<string> | AsyncIterable<string>): Promise<number> {
  return new DurableTextFile(path).writeChunks(chunks);
}
