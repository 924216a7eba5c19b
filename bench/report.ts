import { writeFile } from 'node:fs/promises';
import type { Case } from './cases.js';
import type { Measurement } from './load.js';
import { checkTargets, type Check, type CaseFigures } from './targets.js';

/** A case once measured. */
export interface Measured {
  case: Case;
  measurement: Measurement;
  /** The 1-minute load average when it began. */
  loadAverage: number;
  /** For a case of the server under test: its ceiling, measured in slices alternating with it. */
  ceiling?: Measured;
}

/** A row of the table: a case's figures, its ceiling, its checks and what invalidated it. */
export interface Row extends CaseFigures {
  ceilingRequestsPerSecond: number | null;
  checks: Check[];
  problems: string[];
  /** A remark printed under the table. */
  note?: string;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
/** A number rounded, with thousands separators; `-` for null. */
export const whole = (value: number | null) => (value === null ? '-' : Math.round(value).toLocaleString('en-US'));

/**
 * The rows of the report: one per ceiling (the mean of its runs, with their range in a note), then one
 * per case of the server under test, with the ceiling run paired with it, its ratio to it and its
 * checked targets. `small` and `large` are the member counts of the data sets.
 */
export function buildRows(measured: readonly Measured[], small: number, large: number): Row[] {
  const ceilingRuns = measured.filter((m) => m.case.kind === 'ceiling');
  const ceilings: Row[] = [...new Set(ceilingRuns.map((m) => m.case.ceiling))].map((kind) => {
    const runs = ceilingRuns.filter((m) => m.case.ceiling === kind).map((m) => m.measurement);
    const rates = runs.map((run) => run.requestsPerSecond);
    return {
      id: `ceiling-${kind}`,
      kind: 'ceiling',
      members: null,
      server: null,
      requestsPerSecond: mean(rates),
      p50Ms: mean(runs.map((run) => run.p50Ms)),
      p99Ms: mean(runs.map((run) => run.p99Ms)),
      ratio: null,
      ceilingRequestsPerSecond: null,
      valid: runs.every((run) => run.problems.length === 0),
      checks: [],
      problems: runs.flatMap((run) => run.problems),
      note: `mean of ${runs.length} runs (each alternating with a case it is the ceiling of): ${whole(Math.min(...rates))} to ${whole(Math.max(...rates))} req/s`,
    };
  });
  const served = measured.filter((m) => m.case.kind !== 'ceiling');
  const figures = served.map(({ case: item, measurement, ceiling: paired }) => {
    const ceiling = paired && paired.measurement.problems.length === 0 ? paired.measurement.requestsPerSecond : null;
    return {
      id: item.id,
      kind: item.kind,
      members: item.members,
      server: item.server,
      requestsPerSecond: measurement.requestsPerSecond,
      p50Ms: measurement.p50Ms,
      p99Ms: measurement.p99Ms,
      ratio: ceiling === null ? null : measurement.requestsPerSecond / ceiling,
      ceilingRequestsPerSecond: ceiling,
      valid: measurement.problems.length === 0,
    };
  });
  const checks = checkTargets(figures, small, large);
  const rows = figures.map((row, at) => ({ ...row, checks: checks.filter((check) => check.caseId === row.id), problems: served[at].measurement.problems }));
  return [...ceilings, ...rows];
}

/** The outcome of a row: `pass`, `MISS`, `INVALID`, `n/a` (a target could not be checked) or `-` (no target). */
export function outcome(row: Pick<Row, 'valid' | 'checks'>): string {
  if (!row.valid) return 'INVALID';
  if (row.checks.length === 0) return '-';
  if (row.checks.some((check) => check.pass === false)) return 'MISS';
  if (row.checks.some((check) => check.pass === null)) return 'n/a';
  return 'pass';
}

/** A number with `digits` decimals; `-` for null or NaN. */
export const fixed = (value: number | null, digits: number) => (value === null || Number.isNaN(value) ? '-' : value.toFixed(digits));

/** Renders the table of every case, then one line per target and per invalid case. */
export function renderReport(rows: readonly Row[]): string {
  const header = ['case', 'req/s', 'p50 ms', 'p99 ms', 'ceiling req/s', 'ratio', 'target', 'result'];
  const body = rows.map((row) => [
    row.id,
    whole(row.requestsPerSecond),
    fixed(row.p50Ms, 2),
    fixed(row.p99Ms, 2),
    whole(row.ceilingRequestsPerSecond),
    row.ratio === null ? '-' : `${(row.ratio * 100).toFixed(0)}%`,
    row.checks.map((check) => check.label).join(', ') || '-',
    outcome(row),
  ]);
  return [...renderTable(header, body, new Set([1, 2, 3, 4, 5])), '', ...rows.flatMap(rowNotes)].join('\n');
}

/** A table: the header, a rule, the rows; `numeric` columns aligned right. */
export function renderTable(header: readonly string[], body: readonly string[][], numeric: ReadonlySet<number>): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column].length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => (numeric.has(column) ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join('  ').trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...body.map(line)];
}

/** The lines under a table for one row: its note, each target checked, each reason it is invalid. */
export function rowNotes(row: { id: string; note?: string; checks: readonly Check[]; problems: readonly string[] }): string[] {
  const out: string[] = [];
  if (row.note) out.push(`note  ${row.id}: ${row.note}`);
  for (const check of row.checks) {
    const mark = check.pass === null ? 'N/A ' : check.pass ? 'pass' : 'MISS';
    out.push(`${mark}  ${row.id}: ${check.target}: ${check.actual}`);
  }
  for (const problem of row.problems) out.push(`INVALID  ${row.id}: ${problem}`);
  return out;
}

/** Writes the results file (pretty JSON). */
export async function writeResults(path: string, results: unknown): Promise<void> {
  await writeFile(path, `${JSON.stringify(results, null, 2)}\n`);
}
