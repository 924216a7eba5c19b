/**
 * The contention case (ids `contention-<server>-<kind>`, BENCH_CASES=contention): concurrent writers that
 * write in one place (the kinds of contention-kinds.ts), against the bundled server over the JSON file and over
 * PostgreSQL in 1 and 2 processes (2 processes serve one port, so 16 writers are 8 a process). Each kind runs
 * 1 writer, then 16, for the case's duration each, in one run.
 *
 * A writer awaits its answer before sending the next request. Targets (issue 28): 16 writers get at least
 * 1.5x the work of 1 done, on every server; no write fails; change-request numbers are unique; a single
 * PostgreSQL writer gets at least half the JSON file's rate.
 */
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchConfig } from './config.js';
import { startChild, type Child } from './child.js';
import { copyToPostgres, postgresUnavailable } from './postgres-case.js';
import type { SeededData } from './seed.js';
import type { ServerInfo } from './server-under-test.js';
import type { Check } from './targets.js';
import { databaseFigures, describeWaits, figuresBetween, sampleWaits, type DatabaseFigures, type Waits } from './pg-waits.js';
import { fetchClient, KINDS, MEMBERS_NEEDED, prepareKind, type ContentionKind, type Send } from './contention-kinds.js';

/** What one phase (a number of writers, for the case's duration) got done. */
export interface Phase {
  writers: number;
  perSecond: number;
  failed: number;
  /** The first few answers that were not the expected status. */
  failures: string[];
}

/** One row: a kind of write on one server, 1 writer then 16. */
export interface ContentionRow {
  id: string;
  server: ContentionServer;
  kind: ContentionKind;
  phases: Phase[];
  /** Numbers of change requests answered more than once (must be none). */
  duplicateNumbers: number;
  /**
   * PostgreSQL's evidence over the row (pg_stat_database of the database, which other users of it count too):
   * transactions committed, rolled back (the store's retries, and failed requests), deadlocks. Null on the JSON file.
   */
  rollbacks: DatabaseFigures | null;
  /** What the database's busy connections waited for while the 16 wrote (pg-waits.ts); null on the JSON file. */
  waits: string | null;
  loadAverage: number;
}

export type { ContentionKind };
export type ContentionServer = 'json' | 'pg1' | 'pg2';

const SERVERS: readonly ContentionServer[] = ['json', 'pg1', 'pg2'];
/** The writer counts of a row, in order. */
export const WRITERS = [1, 16] as const;

/** The ids of every contention case. */
export function contentionCaseIds(): string[] {
  return SERVERS.flatMap((server) => KINDS.map((kind) => `contention-${server}-${kind}`));
}

