import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild } from './child.js';
import { benchRuntime, compileChild, startNodeOptions, WORKER_ENTRY } from './compiled.js';
import type { BenchConfig } from './config.js';
import { COMMON_WORD } from './heavy-content.js';
import type { HeavySeed } from './heavy-seed.js';
import { startPacedLoadApart, type PacedFigures, type PacedLoad } from './load.js';
import type { ThreadTimes } from './thread-times.js';
import { fixed } from './report.js';
import { serverProfiling, type ServerProfiling } from './server-profiling.js';
import type { Check } from './targets.js';

/**
 * The heavy-work case (issue 14, item 4): does a light request wait behind someone's heavy work? The
 * bundled server's platform (worker threads included) over a seeded data file answers GET one member at a
 * steady 200 requests a second: first idle, then while each heavy job runs, one at a time:
 * - openapi: a 4 MB OpenAPI document fetched from a local server and processed (from the POST until the
 *   specification is `complete`);
 * - pdf: the first PDF export of a change request of 2,000 pages;
 * - zip: an import of a zip archive of 1,000 pages;
 * - search: the first search of a space of 10,000 pages (its index is built).
 * Each job phase reports the p50, p99 and max latency of the GETs sent while it ran, and its p99 over the idle
 * p99 of the same run. Targets: at most 3x the idle p99, and no request over 100 ms.
 */

/** The targets of the case. */
export const HEAVY_TARGETS = {
  /** A job phase's p99: at most this multiple of the idle p99. */
  p99Growth: 3,
  /** No request of any phase waits longer than this. */
  maxMs: 100,
};

/** The sizes of the jobs and the load, as the issue states them. */
const SIZES = { openAPIBytes: 4 * 1024 * 1024, pdfPages: 2000, zipPages: 1000, searchPages: 10_000, rate: 200 };

const PHASES = ['idle', 'openapi', 'pdf', 'zip', 'search'] as const;
type Phase = (typeof PHASES)[number];

/** One phase: the light requests' latencies while it ran, and how long its job took. */
export interface HeavyRow extends Omit<MeasuredPhase, 'workSeconds'> {
  id: string;
  phase: Phase;
  jobSeconds: number | null;
}

/** The case's rows, checks, and how long seeding and the whole case took. */
export interface HeavyResults {
  rows: HeavyRow[];
  checks: Check[];
  seedSeconds: number;
  seconds: number;
}

const here = dirname(fileURLToPath(import.meta.url));

/** The ids of the case's rows, without running anything, so that BENCH_CASES=heavy selects them. */
export function heavyCaseIds(): string[] {
  return PHASES.map((phase) => `heavy-work-${phase}`);
}

