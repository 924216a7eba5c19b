import type { CaseKind, ServerKind } from './cases.js';

/** A measured case as the targets see it. */
export interface CaseFigures {
  id: string;
  kind: CaseKind;
  members: number | null;
  /** The server it ran against; null for a ceiling. */
  server: ServerKind | null;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** req/s divided by the matching ceiling's req/s; null for a ceiling or when it was not measured. */
  ratio: number | null;
  valid: boolean;
}

/** One target of one case, checked. */
export interface Check {
  caseId: string;
  /** What is required, e.g. `>= 40% of the small-object ceiling`. */
  target: string;
  /** The same, short, for the table: `>=40% ceiling`. */
  label: string;
  /** The measured value, in the target's terms. */
  actual: string;
  /** null when it could not be checked (a figure it needs was not measured, or the case is invalid). */
  pass: boolean | null;
}

/** The targets of the requirement, for this machine. */
export const TARGETS = {
  /** GET one member: at least this fraction of the small-object ceiling's req/s. */
  getOneRatio: 0.4,
  /** GET the members list: at least this fraction of the list ceiling's req/s. */
  listRatio: 0.5,
  /** The list's p50 and p99 at the large data set: at most this multiple of the small data set's. */
  listLatencyGrowth: 1.5,
  /** Durable writes at the small data set: at least this many per second (on either store). */
  writesPerSecond: 2000,
  /** GET one and the list on PostgreSQL with one server process: at least this fraction of the JSON-file store's req/s in the same run. */
  postgresVsJson: 1 / 3,
};

const percent = (value: number) => `${(value * 100).toFixed(0)}%`;

/** Whether two cases ran against the same kind of server. */
const sameServer = (a: CaseFigures, b: CaseFigures) => a.server?.store === b.server?.store && a.server?.processes === b.server?.processes;

/**
 * Checks every target the measured cases have; `small` and `large` are the member counts of the data sets.
 * The ratios to a ceiling are the JSON-file store's targets; PostgreSQL's reads are held to the JSON-file
 * store's req/s instead (with one process), and its writes and list latency to the same targets.
 */
export function checkTargets(cases: readonly CaseFigures[], small: number, large: number): Check[] {
  const checks: Check[] = [];
  const check = (figures: CaseFigures, target: string, label: string, actual: string, pass: boolean | null) =>
    checks.push({ caseId: figures.id, target, label, actual, pass: figures.valid ? pass : null });
  for (const figures of cases) {
    const postgres = figures.server?.store === 'postgres';
    switch (figures.kind) {
      case 'get-one':
      case 'list': {
        if (postgres) break;
        const minimum = figures.kind === 'get-one' ? TARGETS.getOneRatio : TARGETS.listRatio;
        const ceiling = figures.kind === 'get-one' ? 'small-object' : 'list';
        const { ratio } = figures;
        check(figures, `>= ${percent(minimum)} of the ${ceiling} ceiling`, `>=${percent(minimum)} ceiling`, ratio === null ? 'no ceiling' : percent(ratio), ratio === null ? null : ratio >= minimum);
        break;
      }
      case 'patch-role':
      case 'put-team':
        if (figures.members === small) {
          const rate = figures.requestsPerSecond;
          check(figures, `>= ${TARGETS.writesPerSecond} durable writes/s`, `>=${TARGETS.writesPerSecond}/s`, `${rate.toFixed(0)}/s`, rate >= TARGETS.writesPerSecond);
        }
        break;
    }
    if (postgres && figures.server!.processes === 1 && (figures.kind === 'get-one' || figures.kind === 'list')) {
      const json = cases.find((other) => other.server?.store === 'json' && other.kind === figures.kind && other.members === figures.members);
      const ratio = json && json.valid ? figures.requestsPerSecond / json.requestsPerSecond : null;
      check(
        figures,
        `>= 1/3 of the JSON-file store's req/s (${json?.id ?? 'not measured'})`,
        '>=1/3 JSON',
        ratio === null ? 'not measured' : `${percent(ratio)} (${figures.requestsPerSecond.toFixed(0)} vs ${json!.requestsPerSecond.toFixed(0)} req/s)`,
        ratio === null ? null : ratio >= TARGETS.postgresVsJson,
      );
    }
    if (figures.kind === 'list' && figures.members === large) {
      const base = cases.find((other) => other.kind === 'list' && other.members === small && sameServer(other, figures));
      for (const key of ['p50Ms', 'p99Ms'] as const) {
        const name = key === 'p50Ms' ? 'p50' : 'p99';
        const growth = base && base.valid ? figures[key] / base[key] : null;
        check(
          figures,
          `${name} <= ${TARGETS.listLatencyGrowth}x ${name} at ${small} members`,
          `${name} <=${TARGETS.listLatencyGrowth}x`,
          growth === null ? 'not measured' : `${growth.toFixed(2)}x (${figures[key].toFixed(2)} vs ${base![key].toFixed(2)} ms)`,
          growth === null ? null : growth <= TARGETS.listLatencyGrowth,
        );
      }
    }
  }
  return checks;
}
