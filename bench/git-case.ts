import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild } from './child.js';
import { benchRuntime, compileChild, startNodeOptions, WORKER_ENTRY } from './compiled.js';
import type { BenchConfig } from './config.js';
import { call, HEAVY_TARGETS, idleFor, measurePhase, phaseColumns, phaseHeadings, sleep, workProblems, type MeasuredPhase } from './heavy-case.js';
import type { HeavySeed } from './heavy-seed.js';
import { startPacedLoadApart } from './load.js';
import { fixed } from './report.js';
import { serverProfiling } from './server-profiling.js';
import type { Check } from './targets.js';

/**
 * The Git Sync case (issue 31): how long do an export and an import of a 1,000-page space with 100 files
 * take, and does a light request wait meanwhile? The bundled server's platform (heavy-server.ts, worker
 * threads included) answers GET /healthz at a steady 200 requests a second: first idle, then while the
 * space is exported to a repository on a local Git server (`git http-backend`, as test/git/ uses; in a process of
 * its own at the lowest priority, as a host on another machine would be), then
 * while that repository is imported into an empty space. Both are queued (204); a phase lasts until
 * git/info says the operation ended. Targets, as the heavy-work case's: at most 3x the idle p99, and no
 * light request over 100 ms.
 */

const PAGES = 1000;
const FILES = 100;
const RATE = 200;
const PHASES = ['idle', 'export', 'import'] as const;
type Phase = (typeof PHASES)[number];
const here = dirname(fileURLToPath(import.meta.url));

/** One phase: the light requests' latencies while it ran, and how long its operation took. */
export interface GitRow extends MeasuredPhase {
  id: string;
  phase: Phase;
}

/** The ids of the case's rows, so that BENCH_CASES=git selects them. */
export function gitCaseIds(): string[] {
  return PHASES.map((phase) => `git-${phase}`);
}

/** Runs the case (see the module comment). */
export async function runGitCase(config: BenchConfig, dataDir: string, ids: readonly string[], log: (line: string) => void): Promise<{ rows: GitRow[]; checks: Check[] }> {
  const path = join(dataDir, 'git', 'data.json');
  // The heavy case's seed: a space whose open change request holds PAGES pages.
  const seeder = await startChild<HeavySeed>(join(here, 'heavy-seed.ts'), [path, String(PAGES), '0']);
  await seeder.stop();
  const { token, pdf } = seeder.info;
  log(`git case: GET /healthz at ${RATE} req/s while a space of ${PAGES} pages and ${FILES} files is exported to a local Git server, then imported`);
  const serverScript = benchRuntime() === 'compiled' ? await compileChild(join(here, 'heavy-server.ts'), join(here, 'results', 'compiled'), WORKER_ENTRY) : join(here, 'heavy-server.ts');
  const profiling = serverProfiling(config, 'git');
  const server = await startChild<{ url: string }>(serverScript, [path], [...(benchRuntime() === 'compiled' ? startNodeOptions() : []), ...profiling.nodeOptions]);
  const git = await startChild<{ url: string }>(join(here, 'git-server-child.ts'));
  const { url } = server.info;
  const spacePath = `/v1/spaces/${pdf.spaceId}`;
  const files = Array.from({ length: FILES }, (_, i) => ({ name: `file-${i}.bin`, contentType: 'application/octet-stream', base64: Buffer.alloc(2048, i).toString('base64') }));
  for (let at = 0; at < FILES; at += 20) await call(url, token, 'POST', `${spacePath}/change-requests/${pdf.changeRequestId}/content`, 200, { changes: [{ operation: 'insert_files', files: files.slice(at, at + 20) }] });
  await call(url, token, 'POST', `${spacePath}/change-requests/${pdf.changeRequestId}/merge`, 200);
  const organization = (await call(url, token, 'GET', spacePath, 200)).organization as string;
  const copy = (await call(url, token, 'POST', `/v1/orgs/${organization}/spaces`, 201, { title: 'Imported' })).id as string;
  const repository = { url: `${git.info.url}/bench.git`, ref: 'refs/heads/main' };
  /** Queues a Git operation and waits until git/info says it ended; its failure is a problem of the phase. */
  const operate = async (spaceId: string, direction: 'export' | 'import', body: object) => {
    await call(url, token, 'POST', `/v1/spaces/${spaceId}/git/${direction}`, 204, { ...repository, ...body });
    for (;;) {
      const { operation } = await call(url, token, 'GET', `/v1/spaces/${spaceId}/git/info`, 200);
      if (operation.state === 'failure') throw new Error(`${direction}: ${operation.error}`);
      if (operation.state === 'success' && operation.direction === direction) return;
      await sleep(100);
    }
  };
  const work: Record<Exclude<Phase, 'idle'>, () => Promise<void>> = {
    export: () => operate(pdf.spaceId, 'export', { commitMessage: 'Export the bench space' }),
    import: () => operate(copy, 'import', {}),
  };
  const rows: GitRow[] = [];
  try {
    await (await startPacedLoadApart(url, '/healthz', {}, RATE, 200)).stop();
    await sleep(1000);
    for (const phase of PHASES) {
      const id = `git-${phase}`;
      if (!ids.includes(id) && phase !== 'idle') continue;
      const light = () => startPacedLoadApart(url, '/healthz', {}, RATE, 200, server.pid);
      const run = phase === 'idle' ? idleFor(config.duration) : () => workProblems(work[phase]());
      const row: GitRow = { id, phase, ...(await measurePhase(id, phase, light, run, rows[0], profiling)) };
      rows.push(row);
      log(`  ${id.padEnd(16)} ${fixed(row.p50Ms, 2).padStart(6)} ms p50 ${fixed(row.p99Ms, 2).padStart(7)} ms p99 ${fixed(row.maxMs, 1).padStart(7)} ms max${row.workSeconds === null ? '' : `, took ${row.workSeconds.toFixed(1)} s`}${row.valid ? '' : `  INVALID: ${row.problems.join('; ')}`}`);
    }
  } finally {
    await server.stop();
    await git.stop();
  }
  await profiling.finish(rows[0]?.p99Ms, log);
  return { rows, checks: rows.flatMap((row) => row.checks) };
}

/** The case's table: one line per phase, with its targets checked. */
export function renderGitReport(rows: readonly GitRow[]): string {
  const lines = [`git: GET /healthz at ${RATE} req/s, idle and while a ${PAGES}-page space with ${FILES} files is exported, then imported (p99 <= ${HEAVY_TARGETS.p99Growth}x idle, max <= ${HEAVY_TARGETS.maxMs} ms)`];
  lines.push(`${'phase'.padEnd(18)}${'work s'.padStart(8)}${phaseHeadings()}`);
  for (const row of rows) {
    lines.push(
      `${row.id.padEnd(18)}${(row.workSeconds === null ? '-' : row.workSeconds.toFixed(1)).padStart(8)}${phaseColumns(row)}`,
    );
  }
  return lines.join('\n');
}