/** Sends a request of a heavy job and checks its status; resolves to its JSON body. */
export async function call(url: string, token: string, method: string, path: string, expected: number, body?: unknown): Promise<any> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== expected) throw new Error(`${method} ${path} answered ${response.status}, not ${expected}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The checks of a phase against the idle phase: its p99 growth and its longest wait (null: the phase or idle was invalid). */
export function phaseChecks(id: string, p99Growth: number, maxMs: number, valid: boolean): Check[] {
  return [
    { caseId: id, target: `p99 <= ${HEAVY_TARGETS.p99Growth}x the idle p99`, label: `p99 <=${HEAVY_TARGETS.p99Growth}x idle`, actual: `${p99Growth.toFixed(2)}x`, pass: valid ? p99Growth <= HEAVY_TARGETS.p99Growth : null },
    { caseId: id, target: `no request over ${HEAVY_TARGETS.maxMs} ms`, label: `max <=${HEAVY_TARGETS.maxMs} ms`, actual: `${maxMs.toFixed(1)} ms`, pass: valid ? maxMs <= HEAVY_TARGETS.maxMs : null },
  ];
}

/** What one phase of a light-request case measured (every heavy-work case: heavy, Git, Markdown loop). */
export interface MeasuredPhase extends Omit<PacedFigures, 'statusCodes' | 'timeline'> {
  /** How long the phase's work took; null for the idle phase. */
  workSeconds: number | null;
  /** p99 over the idle p99; null for the idle phase. */
  p99Growth: number | null;
  valid: boolean;
  problems: string[];
  checks: Check[];
}

/**
 * Measures one phase: the paced light load `startLoad` starts, while `work` runs (it resolves with its
 * problems; the idle phase's waits), then the load's figures, its failures as problems, the ratio to `idle`
 * (the idle phase's row, absent for the idle phase itself) and the targets checked. The light requests go
 * into the case's trace.
 */
export async function measurePhase(id: string, phase: string, startLoad: () => Promise<PacedLoad>, work: () => Promise<string[]>, idle: Pick<MeasuredPhase, 'p99Ms' | 'valid'> | undefined, profiling: ServerProfiling): Promise<MeasuredPhase> {
  const load = await startLoad();
  const started = performance.now();
  const problems = await work();
  const workSeconds = idle === undefined ? null : (performance.now() - started) / 1000;
  const { statusCodes, timeline, ...figures } = await load.stop();
  profiling.record(phase, timeline);
  if (figures.unexpectedStatus > 0) problems.push(`${figures.unexpectedStatus} light requests did not answer 200 (${JSON.stringify(statusCodes)})`);
  if (figures.errors > 0) problems.push(`${figures.errors} light requests failed`);
  const p99Growth = idle === undefined ? null : figures.p99Ms / idle.p99Ms;
  const valid = problems.length === 0;
  const checks = idle === undefined ? [] : phaseChecks(id, p99Growth!, figures.maxMs, valid && idle.valid);
  return { ...figures, workSeconds, p99Growth, valid, problems, checks };
}

/** The idle phase's work: waiting `seconds`, with no problem. */
export const idleFor = (seconds: number) => (): Promise<string[]> => sleep(seconds * 1000).then(() => []);

/** The problems of a phase's work: none, or the message it failed with. */
export const workProblems = (work: Promise<unknown>): Promise<string[]> => work.then(() => [], (error: Error) => [error.message]);

/** Runs the heavy-work case (see the module comment). */
export async function runHeavyCase(config: BenchConfig, dataDir: string, ids: readonly string[], log: (line: string) => void): Promise<HeavyResults> {
  const started = performance.now();
  const path = join(dataDir, 'heavy', 'data.json');
  log(`heavy-work case: seeding ${SIZES.pdfPages.toLocaleString('en-US')} + ${SIZES.searchPages.toLocaleString('en-US')} pages through the platform...`);
  const seeder = await startChild<HeavySeed>(join(here, 'heavy-seed.ts'), [path, String(SIZES.pdfPages), String(SIZES.searchPages)]);
  await seeder.stop();
  const seed = seeder.info;
  log(`  seeded in ${(seed.seedMs / 1000).toFixed(1)} s`);
  const sources = await startChild<{ url: string }>(join(here, 'heavy-sources.ts'), [String(SIZES.openAPIBytes), String(SIZES.zipPages)]);
  const inline = process.env.BENCH_HEAVY_INLINE === '1';
  if (inline) log('  BENCH_HEAVY_INLINE=1: jobs run on the server\'s main thread (inlineWorkers), for comparison');
  const profiling = serverProfiling(config, 'heavy');
  // As `npm start` runs it (and the other cases' servers): compiled, worker module beside it, unless BENCH_RUNTIME=tsx.
  const serverScript = benchRuntime() === 'compiled' ? await compileChild(join(here, 'heavy-server.ts'), join(here, 'results', 'compiled'), WORKER_ENTRY) : join(here, 'heavy-server.ts');
  const nodeOptions = benchRuntime() === 'compiled' ? startNodeOptions() : [];
  const server = await startChild<{ url: string }>(serverScript, [path, ...(inline ? ['inline'] : [])], [...nodeOptions, ...profiling.nodeOptions]);
  const { url } = server.info;
  const { token, organizationId } = seed;
  const jobs: Record<Exclude<Phase, 'idle'>, () => Promise<string[]>> = {
    async openapi() {
      const specs = `/v1/orgs/${organizationId}/openapi`;
      await call(url, token, 'POST', specs, 201, { slug: 'large', source: { url: `${sources.info.url}/openapi.json` } });
      for (;;) {
        await sleep(100);
        const spec = await call(url, token, 'GET', `${specs}/large`, 200);
        if (spec.processingState !== 'complete') continue;
        return spec.lastProcessErrorCode || !spec.lastVersion ? [`the document was not processed (${spec.lastProcessErrorCode ?? 'no version'})`] : [];
      }
    },
    async pdf() {
      const { url: pdfUrl } = await call(url, token, 'GET', `/v1/spaces/${seed.pdf.spaceId}/change-requests/${seed.pdf.changeRequestId}/pdf`, 200);
      return typeof pdfUrl === 'string' ? [] : ['no PDF URL'];
    },
    async zip() {
      const result = await call(url, token, 'POST', `/v1/spaces/${seed.importSpaceId}/content/import`, 201, { url: `${sources.info.url}/pages.zip`, source: 'zip' });
      return result.importedResources === SIZES.zipPages ? [] : [`imported ${result.importedResources} resources, not ${SIZES.zipPages}`];
    },
    async search() {
      const result = await call(url, token, 'GET', `/v1/spaces/${seed.searchSpaceId}/search?query=${COMMON_WORD}`, 200);
      return result.count > 0 ? [] : ['the search found nothing'];
    },
  };
  const rows: HeavyRow[] = [];
  try {
    const memberPath = `/v1/orgs/${organizationId}/members/${seed.userId}`;
    // Warms the server up (code compiled, connections open) before anything is measured.
    await (await startPacedLoadApart(url, memberPath, { authorization: `Bearer ${token}` }, SIZES.rate, 200)).stop();
    await sleep(1000);
    // And this process's fetch, which the jobs' requests use: its first call loads undici, ~50 ms on the event
    // loop that times the light requests, which the first job phase (OpenAPI) measured as the server's.
    await call(url, token, 'GET', `/v1/orgs/${organizationId}/openapi`, 200);
    for (const phase of PHASES) {
      const id = `heavy-work-${phase}`;
      if (!ids.includes(id) && phase !== 'idle') continue;
      const light = () => startPacedLoadApart(url, memberPath, { authorization: `Bearer ${token}` }, SIZES.rate, 200, server.pid);
      const work = phase === 'idle' ? idleFor(config.duration) : () => jobs[phase]().catch((error: Error) => [error.message]);
      const { workSeconds: jobSeconds, ...measured } = await measurePhase(id, phase, light, work, rows[0], profiling);
      const row: HeavyRow = { id, phase, jobSeconds, ...measured };
      rows.push(row);
      log(`  ${id.padEnd(20)} ${fixed(row.p50Ms, 2).padStart(6)} ms p50 ${fixed(row.p99Ms, 2).padStart(7)} ms p99 ${fixed(row.maxMs, 1).padStart(7)} ms max  ${row.responses} requests${jobSeconds === null ? '' : `, the job took ${jobSeconds.toFixed(1)} s`}${row.valid ? '' : `  INVALID: ${row.problems.join('; ')}`}`);
    }
  } finally {
    await server.stop();
    await sources.stop();
  }
  await profiling.finish(rows[0]?.p99Ms, log);
  return { rows, checks: rows.flatMap((row) => row.checks), seedSeconds: seed.seedMs / 1000, seconds: (performance.now() - started) / 1000 };
}

/** What a phase's row of a light-request table ends with, in every heavy-work case (heavy, git, Markdown loop). */
interface PhaseFigures {
  readonly mainThread: ThreadTimes | null;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly p99Growth: number | null;
  readonly valid: boolean;
  readonly problems: readonly string[];
  readonly checks: readonly Check[];
}

/** The headings of phaseColumns, with the longest wait called `longest`. */
export function phaseHeadings(longest = 'max ms'): string {
  return `${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${longest.padStart(9)}${'p99/idle'.padStart(10)}${'main ran/waited s'.padStart(19)}  result`;
}

/**
 * A phase row's last columns: p50, p99, longest wait, p99 over idle, what the server's main thread ran and
 * how long it waited for a core (bench/thread-times.ts), and its targets met, missed or why it is invalid.
 */
export function phaseColumns(row: PhaseFigures): string {
  const result = row.checks.length === 0 ? '' : row.checks.every((check) => check.pass) ? 'met' : row.checks.map((check) => `${check.label}: ${check.pass === null ? 'n/a' : check.pass ? 'met' : 'MISSED'}`).join(', ');
  const growth = row.p99Growth === null ? '-' : `${row.p99Growth.toFixed(2)}x`;
  const thread = row.mainThread === null ? '-' : `${(row.mainThread.cpuMs / 1000).toFixed(1)} / ${(row.mainThread.waitMs / 1000).toFixed(1)}`;
  return `${fixed(row.p50Ms, 2).padStart(9)}${fixed(row.p99Ms, 2).padStart(9)}${fixed(row.maxMs, 1).padStart(9)}${growth.padStart(10)}${thread.padStart(19)}  ${row.valid ? result : `INVALID: ${row.problems.join('; ')}`}`;
}

/** The case's table: one line per phase, with its targets checked. */
export function renderHeavyReport(rows: readonly HeavyRow[]): string {
  const lines = [`heavy work: GET one member at ${SIZES.rate} req/s, idle and while each job runs (p99 <= ${HEAVY_TARGETS.p99Growth}x idle, max <= ${HEAVY_TARGETS.maxMs} ms)`];
  lines.push(`${'phase'.padEnd(22)}${'job s'.padStart(7)}${phaseHeadings()}`);
  for (const row of rows) {
    lines.push(
      `${row.id.padEnd(22)}${(row.jobSeconds === null ? '-' : row.jobSeconds.toFixed(1)).padStart(7)}${phaseColumns(row)}`,
    );
  }
  return lines.join('\n');
}
