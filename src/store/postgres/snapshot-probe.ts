import type pg from 'pg';

/** The statement that prints a snapshot: a transaction's, or (alone) one taken for the statement. */
export const SNAPSHOT_QUERY = { name: 'dp_snapshot', text: 'SELECT pg_current_snapshot()::text AS snapshot' };

/**
 * Asks the database for its snapshot now, once for all the reads that ask in the same turn of the event
 * loop. Sharing one answer is right for them: the statement is sent after every one of them began, so it
 * sees every write acknowledged before any of them began. A read that asks once it has been sent waits
 * for the next.
 */
export class SnapshotProbe {
  private pending: Promise<string> | undefined;

  constructor(private readonly pool: pg.Pool) {}

  next(): Promise<string> {
    if (!this.pending) {
      this.pending = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        this.pending = undefined;
        const { rows } = await this.pool.query(SNAPSHOT_QUERY);
        return rows[0].snapshot as string;
      });
    }
    return this.pending;
  }
}
