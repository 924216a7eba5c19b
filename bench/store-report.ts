import { fixed, outcome, renderTable, rowNotes, whole } from './report.js';
import type { StoreRow } from './store-case.js';

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const range = (values: readonly number[]) => (values.length === 0 ? '-' : `${whole(Math.min(...values))}-${whole(Math.max(...values))} ms`);

/** The remark under the table for a row: what it ran on and the figures the table has no column for. */
function noteOf(row: StoreRow): string {
  const { writes, memory, files } = row;
  const parts = [`${whole(row.records)} members, snapshot ${mb(files.snapshotBytes)}${files.journalEntries ? `, journal ${whole(files.journalEntries)} entries (${mb(files.journalBytes)})` : ''}`];
  if (writes) {
    parts.push(`${whole(writes.writes)} writes in ${writes.seconds.toFixed(1)} s, max ${fixed(writes.maxMs, 1)} ms`);
    // What a write costs whatever else the machine runs: the process's CPU time per write.
    if (writes.cpu) parts.push(`${((writes.cpu.server * 1e6) / writes.writesPerSecond).toFixed(0)} µs of CPU a write (${writes.cpu.server.toFixed(2)} cores)`);
    parts.push(`${writes.compactions} compactions (${range(writes.compactionMs)})`);
    if (row.kind === 'store-compaction') {
      const { duringCompaction: during, outsideCompaction: outside } = writes;
      parts.push(`began during a compaction: ${whole(during.writes)} writes, p50 ${fixed(during.p50Ms, 2)} ms, p99 ${fixed(during.p99Ms, 2)} ms; outside: ${whole(outside.writes)} writes, p50 ${fixed(outside.p50Ms, 2)} ms, p99 ${fixed(outside.p99Ms, 2)} ms`);
    }
  }
  if (row.openCpuMs !== null) parts.push(`open took ${whole(row.openCpuMs)} ms of CPU`);
  if (row.replayed !== null) parts.push(`replayed ${whole(row.replayed)} journal entries`);
  if (memory) parts.push(`process without the store: RSS ${whole(memory.baseRssMb)} MB, heap ${whole(memory.baseHeapUsedMb)} MB`);
  return parts.join('; ');
}

/** Renders the store case's table, then its notes, targets and invalid rows. */
export function renderStoreReport(rows: readonly StoreRow[]): string {
  const header = ['store case', 'writes/s', 'p50 ms', 'p99 ms', 'open ms', 'RSS MB', 'heap MB', 'target', 'result'];
  const body = rows.map((row) => [
    row.id,
    whole(row.writesPerSecond),
    fixed(row.writes?.p50Ms ?? null, 2),
    fixed(row.writes?.p99Ms ?? null, 2),
    whole(row.openMs),
    whole(row.memory?.rssMb ?? null),
    whole(row.memory?.heapUsedMb ?? null),
    row.checks.map((check) => check.label).join(', ') || '-',
    outcome(row),
  ]);
  const notes = rows.flatMap((row) => rowNotes({ ...row, note: noteOf(row) }));
  // As for the HTTP cases: another process busy for a fifth of a core or more took CPU from the store's process.
  const disturbed = rows.filter(({ cpu }) => cpu && cpu.others + cpu.steal >= 0.2);
  if (disturbed.length > 0) {
    const list = disturbed.map(({ id, cpu }) => `${id} (${(cpu!.others + cpu!.steal).toFixed(2)} cores)`).join(', ');
    notes.push('', `NOTE: other processes used CPU during ${list}; those figures are worse by up to that share. Rerun on a quiet machine.`);
  }
  return [...renderTable(header, body, new Set([1, 2, 3, 4, 5, 6])), '', ...notes].join('\n');
}
