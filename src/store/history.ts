import type { StoredRecord } from './types.js';

/** What a record was before a commit changed it: null when the commit created it. */
interface Before {
  readonly seq: number;
  readonly record: StoredRecord | null;
}

/** One commit's undo information: for each record it changed, the record before it. */
export interface CommitUndo {
  readonly seq: number;
  readonly changes: readonly (readonly [table: string, id: string, before: StoredRecord | null])[];
}

/**
 * The recent past of an engine's tables, so that a reader can see the state as of one sequence number
 * while later commits are applied: for every commit newer than the oldest state still needed, what each
 * record it changed was before it. The current state minus the commits after `seq` is the state at `seq`.
 *
 * What is needed: the state readers may pin (the visible one, which trails the applied one until the
 * commits in between are durable) and the states open read transactions have pinned. Each record keeps a
 * chain of its befores in commit order, so a lookup is one map read and a short scan.
 */
export class History {
  /** Remembered commits, oldest first. */
  private readonly commits: CommitUndo[] = [];
  /** Per table and record id, the befores of the remembered commits that changed it, oldest first. */
  private readonly chains = new Map<string, Map<string, Before[]>>();
  /** The last commit that changed each table (possibly forgotten since: then nothing after a pin changed it). */
  private readonly lastChange = new Map<string, number>();
  /** Open read transactions per pinned sequence, in pinning order: sequences are pinned in ascending order. */
  private readonly pins = new Map<number, number>();

  /** Remembers what a commit changed. */
  record(undo: CommitUndo): void {
    if (undo.changes.length === 0) return;
    this.commits.push(undo);
    for (const [table, id, record] of undo.changes) {
      let rows = this.chains.get(table);
      if (!rows) this.chains.set(table, (rows = new Map()));
      const chain = rows.get(id);
      if (chain) chain.push({ seq: undo.seq, record });
      else rows.set(id, [{ seq: undo.seq, record }]);
      this.lastChange.set(table, undo.seq);
    }
  }

  /** Whether a commit after `seq` changed anything (the cheap test every read makes first). */
  changedAfter(seq: number): boolean {
    return this.commits.length > 0 && this.commits[this.commits.length - 1].seq > seq;
  }

  /** Whether a commit after `seq` changed `table`. */
  tableChangedAfter(table: string, seq: number): boolean {
    return (this.lastChange.get(table) ?? 0) > seq && this.changedAfter(seq);
  }

  /**
   * A record as it was at `seq`: `undefined` when no commit after `seq` changed it (the current record is
   * the one), else the record then, or null when there was none.
   */
  at(table: string, id: string, seq: number): StoredRecord | null | undefined {
    const chain = this.chains.get(table)?.get(id);
    if (!chain) return undefined;
    for (const before of chain) if (before.seq > seq) return before.record;
    return undefined;
  }

  /** Every record of `table` that a commit after `seq` changed, as it was at `seq` (null: absent then). */
  overlayAt(table: string, seq: number): Map<string, StoredRecord | null> {
    const overlay = new Map<string, StoredRecord | null>();
    for (const [id, chain] of this.chains.get(table) ?? []) {
      const before = chain.find((entry) => entry.seq > seq);
      if (before) overlay.set(id, before.record);
    }
    return overlay;
  }

  /** Marks the state at `seq` as read by one more transaction: it stays reconstructible until unpinned. */
  pin(seq: number): void {
    this.pins.set(seq, (this.pins.get(seq) ?? 0) + 1);
  }

  /** Ends one transaction's pin of `seq`. */
  unpin(seq: number): void {
    const left = this.pins.get(seq)! - 1;
    if (left > 0) this.pins.set(seq, left);
    else this.pins.delete(seq);
  }

  /** The oldest pinned sequence, if any: the first key, since pins are taken in ascending order. */
  private oldestPin(): number | undefined {
    for (const seq of this.pins.keys()) return seq;
    return undefined;
  }

  /** Forgets the commits no state still needed predates: those at or below `visible` and every pin. */
  forget(visible: number): void {
    const floor = Math.min(visible, this.oldestPin() ?? visible);
    let drop = 0;
    while (drop < this.commits.length && this.commits[drop].seq <= floor) {
      for (const [table, id] of this.commits[drop].changes) {
        const rows = this.chains.get(table)!;
        const chain = rows.get(id)!;
        chain.shift();
        if (chain.length === 0) rows.delete(id);
      }
      drop++;
    }
    if (drop > 0) this.commits.splice(0, drop);
  }

  /** Removes and returns the commits after `seq`, newest first: a rollback undoes them in that order. */
  takeAfter(seq: number): CommitUndo[] {
    const taken: CommitUndo[] = [];
    while (this.commits.length > 0 && this.commits[this.commits.length - 1].seq > seq) {
      const undo = this.commits.pop()!;
      for (const [table, id] of undo.changes) {
        const rows = this.chains.get(table)!;
        const chain = rows.get(id)!;
        chain.pop();
        if (chain.length === 0) rows.delete(id);
      }
      taken.push(undo);
    }
    return taken;
  }
}
