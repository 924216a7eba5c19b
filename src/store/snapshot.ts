import { setImmediate as nextTurn } from 'node:timers/promises';
import type { TablesData } from './engine.js';
import type { StoredRecord } from './types.js';

/** The first fields of a data file; anything else is refused rather than overwritten. */
const FORMAT = 'docs-platform';
const VERSION = 1;

/** Thrown when the data file exists but is not a docs-platform data file that can be read. */
export class CorruptDataFileError extends Error {
  constructor(path: string, reason: string) {
    super(`${path} cannot be read as a docs-platform data file (${reason}); it has been left untouched`);
    this.name = 'CorruptDataFileError';
  }
}

/** A snapshot: every table, and the sequence number of the last transaction it holds. */
export interface Snapshot {
  readonly tables: TablesData;
  readonly sequence: number;
}

/** Reads a snapshot file's text (null or empty: no file yet); throws CorruptDataFileError otherwise. */
export function parseSnapshot(path: string, text: string | null): Snapshot {
  if (text === null || text === '') return { tables: {}, sequence: 0 };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CorruptDataFileError(path, `invalid JSON: ${(error as Error).message}`);
  }
  const file = data as { format?: unknown; version?: unknown; sequence?: unknown; tables?: unknown };
  if (!file || typeof file !== 'object' || file.format !== FORMAT) {
    throw new CorruptDataFileError(path, `"format" is not "${FORMAT}"`);
  }
  if (file.version !== VERSION) throw new CorruptDataFileError(path, `unsupported version ${String(file.version)}`);
  if (!file.tables || typeof file.tables !== 'object') throw new CorruptDataFileError(path, '"tables" is missing');
  const sequence = file.sequence ?? 0;
  if (typeof sequence !== 'number' || !Number.isInteger(sequence) || sequence < 0) {
    throw new CorruptDataFileError(path, '"sequence" is not a non-negative integer');
  }
  return { tables: file.tables as TablesData, sequence };
}

/** The tables of a snapshot being written: each table's records, captured at one sequence number. */
export type CapturedTables = readonly (readonly [table: string, records: readonly StoredRecord[]])[];

/**
 * Characters of JSON serialized per chunk before the writer yields to the event loop: a few hundred
 * microseconds of work. Chunks of 1,000 records (~480 KB, ~3 ms) held every write that needed the
 * event loop behind them: during a compaction of 100,000 records the median durable write took 5-10
 * times as long as outside one. Counted in characters, not records, so large records yield as often.
 */
const CHUNK_CHARS = 64 * 1024;

/**
 * Serializes a snapshot a chunk at a time, one record per line so the file diffs and greps well,
 * yielding to the event loop between chunks so that requests keep being served while a large
 * snapshot is written.
 */
export async function* serializeSnapshot(tables: CapturedTables, sequence: number): AsyncGenerator<string> {
  let parts: string[] = [`{"format":"${FORMAT}","version":${VERSION},"sequence":${sequence},"tables":{`];
  let pending = 0;
  let firstTable = true;
  for (const [table, records] of tables) {
    parts.push(`${firstTable ? '' : ','}\n${JSON.stringify(table)}:{`);
    firstTable = false;
    let firstRow = true;
    for (const record of records) {
      const line = `${firstRow ? '' : ','}\n${JSON.stringify(record.id)}:${JSON.stringify(record)}`;
      parts.push(line);
      firstRow = false;
      pending += line.length;
      if (pending >= CHUNK_CHARS) {
        yield parts.join('');
        parts = [];
        pending = 0;
        await nextTurn();
      }
    }
    parts.push('}');
  }
  parts.push('}}\n');
  yield parts.join('');
}
