import { dirname, resolve } from 'node:path';
import { Low } from 'lowdb';
import { DurableTextFile } from './durable-file.js';
import { WriteFailure, type Committed, type Engine } from './engine.js';
import { Journal, JournalBrokenError, segmentPath, type JournalEntry, type OpenSegment } from './journal.js';
import { acquireLock } from './lock-file.js';
import { makePrivateFolder, PRIVATE_FILE, tighten } from './private-files.js';
import { recover } from './recover.js';
import { serializeSnapshot } from './snapshot.js';
import { StoreClosedError, StoreUnavailableError, type Store, type StoreFigures } from './types.js';

export { CorruptDataFileError } from './snapshot.js';

/** The moments of a compaction, in order; `onCompactionStep` hears each (crash tests stop the process there). */
export type CompactionStep = 'started' | 'snapshot-written' | 'snapshot-renamed' | 'journal-removed';

/** When the journal is folded into a new snapshot. */
export interface CompactionPolicy {
  /** Never below this many journal bytes (default 8 MiB). */
  minBytes?: number;
  /** Once the journal is this fraction of the snapshot's size (default 0.5): rewrite cost stays proportional. */
  ratio?: number;
  /** Or once it holds this many transactions (default 100,000), which bounds replay time on open. */
  maxEntries?: number;
}

/** Options of the JSON-file store. */
export interface JsonFileStoreOptions {
  /** The snapshot file; created with its folder on the first write. The journal lives beside it. */
  path: string;
  compaction?: CompactionPolicy;
  /** Where recovery and compaction report (default: stderr). */
  log?: (line: string) => void;
  /** Hears every step of every compaction. */
  onCompactionStep?: (step: CompactionStep) => void | Promise<void>;
  /** Opens journal segments for appending; default the file system. Tests inject failing disks. */
  openSegment?: OpenSegment;
}

/**
 * Opens the JSON-file store: every record in memory; on disk, a snapshot (one JSON file, read and
 * written through lowdb) and an append-only journal beside it.
 *
 * A write transaction resolves once its changes are one checksummed line in the journal, fsynced.
 * Transactions that commit while an append is in flight share the next append and fsync (group
 * commit), so throughput grows with concurrency and does not depend on how much data there is.
 * In the background, once the journal is large enough, a compaction writes a new snapshot (temp file,
 * fsync, rename, fsync of the folder) while reads and writes go on, then drops the journal segments
 * the snapshot holds. Opening loads the snapshot and replays the journal after it, stopping a segment at
 * a torn or corrupt line (only a never-acknowledged append can be torn) and logging what it dropped.
 * Closing folds the journal into the snapshot, so a store that was closed is one JSON file.
 * The store holds `<path>.lock` while open. Every file it writes has mode 0600 and every folder it creates
 * 0700 (private-files.ts); opening takes the bits beyond those from a data file and journal left looser,
 * and logs a line for each.
 */
export async function createJsonFileStore(options: JsonFileStoreOptions): Promise<Store> {
  const path = resolve(options.path);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  await makePrivateFolder(dirname(path));
  const release = await acquireLock(path);
  try {
    const file = new DurableTextFile(path);
    await file.cleanUp();
    const db = new Low<string>(file, '');
    await db.read();
    const text = db.data;
    const contents = await Journal.read(path);
    for (const written of [path, ...contents.segments.map((number) => segmentPath(path, number))]) {
      const tightened = await tighten(written, PRIVATE_FILE);
      if (tightened) log(`docs-platform store: ${tightened}`);
    }
    const { engine, replayed } = recover(path, text, contents);
    const journal = await Journal.open(path, contents, options.openSegment);
    for (const tail of contents.dropped) {
      log(`docs-platform store: ignored ${tail.bytes} bytes at offset ${tail.offset} of ${tail.segment} (${tail.reason}); a write that was cut off by a crash was never acknowledged`);
    }
    if (replayed > 0) log(`docs-platform store: replayed ${replayed} journal entries after the snapshot of ${path}`);
    const store = new JsonFileStore(engine, file, journal, release, Buffer.byteLength(text ?? ''), options, log);
    store.compactIfDue();
    return store;
  } catch (error) {
    await release();
    throw error;
  }
}

