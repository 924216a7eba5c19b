import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild } from './child.js';
import { benchRuntime, compileChild, startNodeOptions, WORKER_ENTRY } from './compiled.js';
import type { BenchConfig } from './config.js';
import { call, HEAVY_TARGETS, phaseChecks, sleep } from './heavy-case.js';
import type { HeavySeed } from './heavy-seed.js';
import { startPacedLoad, type PacedFigures } from './load.js';
import { fixed } from './report.js';
import type { Check } from './targets.js';

/**
 * The Markdown case (issue 27): does a light request wait while someone writes and reads a body near the
 * request limit? The bundled server's platform (worker threads included: heavy-server.ts) answers GET
 * /healthz at a steady 200 requests a second: first idle, then while, for each kind of body (prose, a table,
 * nested lists, a flood of link references, ~1 MiB each), one client inserts it as a page, then reads it as
 * Markdown, as a JSON document and its links report, one request after the other. Each phase reports the
 * p50, p99 and max latency of the light requests sent while it ran, and its p99 over the idle p99. Targets,
 * as the heavy-work case's: at most 3x the idle p99, and no request over 100 ms. BENCH_HEAVY_INLINE=1 parses
 * on the main thread instead, for comparison.
 */

/** A request body may hold this much JSON (the pipeline's limit is 1 MiB); the text is cut to fit. */
const MAX_REQUEST_JSON = 1_040_000;

/** Parts `part(0)`, `part(1)`, ... joined by `between`, up to at least `size` characters. */
function grow(size: number, between: string, part: (i: number) => string): string {
  const parts: string[] = [];
  for (let length = 0; length < size; length += parts.at(-1)!.length + between.length) parts.push(part(parts.length));
  return parts.join(between);
}

