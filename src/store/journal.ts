import { crc32 } from 'node:zlib';
import { constants } from 'node:fs';
import { access, readdir, readFile, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { syncFolder } from './durable-file.js';
import { openPrivate } from './private-files.js';
import type { Change } from './engine.js';
import type { StoredRecord } from './types.js';

/** One committed write transaction as the journal holds it: its sequence number and what it changed. */
export interface JournalEntry {
  readonly seq: number;
  readonly changes: readonly Change[];
}

/** What recovery could not read: a torn or corrupt tail of a segment (only never-acknowledged data). */
export interface DroppedTail {
  readonly segment: string;
  /** Where the unreadable part starts, and how many bytes it spans. */
  readonly offset: number;
  readonly bytes: number;
  readonly reason: string;
}

/** What reading the journal found. */
export interface JournalContents {
  readonly entries: JournalEntry[];
  readonly dropped: DroppedTail[];
  /** The segment numbers found, ascending. */
  readonly segments: number[];
  readonly bytes: number;
}

/** The segments a rotation sealed: once a snapshot holds them, they can go. */
export interface SealedSegments {
  readonly through: number;
  /** The sequence number of the last entry in them that this process appended (0: none). */
  readonly lastSeq: number;
  readonly bytes: number;
  readonly entries: number;
}

const SEGMENT_DIGITS = 8;

/** The file operations an append uses: a node FileHandle opened for appending has them. */
export interface SegmentHandle {
  write(bytes: Uint8Array, offset: number, length: number): Promise<{ bytesWritten: number }>;
  datasync(): Promise<void>;
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

/** Opens a segment file for appending; tests inject one that fails (a full disk, an I/O error). */
export type OpenSegment = (path: string) => Promise<SegmentHandle>;

const openForAppend: OpenSegment = (path) => openPrivate(path, 'a');

/**
 * Thrown by an append that failed and whose partial write could not be cut off either: the segment may
 * end in a torn or refused entry, so the journal takes no more appends.
 */
export class JournalBrokenError extends Error {
  constructor(
    readonly appendError: unknown,
    readonly repairError: unknown,
  ) {
    super(`The journal could not be repaired after a failed append (${(appendError as Error)?.message}; then ${(repairError as Error)?.message})`);
    this.name = 'JournalBrokenError';
  }
}

/**
 * The append-only journal beside a snapshot file: numbered segment files `<file>.journal.00000001`, ...
 * Each line is one committed transaction, `<crc32 hex> <json>\n`, the checksum covering the JSON text.
 * A crash mid-append leaves at most one torn line at the end of the segment being written; reading
 * stops a segment at its first line that is incomplete or fails its checksum. A process always appends
 * to a segment of its own, started when it opens the store or compacts, so nothing it acknowledges can
 * follow a torn line.
 */
export class Journal {
  private handle: SegmentHandle | null = null;
  private current = 0;
  /** The sequence number of the last entry appended (0: none since open). */
  private lastSeq = 0;
  /** Bytes appended to the current segment. */
  private currentBytes = 0;
  /** Bytes appended to every live segment (those not yet folded into a snapshot). */
  private liveBytes = 0;
  private liveEntries = 0;
  /** Appends and rotations run one after the other. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly path: string,
    private readonly openSegment: OpenSegment = openForAppend,
  ) {}

  /** Reads every segment of the journal of `path`, writing nothing (also for backups, while a store has it open). */
  static read(path: string): Promise<JournalContents> {
    return new Journal(path).readAll();
  }

  /** Opens the journal of `path` for appending, after `contents` (what `read` found): appends go to a new segment. */
  static async open(path: string, contents: JournalContents, openSegment?: OpenSegment): Promise<Journal> {
    const journal = new Journal(path, openSegment);
    journal.liveBytes = contents.bytes;
    journal.liveEntries = contents.entries.length;
    await journal.startSegment((contents.segments.at(-1) ?? 0) + 1);
    return journal;
  }

  /** Bytes and entries in the journal now: what a compaction would fold into the snapshot. */
  get size(): { bytes: number; entries: number } {
    return { bytes: this.liveBytes, entries: this.liveEntries };
  }

  /** The segment being appended to. */
  get segment(): number {
    return this.current;
  }

  /**
   * Appends entries as one write and makes them durable (fdatasync) before resolving: the caller
   * acknowledges the transactions only then. A failed append is cut off again (truncate, fdatasync), so
   * that no refused entry is replayed by a recovery and later entries follow whole ones; when that fails
   * too, it rejects with JournalBrokenError and the journal takes no more appends.
   */
  append(entries: readonly JournalEntry[]): Promise<void> {
    return this.serially(() => this.appendNow(entries));
  }

  private async appendNow(entries: readonly JournalEntry[]): Promise<void> {
    const handle = this.handle;
    if (!handle) throw new Error('The journal is closed');
    const bytes = await encodeEntries(entries);
    try {
      // A write may be short (a disk filling up): the next one then fails with the reason.
      for (let written = 0; written < bytes.length; ) written += (await handle.write(bytes, written, bytes.length - written)).bytesWritten;
      await handle.datasync();
    } catch (error) {
      try {
        await handle.truncate(this.currentBytes);
        await handle.datasync();
      } catch (repairError) {
        this.handle = null;
        await handle.close().catch(() => undefined);
        throw new JournalBrokenError(error, repairError);
      }
      throw error;
    }
    this.liveBytes += bytes.length;
    this.liveEntries += entries.length;
    this.currentBytes += bytes.length;
    this.lastSeq = entries[entries.length - 1].seq;
  }

  /**
   * Starts a new segment and returns the number of the last one before it: once a snapshot holding every
   * entry of those segments is durable, `removeThrough` deletes them.
   */
  rotate(): Promise<SealedSegments> {
    return this.serially(async () => {
      const sealed = { through: this.current, bytes: this.liveBytes, entries: this.liveEntries, lastSeq: this.lastSeq };
      await this.startSegment(this.current + 1);
      return sealed;
    });
  }

  /** Deletes the segments numbered `through` and below, after a snapshot made them redundant. */
  async removeThrough(sealed: SealedSegments): Promise<void> {
    for (const number of await this.segmentNumbers()) {
      if (number <= sealed.through) await unlink(this.segmentPath(number)).catch(() => undefined);
    }
    await syncFolder(dirname(this.path));
    this.liveBytes -= sealed.bytes;
    this.liveEntries -= sealed.entries;
  }

  /**
   * Resolves when an append could go ahead now: the journal is open, and its current segment and its folder
   * may be written to (a file or folder made read-only, or removed, under the store rejects).
   */
  async writable(): Promise<void> {
    if (!this.handle) throw new Error('The journal is closed');
    await access(this.segmentPath(this.current), constants.W_OK);
    await access(dirname(this.path), constants.W_OK);
  }

  /** Closes the current segment, and deletes it when nothing was appended to it. */
  close(): Promise<void> {
    return this.serially(async () => {
      const handle = this.handle;
      this.handle = null;
      if (!handle) return;
      await handle.close();
      if (this.currentBytes === 0) {
        await unlink(this.segmentPath(this.current)).catch(() => undefined);
        await syncFolder(dirname(this.path));
      }
    });
  }

  private serially<T>(step: () => Promise<T>): Promise<T> {
    const run = this.queue.then(step);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async startSegment(number: number): Promise<void> {
    const handle = await this.openSegment(this.segmentPath(number));
    await syncFolder(dirname(this.path));
    const previous = this.handle;
    this.handle = handle;
    this.current = number;
    this.currentBytes = 0;
    await previous?.close().catch(() => undefined);
  }

  private segmentPath(number: number): string {
    return segmentPath(this.path, number);
  }

  private async segmentNumbers(): Promise<number[]> {
    const prefix = `${basename(this.path)}.journal.`;
    const names = await readdir(dirname(this.path));
    return names
      .filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
      .map((name) => Number(name.slice(prefix.length)))
      .sort((a, b) => a - b);
  }

  private async readAll(): Promise<JournalContents> {
    const segments = await this.segmentNumbers();
    const entries: JournalEntry[] = [];
    const dropped: DroppedTail[] = [];
    let bytes = 0;
    for (const number of segments) {
      const path = this.segmentPath(number);
      const data = await readFile(path);
      const read = decodeSegment(data);
      entries.push(...read.entries);
      bytes += read.validBytes;
      if (read.validBytes < data.length) {
        dropped.push({ segment: path, offset: read.validBytes, bytes: data.length - read.validBytes, reason: read.reason! });
      }
    }
    return { entries, dropped, segments, bytes };
  }
}

/**
 * The JSON text of an entry in pieces: `{"s":<seq>,"c":[`, each change as `[table, id, record]` (a comma
 * before all but the first), `]}`. Joined, they are JSON.stringify of `{ s, c }`.
 */
function* entryJson(entry: JournalEntry): Generator<string> {
  yield `{"s":${JSON.stringify(entry.seq)},"c":[`;
  for (let index = 0; index < entry.changes.length; index++) {
    const { table, id, record } = entry.changes[index];
    yield `${index > 0 ? ',' : ''}${JSON.stringify([table, id, record])}`;
  }
  yield ']}';
}

/** One journal line: the checksum of the JSON text, a space, the text, a newline. */
export function encodeEntry(entry: JournalEntry): string {
  const json = JSON.stringify({ s: entry.seq, c: entry.changes.map((change) => [change.table, change.id, change.record]) });
  return `${hex(crc32(json))} ${json}\n`;
}

/** Up to how many changes entries are encoded whole, without slices. */
const ENCODE_WHOLE_CHANGES = 256;

/** How long encoding entries may hold the event loop before it lets other work run. */
const ENCODING_SLICE_MS = 2;

/**
 * The lines of entries (encodeEntry), as bytes, encoded in slices of about ENCODING_SLICE_MS with a turn of
 * the event loop between them, the checksum carried from piece to piece. A transaction of a thousand pages
 * (an import) took 6-8 ms of one turn to encode whole (heavy-work bench, CPU profiles), while requests waited.
 */
async function encodeEntries(entries: readonly JournalEntry[]): Promise<Buffer> {
  // A few changes encode in one go, in a few microseconds (pieces cost a small write about twice as much).
  if (entries.reduce((changes, entry) => changes + entry.changes.length, 0) <= ENCODE_WHOLE_CHANGES) return Buffer.from(entries.map(encodeEntry).join(''), 'utf8');
  const pieces: Buffer[] = [];
  let sliceStarted = performance.now();
  for (const entry of entries) {
    const json: Buffer[] = [];
    let checksum = 0;
    for (const text of entryJson(entry)) {
      const bytes = Buffer.from(text, 'utf8');
      checksum = crc32(bytes, checksum);
      json.push(bytes);
      if (performance.now() - sliceStarted > ENCODING_SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStarted = performance.now();
      }
    }
    pieces.push(Buffer.from(`${hex(checksum)} `), ...json, Buffer.from('\n'));
  }
  return Buffer.concat(pieces);
}

/** Reads the lines of a segment up to the first one that is torn or corrupt. */
export function decodeSegment(data: Buffer): { entries: JournalEntry[]; validBytes: number; reason?: string } {
  const entries: JournalEntry[] = [];
  let offset = 0;
  while (offset < data.length) {
    const end = data.indexOf(0x0a, offset);
    if (end === -1) return { entries, validBytes: offset, reason: 'incomplete last line (torn append)' };
    const line = data.toString('utf8', offset, end);
    const entry = decodeLine(line);
    if (typeof entry === 'string') return { entries, validBytes: offset, reason: entry };
    entries.push(entry);
    offset = end + 1;
  }
  return { entries, validBytes: offset };
}

function decodeLine(line: string): JournalEntry | string {
  const space = line.indexOf(' ');
  const json = line.slice(space + 1);
  if (space !== 8 || line.slice(0, 8) !== hex(crc32(json))) return 'checksum mismatch';
  try {
    const { s, c } = JSON.parse(json) as { s: number; c: [string, string, StoredRecord | null][] };
    return { seq: s, changes: c.map(([table, id, record]) => ({ table, id, record })) };
  } catch {
    return 'unparseable entry';
  }
}

function hex(value: number): string {
  return value.toString(16).padStart(8, '0');
}

/** The file of segment `number` of the journal of `path`. */
export function segmentPath(path: string, number: number): string {
  return `${path}.journal.${String(number).padStart(SEGMENT_DIGITS, '0')}`;
}

/** The folder and base name a journal lives beside; exported for tests and backups. */
export function journalPrefix(path: string): string {
  return join(dirname(path), `${basename(path)}.journal.`);
}
