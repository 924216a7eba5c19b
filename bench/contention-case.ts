/**
 * The contention case (ids `contention-<server>-<kind>`, BENCH_CASES=contention): concurrent writers that
 * create in one place, against the bundled server over the JSON file and over PostgreSQL in 1 and 2
 * processes (2 processes serve one port, so 16 writers are 8 a process). Each kind runs 1 writer, then 16,
 * for the case's duration each, in one run:
 *
 * - `spaces`: POST a space in one organization;
 * - `change-requests`: POST a change request in one space;
 * - `pages`: insert a page, each writer into a change request of its own (made before it is timed).
 *
 * A writer awaits its answer before sending the next request. Targets (issue 28): 16 writers get at least
 * 1.5x the work of 1 done, on every server; no write fails; change-request numbers are unique; a single
 * PostgreSQL writer gets at least half the JSON file's rate.
 */
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { BenchConfig } from './config.js';
import { startChild, type Child } from './child.js';
import { copyToPostgres, postgresUnavailable } from './postgres-case.js';
import type { SeededData } from './seed.js';
import type { ServerInfo } from './server-under-test.js';
import type { Check } from './targets.js';

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
   * transactions rolled back (the store's retries, and failed requests) per transaction committed. Null on the JSON file.
   */
  rollbacks: { committed: number; rolledBack: number } | null;
  loadAverage: number;
}

export type ContentionKind = 'spaces' | 'change-requests' | 'pages';
export type ContentionServer = 'json' | 'pg1' | 'pg2';

const KINDS: readonly ContentionKind[] = ['spaces', 'change-requests', 'pages'];
const SERVERS: readonly ContentionServer[] = ['json', 'pg1', 'pg2'];
/** The writer counts of a row, in order. */
export const WRITERS = [1, 16] as const;

/** The ids of every contention case. */
export function contentionCaseIds(): string[] {
  return SERVERS.flatMap((server) => KINDS.map((kind) => `contention-${server}-${kind}`));
}

/** An HTTP client of the server under test, as the seeded owner. */
function client(url: string, token: string) {
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text);
    } catch {
      json = { text };
    }
    return { status: response.status, json };
  };
}

type Call = ReturnType<typeof client>;

/** Makes what a kind's writers need before they are timed, and the request each writer sends. */
async function prepare(call: Call, seeded: SeededData, kind: ContentionKind, writers: number): Promise<((writer: number) => Promise<{ status: number; json: Record<string, unknown> }>) & { expected: number }> {
  const made = async (path: string, body: unknown) => {
    const answer = await call('POST', path, body);
    if (answer.status !== 201) throw new Error(`POST ${path}: ${answer.status} ${JSON.stringify(answer.json)}`);
    return answer.json.id as string;
  };
  if (kind === 'spaces') return Object.assign(() => call('POST', `/v1/orgs/${seeded.organizationId}/spaces`, { title: 'Contention' }), { expected: 201 });
  const spaceId = await made(`/v1/orgs/${seeded.organizationId}/spaces`, { title: `Contention ${kind} ${writers}` });
  if (kind === 'change-requests') return Object.assign(() => call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Contention' }), { expected: 201 });
  const requests: string[] = [];
  for (let writer = 0; writer < writers; writer++) requests.push(await made(`/v1/spaces/${spaceId}/change-requests`, {}));
  const changes = [{ operation: 'insert_page', title: 'A page', document: { markdown: 'Some text.' } }];
  return Object.assign((writer: number) => call('POST', `/v1/spaces/${spaceId}/change-requests/${requests[writer]}/content`, { changes }), { expected: 200 });
}

/** Runs `writers` writers for the warmup (not counted) then the duration; `numbers` collects change-request numbers. */
async function phase(send: Awaited<ReturnType<typeof prepare>>, writers: number, config: BenchConfig, numbers: number[]): Promise<Phase> {
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
  const seeder = await startChild<SeededData>(join(dirname(fileURLToPath(import.meta.url)), 'seed-child.ts'), [path, '10']);
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
        const call = client(child.info.url, seeded.token);
        for (const kind of kinds) {
          const phases: Phase[] = [];
          let duplicateNumbers = 0;
          const loadAverage = loadavg()[0];
          const before = server === 'json' ? null : await transactionFigures(config.postgres);
          for (const writers of WRITERS) {
            // Each phase's change requests are in a space of their own: numbers repeat only within one.
            const numbers: number[] = [];
            phases.push(await phase(await prepare(call, seeded, kind, writers), writers, config, kind === 'change-requests' ? numbers : []));
            duplicateNumbers += duplicates(numbers);
          }
          const after = before && (await transactionFigures(config.postgres));
          const rollbacks = before && after && { committed: after.committed - before.committed, rolledBack: after.rolledBack - before.rolledBack };
          const row: ContentionRow = { id: `contention-${server}-${kind}`, server, kind, phases, duplicateNumbers, rollbacks, loadAverage };
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

/** The transactions the database committed and rolled back so far (pg_stat_database; flushed within ~0.5 s). */
async function transactionFigures(url: string): Promise<{ committed: number; rolledBack: number }> {
  await sleep(600);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT xact_commit, xact_rollback FROM pg_stat_database WHERE datname = current_database()');
    return { committed: Number(rows[0].xact_commit), rolledBack: Number(rows[0].xact_rollback) };
  } finally {
    await client.end();
  }
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
  const rollbacks = row.rollbacks ? `, ${row.rollbacks.rolledBack} rolled back / ${row.rollbacks.committed} committed in the database` : '';
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