/** The bodies, each about `size` characters. */
const KINDS = {
  prose: (size: number) => grow(size, '\n\n', (i) => `Paragraph ${i} has *some* **bold** words, a [link](https://example.com/${i}) and \`code\`.`),
  table: (size: number) => `| a | b | c |\n|---|---|---|\n${grow(size, '\n', (i) => `| *x${i}* | [y](https://example.com/${i}) | z |`)}\n`,
  lists: (size: number) => grow(size, '\n', (i) => `${'  '.repeat(i % 4)}- item ${i} with [a link](https://example.com/${i})`),
  'link-references': (size: number) => grow(size, '\n\n', (i) => (i % 2 ? `A [use][r${i - 1}] of it.` : `[r${i}]: https://example.com/${i}`)),
};
type Kind = keyof typeof KINDS;
const PHASES = ['idle', ...(Object.keys(KINDS) as Kind[])] as const;
type Phase = (typeof PHASES)[number];

/** The most characters of a kind whose insert_page request fits the request limit. */
function bodyOf(kind: Kind): string {
  let text = KINDS[kind](MAX_REQUEST_JSON);
  while (JSON.stringify(text).length > MAX_REQUEST_JSON - 200) text = text.slice(0, Math.floor(text.length * 0.97));
  return text;
}

/** One phase: the light requests' latencies while it ran, and how long its requests took. */
export interface MarkdownLoopRow extends Omit<PacedFigures, 'statusCodes' | 'timeline'> {
  id: string;
  phase: Phase;
  bodyChars: number | null;
  workSeconds: number | null;
  p99Growth: number | null;
  valid: boolean;
  problems: string[];
  checks: Check[];
}

const RATE = 200;
const here = dirname(fileURLToPath(import.meta.url));

/** The ids of the case's rows, so that BENCH_CASES=markdown-loop selects them. */
export function markdownLoopCaseIds(): string[] {
  return PHASES.map((phase) => `markdown-loop-${phase}`);
}

/** Runs the case (see the module comment). */
export async function runMarkdownLoopCase(config: BenchConfig, dataDir: string, ids: readonly string[], log: (line: string) => void): Promise<{ rows: MarkdownLoopRow[]; checks: Check[] }> {
  const path = join(dataDir, 'markdown-loop', 'data.json');
  // The heavy case's seed with no pages: a user, its token, and a space with an open change request.
  const seeder = await startChild<HeavySeed>(join(here, 'heavy-seed.ts'), [path, '0', '0']);
  await seeder.stop();
  const { token, pdf } = seeder.info;
  const inline = process.env.BENCH_HEAVY_INLINE === '1';
  log(`markdown-loop case: GET /healthz at ${RATE} req/s while ~1 MiB bodies are written and read${inline ? ' (BENCH_HEAVY_INLINE=1: parsed on the main thread)' : ''}`);
  const serverScript = benchRuntime() === 'compiled' ? await compileChild(join(here, 'heavy-server.ts'), join(here, 'results', 'compiled'), WORKER_ENTRY) : join(here, 'heavy-server.ts');
  const server = await startChild<{ url: string }>(serverScript, [path, ...(inline ? ['inline'] : [])], benchRuntime() === 'compiled' ? startNodeOptions() : []);
  const { url } = server.info;
  const content = `/v1/spaces/${pdf.spaceId}/change-requests/${pdf.changeRequestId}/content`;
  /** Writes a body as a page, then reads it in each form. */
  const work = async (body: string) => {
    const made = await call(url, token, 'POST', `${content}?compat=false`, 200, { changes: [{ operation: 'insert_page', title: 'Large', document: { markdown: body } }] });
    const page = `${content}/page/${made.changes[0].page.id}`;
    await call(url, token, 'GET', `${page}?format=markdown`, 200);
    await call(url, token, 'GET', `${page}?format=document`, 200);
    await call(url, token, 'GET', `${page}/links`, 200);
  };
  const rows: MarkdownLoopRow[] = [];
  try {
    // Warms the server up (code compiled, the pool's threads started by a first large body) before anything is measured.
    await startPacedLoad(url, '/healthz', {}, RATE, 200).stop();
    await work(KINDS.prose(64 * 1024));
    await sleep(1000);
    for (const phase of PHASES) {
      const id = `markdown-loop-${phase}`;
      if (!ids.includes(id) && phase !== 'idle') continue;
      const body = phase === 'idle' ? null : bodyOf(phase);
      const load = startPacedLoad(url, '/healthz', {}, RATE, 200);
      const started = performance.now();
      const problems: string[] = body === null ? await sleep(config.duration * 1000).then(() => []) : await work(body).then(() => [], (error: Error) => [error.message]);
      const workSeconds = body === null ? null : (performance.now() - started) / 1000;
      const { statusCodes, timeline: _timeline, ...figures } = await load.stop();
      if (figures.unexpectedStatus > 0) problems.push(`${figures.unexpectedStatus} light requests did not answer 200 (${JSON.stringify(statusCodes)})`);
      if (figures.errors > 0) problems.push(`${figures.errors} light requests failed`);
      const idle = rows[0];
      const p99Growth = phase === 'idle' || !idle ? null : figures.p99Ms / idle.p99Ms;
      const row: MarkdownLoopRow = { id, phase, bodyChars: body?.length ?? null, workSeconds, ...figures, p99Growth, valid: problems.length === 0, problems, checks: [] };
      if (phase !== 'idle') row.checks.push(...phaseChecks(id, p99Growth!, figures.maxMs, row.valid && idle.valid));
      rows.push(row);
      log(`  ${id.padEnd(30)} ${fixed(figures.p50Ms, 2).padStart(6)} ms p50 ${fixed(figures.p99Ms, 2).padStart(7)} ms p99 ${fixed(figures.maxMs, 1).padStart(7)} ms max${workSeconds === null ? '' : `, write and reads took ${workSeconds.toFixed(1)} s`}${problems.length ? `  INVALID: ${problems.join('; ')}` : ''}`);
    }
  } finally {
    await server.stop();
  }
  return { rows, checks: rows.flatMap((row) => row.checks) };
}

/** The case's table: one line per phase, with its targets checked. */
export function renderMarkdownLoopReport(rows: readonly MarkdownLoopRow[]): string {
  const lines = [`markdown loop: GET /healthz at ${RATE} req/s, idle and while a ~1 MiB body of each kind is written, then read as Markdown, as a document and as links (p99 <= ${HEAVY_TARGETS.p99Growth}x idle, max <= ${HEAVY_TARGETS.maxMs} ms)`];
  lines.push(`${'phase'.padEnd(32)}${'chars'.padStart(9)}${'work s'.padStart(8)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'max ms'.padStart(9)}${'p99/idle'.padStart(10)}  result`);
  for (const row of rows) {
    const result = row.checks.length === 0 ? '' : row.checks.every((check) => check.pass) ? 'met' : row.checks.map((check) => `${check.label}: ${check.pass === null ? 'n/a' : check.pass ? 'met' : 'MISSED'}`).join(', ');
    lines.push(
      `${row.id.padEnd(32)}${(row.bodyChars === null ? '-' : String(row.bodyChars)).padStart(9)}${(row.workSeconds === null ? '-' : row.workSeconds.toFixed(1)).padStart(8)}${fixed(row.p50Ms, 2).padStart(9)}${fixed(row.p99Ms, 2).padStart(9)}${fixed(row.maxMs, 1).padStart(9)}${(row.p99Growth === null ? '-' : `${row.p99Growth.toFixed(2)}x`).padStart(10)}  ${row.valid ? result : `INVALID: ${row.problems.join('; ')}`}`,
    );
  }
  return lines.join('\n');
}
