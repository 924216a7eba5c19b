import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Low } from 'lowdb';
import { DurableTextFile } from './durable-file.js';
import { Engine, type TablesData } from './engine.js';
import { acquireLock } from './lock-file.js';
import { StoreClosedError, type Store } from './types.js';

/** The first fields of a data file; anything else is refused rather than overwritten. */
const FORMAT = 'docs-platform';
const VERSION = 1;

/** Options of the JSON-file store. */
export interface JsonFileStoreOptions {
  /** The data file; created with its folder on the first write. */
  path: string;
}

/** Thrown when the data file exists but is not a docs-platform data file that can be read. */
export class CorruptDataFileError extends Error {
  constructor(path: string, reason: string) {
    super(`${path} cannot be read as a docs-platform data file (${reason}); it has been left untouched`);
    this.name = 'CorruptDataFileError';
  }
}

/**
 * Opens the JSON-file store: every record in memory, persisted through lowdb to one JSON file.
 * Write transactions that commit while a file write is in progress are written together by the next
 * one (group commit): one atomic, fsynced file replace acknowledges all of them. A write resolves only
 * after the file that holds it is durable. The store holds `<path>.lock` while open.
 */
export async function createJsonFileStore(options: JsonFileStoreOptions): Promise<Store> {
  const path = resolve(options.path);
  await mkdir(dirname(path), { recursive: true });
  const release = await acquireLock(path);
  try {
    const file = new DurableTextFile(path);
    await file.cleanUp();
    const db = new Low<string>(file, '');
    await db.read();
    const engine = new Engine(parse(path, db.data));
    return new JsonFileStore(engine, db, release);
  } catch (error) {
    await release();
    throw error;
  }
}

function parse(path: string, text: string | null): TablesData {
  if (text === null || text === '') return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CorruptDataFileError(path, `invalid JSON: ${(error as Error).message}`);
  }
  const file = data as { format?: unknown; version?: unknown; tables?: unknown };
  if (!file || typeof file !== 'object' || file.format !== FORMAT) {
    throw new CorruptDataFileError(path, `"format" is not "${FORMAT}"`);
  }
  if (file.version !== VERSION) throw new CorruptDataFileError(path, `unsupported version ${String(file.version)}`);
  if (!file.tables || typeof file.tables !== 'object') throw new CorruptDataFileError(path, '"tables" is missing');
  return file.tables as TablesData;
}

/** Serializes the engine's tables: one record per line, so the file diffs and greps well. */
function serialize(engine: Engine): string {
  const parts: string[] = [`{"format":"${FORMAT}","version":${VERSION},"tables":{`];
  let firstTable = true;
  for (const [table, rows] of engine.entries()) {
    parts.push(`${firstTable ? '' : ','}\n${JSON.stringify(table)}:{`);
    firstTable = false;
    let firstRow = true;
    for (const [id, record] of rows) {
      parts.push(`${firstRow ? '' : ','}\n${JSON.stringify(id)}:${JSON.stringify(record)}`);
      firstRow = false;
    }
    parts.push('}');
  }
  parts.push('}}\n');
  return parts.join('');
}

class JsonFileStore implements Store {
  /** Commits applied in memory so far, and how many of them are on disk. */
  private committed = 0;
  private durable = 0;
  private flushing: Promise<void> | null = null;
  private waiters: { upTo: number; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private closed = false;

  constructor(
    private readonly engine: Engine,
    private readonly db: Low<string>,
    private readonly release: () => Promise<void>,
  ) {}

  async read<T>(fn: Parameters<Store['read']>[0]): Promise<T> {
    if (this.closed) throw new StoreClosedError();
    return this.engine.read(fn) as Promise<T>;
  }

  async write<T>(fn: Parameters<Store['write']>[0]): Promise<T> {
    if (this.closed) throw new StoreClosedError();
    const { result, changes } = await this.engine.write(fn);
    if (changes.length > 0) await this.waitDurable(++this.committed);
    return result as T;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.waitDurable(this.committed).finally(() => this.release());
  }

  private waitDurable(upTo: number): Promise<void> {
    if (this.durable >= upTo) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ upTo, resolve, reject });
      this.flushing ??= this.flushLoop();
    });
  }

  /** Writes the file until every commit is on disk; each round covers all commits made before it began. */
  private async flushLoop(): Promise<void> {
    try {
      while (this.durable < this.committed) {
        const upTo = this.committed;
        this.db.data = serialize(this.engine);
        try {
          await this.db.write();
        } catch (error) {
          // The commits stay in memory but were never acknowledged; fail their writers.
          this.settle(upTo, error);
          continue;
        }
        this.durable = upTo;
        this.settle(upTo);
      }
    } finally {
      this.flushing = null;
    }
  }

  private settle(upTo: number, error?: unknown): void {
    const done = this.waiters.filter((waiter) => waiter.upTo <= upTo);
    this.waiters = this.waiters.filter((waiter) => waiter.upTo > upTo);
    for (const waiter of done) {
      if (error === undefined) waiter.resolve();
      else waiter.reject(error);
    }
    if (error !== undefined) this.durable = upTo;
  }
}
