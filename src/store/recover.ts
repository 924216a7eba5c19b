import { Engine } from './engine.js';
import type { JournalContents } from './journal.js';
import { parseSnapshot } from './snapshot.js';

/** The state a snapshot and its journal hold, and how much of the journal was applied. */
export interface Recovered {
  readonly engine: Engine;
  /** Journal entries applied after the snapshot (entries the snapshot already held are skipped). */
  readonly replayed: number;
}

/**
 * Rebuilds the state from a snapshot's text (null: no snapshot yet) and the journal read beside it.
 * Entries at or below the snapshot's sequence are already in it: a crash between a compaction's rename
 * and its removal of the old segments leaves them behind. Throws CorruptDataFileError for a bad snapshot.
 */
export function recover(path: string, text: string | null, journal: JournalContents): Recovered {
  const snapshot = parseSnapshot(path, text);
  const engine = new Engine(snapshot.tables);
  engine.resumeAt(snapshot.sequence);
  let replayed = 0;
  for (const entry of journal.entries) {
    if (entry.seq <= snapshot.sequence) continue;
    engine.replay(entry.seq, entry.changes);
    replayed++;
  }
  return { engine, replayed };
}