/** Runs `writers` writers for the warmup (not counted) then the duration; `numbers` collects change-request numbers. */
async function phase(send: Send, writers: number, config: BenchConfig, numbers: number[]): Promise<Phase> {
  let measuring = false;
  let stopping = false;
  let done = 0;
  let failed = 0;
  const failures: string[] = [];
  const writer = async (at: number) => {
    while (!stopping) {
      const counted = measuring;
      const answer = await send(at).catch((error: unknown) => ({ status: 0, json: { error: String(error) } as Record<string, unknown> }));
      if (answer.status !== send.expected) {
        failed++;
        if (failures.length < 3) failures.push(`${answer.status} ${JSON.stringify(answer.json).slice(0, 200)}`);
      } else {
        if (typeof answer.json.number === 'number') numbers.push(answer.json.number);
        if (counted && measuring) done++;
      }
    }
  };
  const running = Array.from({ length: writers }, (_, at) => writer(at));
  await sleep(config.warmup * 1000);
  measuring = true;
  const begin = performance.now();
  await sleep(config.duration * 1000);
  measuring = false;
  const seconds = (performance.now() - begin) / 1000;
  stopping = true;
  await Promise.all(running);
  return { writers, perSecond: done / seconds, failed, failures };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the selected contention cases; rows for the ones that ran, and their checks. */
export async function runContentionCase(
  config: BenchConfig,
  dataDir: string,
  serverScript: string,
  nodeOptions: string[],
  ids: readonly string[],
  log: (line: string) => void,
): Promise<{ rows: ContentionRow[]; checks: Check[] }> {
  const rows: ContentionRow[] = [];
  const wanted = (server: ContentionServer) => KINDS.filter((kind) => ids.includes(`contention-${server}-${kind}`));
  const path = join(dataDir, 'contention', 'data.json');
  const seeder = await startChild<SeededData>(join(dirname(fileURLToPath(import.meta.url)), 'seed-child.ts'), [path, String(MEMBERS_NEEDED + 1)]);
  await seeder.stop();
  const seeded = seeder.info;
  const needsPostgres = SERVERS.some((server) => server !== 'json' && wanted(server).length > 0);
  const skipped = needsPostgres ? await postgresUnavailable(config.postgres) : undefined;
  if (skipped) log(`contention: PostgreSQL servers skipped: ${skipped}`);
  // Copied before the JSON server writes to the file: every server starts from the same records.
  const copy = needsPostgres && !skipped ? await copyToPostgres(config.postgres, path) : null;
  try {
    for (const server of SERVERS) {
      const kinds = wanted(server);
      if (kinds.length === 0 || (server !== 'json' && !copy)) continue;
      const data = server === 'json' ? path : copy!.url;
      const processes = server === 'pg2' ? 2 : 1;
      const child: Child<ServerInfo> = await startChild<ServerInfo>(serverScript, [data, String(processes), config.bare ? '-' : join(dataDir, `requests-contention-${server}.log`)], nodeOptions);
      try {
        const call = fetchClient(seeded.token, fetch, child.info.url);
        for (const kind of kinds) {
          const phases: Phase[] = [];
          let duplicateNumbers = 0;
          const loadAverage = loadavg()[0];
          const before = server === 'json' ? null : await databaseFigures(config.postgres);
          let waits: Waits | undefined;
          for (const writers of WRITERS) {
            // Each phase's change requests are in a space of their own: numbers repeat only within one.
            const numbers: number[] = [];
            const send = await prepareKind(call, seeded, kind, writers);
            const sampling = server !== 'json' && writers > 1 ? await sampleWaits(config.postgres) : null;
            phases.push(await phase(send, writers, config, kind === 'change-requests' ? numbers : []));
            if (sampling) waits = await sampling.stop();
            duplicateNumbers += duplicates(numbers);
          }
          const rollbacks = before && figuresBetween(before, await databaseFigures(config.postgres), waits);
          const row: ContentionRow = { id: `contention-${server}-${kind}`, server, kind, phases, duplicateNumbers, rollbacks, waits: waits ? describeWaits(waits) : null, loadAverage };
          rows.push(row);
          log(describeRow(row));
        }
      } finally {
        await child.stop();
      }
    }
  } finally {
    await copy?.drop();
  }
  return { rows, checks: contentionChecks(rows) };
}

/** How many numbers occur more than once. */
function duplicates(numbers: number[]): number {
  const seen = new Set<number>();
  let repeated = 0;
  for (const number of numbers) {
    if (seen.has(number)) repeated++;
    seen.add(number);
  }
  return repeated;
}

/** One line of the log for a row. */
export function describeRow(row: ContentionRow): string {
  const [one, many] = row.phases;
  const phases = row.phases.map((phase) => `${phase.writers} → ${phase.perSecond.toFixed(0)}/s${phase.failed ? ` (${phase.failed} failed: ${phase.failures.join(' | ')})` : ''}`).join(', ');
  const ratio = one.perSecond > 0 ? (many.perSecond / one.perSecond).toFixed(2) : '-';
  const rollbacks = row.rollbacks
    ? `, ${row.rollbacks.rolledBack} rolled back / ${row.rollbacks.committed} committed, ${row.rollbacks.deadlocks} deadlocks in the database; 16 writers' waits: ${row.waits}`
    : '';
  return `  ${row.id.padEnd(34)} ${phases}, ${ratio}x${row.duplicateNumbers ? `, ${row.duplicateNumbers} duplicate numbers` : ''}${rollbacks}  (load ${row.loadAverage.toFixed(2)})`;
}

/** The targets of issue 28 over the rows that ran. */
export function contentionChecks(rows: readonly ContentionRow[]): Check[] {
  const checks: Check[] = [];
  const check = (caseId: string, target: string, label: string, actual: string, pass: boolean) => checks.push({ caseId, target, label, actual, pass });
  for (const row of rows) {
    const [one, many] = row.phases;
    const ratio = one.perSecond > 0 ? many.perSecond / one.perSecond : 0;
    check(row.id, '16 writers get at least 1.5x the work of 1', '>=1.5x of 1 writer', `${ratio.toFixed(2)}x`, ratio >= 1.5);
    const failed = row.phases.reduce((sum, phase) => sum + phase.failed, 0);
    check(row.id, 'no write fails and no change-request number repeats', 'no failure', `${failed} failed, ${row.duplicateNumbers} repeated`, failed === 0 && row.duplicateNumbers === 0);
    const json = rows.find((other) => other.server === 'json' && other.kind === row.kind);
    if (row.server === 'pg1' && json && json.phases[0].perSecond > 0) {
      const share = one.perSecond / json.phases[0].perSecond;
      check(row.id, "1 writer gets at least half the JSON file's rate", '>=50% of json', `${(share * 100).toFixed(0)}%`, share >= 0.5);
    }
  }
  return checks;
}