class JsonFileStore implements Store {
  /** Committed transactions waiting for the next append. */
  private pending: JournalEntry[] = [];
  private durable: number;
  private flushing: Promise<void> | null = null;
  private compacting: Promise<void> | null = null;
  private waiters: { seq: number; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private closed = false;
  /** Set once the journal cannot take appends: every later write is refused with it. */
  private broken: StoreUnavailableError | null = null;
  private readonly policy: Required<CompactionPolicy>;
  private compactions = 0;

  constructor(
    private readonly engine: Engine,
    private readonly file: DurableTextFile,
    private readonly journal: Journal,
    private readonly release: () => Promise<void>,
    private snapshotBytes: number,
    private readonly options: JsonFileStoreOptions,
    private readonly log: (line: string) => void,
  ) {
    this.durable = engine.sequence;
    this.policy = { minBytes: 8 * 1024 * 1024, ratio: 0.5, maxEntries: 100_000, ...options.compaction };
  }

  read<T>(fn: Parameters<Store['read']>[0]): Promise<T> {
    // Not async: the engine's promise is returned as it is, without another promise and turn around it.
    if (this.closed) return Promise.reject(new StoreClosedError());
    return this.engine.read(fn) as Promise<T>;
  }

  /**
   * Commits in memory, then waits until the journal holds the commit and every commit before it: those
   * are what `fn` read. Only then is it visible to reads and acknowledged. A failed append rolls back.
   * One write at a time holds every scope, so declared locks (options.locks) need nothing more.
   */
  async write<T>(fn: Parameters<Store['write']>[0]): Promise<T> {
    if (this.closed) throw new StoreClosedError();
    if (this.broken) throw this.broken;
    let committed: Committed<T>;
    try {
      committed = (await this.engine.write(fn)) as Committed<T>;
    } catch (error) {
      if (!(error instanceof WriteFailure)) throw error;
      // Its error may tell of what it read (a conflict with a record not yet durable): not before it is.
      await this.waitDurable(error.seq);
      throw error.error;
    }
    const { result, changes, seq, generation } = committed;
    // Rolled back between its commit and now: it read a write that failed.
    if (generation !== this.engine.generation) throw this.rolledBack();
    if (changes.length > 0) this.pending.push({ seq, changes });
    await this.waitDurable(seq);
    return result;
  }

  figures(): StoreFigures {
    return { journalBytes: this.journal.size.bytes, compactions: this.compactions };
  }

  async ready(): Promise<void> {
    if (this.closed) throw new StoreClosedError();
    if (this.broken) throw this.broken;
    try {
      await this.journal.writable();
    } catch (error) {
      throw new StoreUnavailableError(`The data file's journal cannot be written: ${(error as Error).message}`, { cause: error });
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.waitDurable(this.engine.sequence).catch(() => undefined);
      await this.compacting;
      // Leave one self-contained JSON file behind: what users read, copy and back up.
      if (this.journal.size.entries > 0 && !this.broken) await this.compact();
      await this.journal.close();
    } finally {
      await this.release();
    }
  }

  /** Starts a compaction in the background when the journal has grown past the policy's threshold. */
  compactIfDue(): void {
    if (this.compacting || this.closed) return;
    const { bytes, entries } = this.journal.size;
    const threshold = Math.max(this.policy.minBytes, this.policy.ratio * this.snapshotBytes);
    if (bytes < threshold && entries < this.policy.maxEntries) return;
    this.compacting = this.compact()
      .catch((error) => this.log(`docs-platform store: compaction failed, the journal is kept: ${(error as Error).message}`))
      .finally(() => {
        this.compacting = null;
      });
  }

  /**
   * Writes a snapshot of the durable state and removes the journal segments it holds. The journal moves
   * to a new segment first; once every entry of the older segments is visible, the visible state is
   * captured, which holds them all. Records are immutable, so capturing is copying references, and writes
   * go on meanwhile.
   */
  private async compact(): Promise<void> {
    const step = this.options.onCompactionStep ?? (() => undefined);
    await step('started');
    const sealed = await this.journal.rotate();
    await this.waitDurable(sealed.lastSeq);
    const { sequence, tables } = this.engine.captureVisible();
    this.snapshotBytes = await this.file.writeChunks(serializeSnapshot(tables, sequence), async () => {
      await step('snapshot-written');
    });
    await step('snapshot-renamed');
    await this.journal.removeThrough(sealed);
    this.compactions++;
    await step('journal-removed');
  }

  /** Resolves once the commits up to `seq` are durable (and visible); rejects if they were rolled back. */
  private waitDurable(seq: number): Promise<void> {
    if (this.durable >= seq) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ seq, resolve, reject });
      this.flushing ??= this.flushLoop();
    });
  }

  /** Appends to the journal until every commit is in it; each append covers all commits made before it began. */
  private async flushLoop(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending;
        this.pending = [];
        const upTo = batch[batch.length - 1].seq;
        try {
          await this.journal.append(batch);
        } catch (error) {
          await this.rollBack(error);
          continue;
        }
        this.durable = upTo;
        this.engine.publish(upTo);
        this.settle(upTo);
        // Checked after every append: under steady load this loop never ends, yet the journal must fold.
        this.compactIfDue();
      }
    } finally {
      this.flushing = null;
    }
  }

  /**
   * After a failed append: undoes in memory every commit the journal does not hold (the failed ones, and
   * any that came after them and read them), in the write queue's turn, and fails their writers. Rolling
   * back keeps the store taking writes (a disk that was full may have room again) without the seconds a
   * reopen from disk takes; the journal has cut off the failed append. When it could not, the store takes
   * no more writes: only a reopen, whose recovery stops at the torn entry, can be trusted.
   */
  private async rollBack(error: unknown): Promise<void> {
    const reason = error instanceof JournalBrokenError ? error.appendError : error;
    const failure = new StoreUnavailableError(`The write could not be saved to disk (${(reason as Error)?.message ?? String(reason)}); nothing of it was kept`, {
      cause: reason,
    });
    if (error instanceof JournalBrokenError) {
      this.broken = new StoreUnavailableError(`The data file's journal cannot take writes since a failed disk write (${error.message}); restart to reopen it`, {
        cause: error,
      });
      this.log(`docs-platform store: ${this.broken.message}`);
    }
    await this.engine.exclusive(() => {
      const undone = this.engine.rollbackTo(this.durable);
      this.log(`docs-platform store: a journal append failed (${failure.message}); rolled back ${undone} unacknowledged transactions`);
      this.pending = [];
      this.settle(Infinity, failure, this.durable);
    });
  }

  /** The error of a write that was rolled back after it committed. */
  private rolledBack(): StoreUnavailableError {
    return this.broken ?? new StoreUnavailableError('The write read data that could not be saved to disk; nothing of it was kept');
  }

  /** Resolves the waiters up to `upTo`, or rejects with `error` those above `from`. */
  private settle(upTo: number, error?: unknown, from = -1): void {
    const done = this.waiters.filter((waiter) => waiter.seq <= upTo && waiter.seq > from);
    this.waiters = this.waiters.filter((waiter) => !(waiter.seq <= upTo && waiter.seq > from));
    for (const waiter of done) {
      if (error === undefined) waiter.resolve();
      else waiter.reject(error);
    }
  }
}
