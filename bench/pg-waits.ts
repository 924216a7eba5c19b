/**
 * PostgreSQL's own evidence of contention in one database (issue 28): its transaction counters before and after
 * a run (pg_stat_database), and what its busy connections wait for, sampled during the run (pg_stat_activity,
 * pg_locks). Used by the contention case and by pg-evidence.ts.
 */
import pg from 'pg';

/** pg_stat_database of one database: what it committed, rolled back, and the deadlocks and recovery conflicts it met. */
export interface DatabaseFigures {
  committed: number;
  rolledBack: number;
  deadlocks: number;
  /** Queries cancelled for recovery conflicts: on a standby only, so 0 on a primary. */
  conflicts: number;
}

/** The figures of the database at `url` (PostgreSQL updates them within ~0.5 s of a transaction's end, so it waits that first). */
export async function databaseFigures(url: string): Promise<DatabaseFigures> {
  await new Promise((resolve) => setTimeout(resolve, 600));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const [row] = (await client.query('SELECT xact_commit, xact_rollback, deadlocks, conflicts FROM pg_stat_database WHERE datname = current_database()').finally(() => client.end())).rows;
  return { committed: Number(row.xact_commit), rolledBack: Number(row.xact_rollback), deadlocks: Number(row.deadlocks), conflicts: Number(row.conflicts) };
}

/**
 * What `after` counted more than `before`, without the transactions of the figures' own query and of the
 * sampler's (`waits`, two statements a sample), each one a commit.
 */
export function figuresBetween(before: DatabaseFigures, after: DatabaseFigures, waits?: Waits): DatabaseFigures {
  return {
    committed: after.committed - before.committed - 1 - 2 * (waits?.samples ?? 0),
    rolledBack: after.rolledBack - before.rolledBack,
    deadlocks: after.deadlocks - before.deadlocks,
    conflicts: after.conflicts - before.conflicts,
  };
}

/** What the samples saw: per wait (`Lock:advisory`, `IO:WALSync`, `running` for none), how many connections, summed over samples. */
export interface Waits {
  samples: number;
  /** Connection-samples of the database's busy connections, by what they waited for. */
  busy: Record<string, number>;
  /** Connection-samples of locks asked for and not granted, by lock type (advisory, transactionid, tuple…). */
  notGranted: Record<string, number>;
}

/**
 * Samples the busy connections of the database at `url` (other than its own) every `everyMs` until stopped.
 * Only connections of the database count, so other databases of the server add nothing (other clients of the
 * same database do).
 */
export async function sampleWaits(url: string, everyMs = 20): Promise<{ stop: () => Promise<Waits> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const waits: Waits = { samples: 0, busy: {}, notGranted: {} };
  let stopping = false;
  const add = (into: Record<string, number>, key: string, n: number) => (into[key] = (into[key] ?? 0) + n);
  const loop = (async () => {
    while (!stopping) {
      const [activity, locks] = await Promise.all([
        client.query(
          `SELECT coalesce(wait_event_type || ':' || wait_event, 'running') AS wait, count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' GROUP BY 1`,
        ),
        client.query(
          `SELECT locktype, count(*)::int AS n FROM pg_locks WHERE NOT granted AND (database IS NULL OR database = (SELECT oid FROM pg_database WHERE datname = current_database())) GROUP BY 1`,
        ),
      ]);
      waits.samples++;
      for (const row of activity.rows) add(waits.busy, row.wait, row.n);
      for (const row of locks.rows) add(waits.notGranted, row.locktype, row.n);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      stopping = true;
      await loop;
      await client.end();
      return waits;
    },
  };
}

/** The waits in a line: each as its share of busy connection-samples, largest first, e.g. `Lock:advisory 41%, running 30%`. */
export function describeWaits(waits: Waits): string {
  const total = Object.values(waits.busy).reduce((sum, n) => sum + n, 0);
  if (total === 0) return `no busy connection in ${waits.samples} samples`;
  const shares = Object.entries(waits.busy)
    .sort(([, a], [, b]) => b - a)
    .map(([wait, n]) => `${wait} ${Math.round((n / total) * 100)}%`);
  const locks = Object.entries(waits.notGranted).map(([type, n]) => `${type} ${(n / waits.samples).toFixed(1)}`);
  return `${(total / waits.samples).toFixed(1)} busy on average: ${shares.join(', ')}; locks waited for on average: ${locks.length > 0 ? locks.join(', ') : 'none'}`;
}
