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
 * The Markdown case (issue 27): does a light request wait while someone writes and reads a body near the
 * request limit? The bundled server's platform (worker threads included: heavy-server.ts) answers GET
 * /healthz at a steady 200 requests a second: first idle, then while, for each kind of body (prose, a table,
 * nested lists, a flood of link references, ~1 MiB each), one client, one request after the other, inserts
 * it as a page of a new change request, reads it as Markdown, as a JSON document and its links report,
 * merges the request, reads the page on the published site (its first render) and searches the space (the
 * index takes the page in). Each phase reports the p50, p99 and longest wait of the light requests sent
 * while it ran (the longest is the event loop's longest stall they met), and its p99 over the idle p99.
 * Targets, as the heavy-work case's: at most 3x the idle p99, and no request over 100 ms.
 * BENCH_HEAVY_INLINE=1 parses on the main thread instead, for comparison; BENCH_PROFILE=1 writes CPU profiles
 * of the server's threads (bench/results/profiles/markdown-loop-<time>), BENCH_TRACE=1 finer ones with the light
 * requests beside them (server-profiling.ts).
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
/** A word each kind of body holds, which a search finds it by. */
const WORDS: Record<Kind, string> = { prose: 'paragraph', table: 'x1000', lists: 'item', 'link-references': 'use' };
const PHASES = ['idle', ...(Object.keys(KINDS) as Kind[])] as const;
type Phase = (typeof PHASES)[number];

/** The most characters of a kind whose insert_page request fits the request limit. */
function bodyOf(kind: Kind): string {
  let text = KINDS[kind](MAX_REQUEST_JSON);
  while (JSON.stringify(text).length > MAX_REQUEST_JSON - 200) text = text.slice(0, Math.floor(text.length * 0.97));
  return text;
}

/** The insert_page request of a body, printed before its phase starts. */
const insertOf = (title: string, body: string) => JSON.stringify({ changes: [{ operation: 'insert_page', title, document: { markdown: body } }] });

/** One phase: the light requests' latencies while it ran, and how long its requests took. */
export interface MarkdownLoopRow extends MeasuredPhase {
  id: string;
  phase: Phase;
  bodyChars: number | null;
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
  const { token, pdf, organizationId } = seeder.info;
  const inline = process.env.BENCH_HEAVY_INLINE === '1';
  log(`markdown-loop case: GET /healthz at ${RATE} req/s while ~1 MiB bodies are written and read${inline ? ' (BENCH_HEAVY_INLINE=1: parsed on the main thread)' : ''}`);
  const serverScript = benchRuntime() === 'compiled' ? await compileChild(join(here, 'heavy-server.ts'), join(here, 'results', 'compiled'), WORKER_ENTRY) : join(here, 'heavy-server.ts');
  const profiling = serverProfiling(config, 'markdown-loop');
  const server = await startChild<{ url: string }>(serverScript, [path, ...(inline ? ['inline'] : [])], [...(benchRuntime() === 'compiled' ? startNodeOptions() : []), ...profiling.nodeOptions]);
  const { url } = server.info;
  const space = `/v1/spaces/${pdf.spaceId}`;
  // A site that publishes the space (public, so that a visitor reads it): each phase's page is read there once merged.
  await call(url, token, 'PATCH', space, 200, { visibility: 'public' });
  const site = await call(url, token, 'POST', `/v1/orgs/${organizationId}/sites`, 201, { title: 'Markdown', spaces: [pdf.spaceId] });
  await call(url, token, 'POST', `/v1/orgs/${organizationId}/sites/${site.id}/publish`, 200, {});
  const siteUrl: string = (await call(url, token, 'GET', `/v1/orgs/${organizationId}/sites/${site.id}/published`, 200)).site.urls.published;
  /**
   * A request whose answer is only counted, not parsed: the light requests are sent and timed from this
   * process, so parsing a 7-14 MB document here would hold them too and count as the server's wait.
   */
  const drain = async (path: string, body?: string) => {
    const response = await fetch(`${url}${path}`, { method: body === undefined ? 'GET' : 'POST', headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) }, body });
    const bytes = await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${new TextDecoder().decode(bytes.slice(0, 300))}`);
    return bytes;
  };
  /** Writes a body (its request already printed) as a page of a new change request, reads it in each form, merges it, reads it published and searches for `word`. */
  const work = async (title: string, insert: string, word: string) => {
    const request = await call(url, token, 'POST', `${space}/change-requests`, 201, { subject: title });
    const content = `${space}/change-requests/${request.id}/content`;
    const made = JSON.parse(new TextDecoder().decode(await drain(`${content}?compat=false`, insert)));
    const id = made.changes[0].page.id;
    const page = `${content}/page/${id}`;
    await drain(`${page}?format=markdown`);
    await drain(`${page}?format=document`);
    await drain(`${page}/links`);
    await call(url, token, 'POST', `${space}/change-requests/${request.id}/merge`, 200);
    const { path } = await call(url, token, 'GET', `${space}/content/page/${id}`, 200);
    const published = await fetch(`${url}${new URL(`${siteUrl}/${path}`).pathname}`);
    const html = await published.arrayBuffer();
    if (published.status !== 200 || html.byteLength < insert.length / 4) throw new Error(`the published page ${path} answered ${published.status} with ${html.byteLength} bytes`);
    const found = await call(url, token, 'GET', `${space}/search?query=${word}`, 200);
    if (!found.items.some((hit: { id: string }) => hit.id === id)) throw new Error(`searching for ${word} did not find the page`);
  };
  const rows: MarkdownLoopRow[] = [];
  try {
    // Warms the server up (code compiled, the pool's threads started by a first large body) before anything is measured.
    await (await startPacedLoadApart(url, '/healthz', {}, RATE, 200)).stop();
    await work('Warm-up', insertOf('Warm-up', KINDS.prose(64 * 1024)), 'paragraph');
    await sleep(1000);
    for (const phase of PHASES) {
      const id = `markdown-loop-${phase}`;
      if (!ids.includes(id) && phase !== 'idle') continue;
      const body = phase === 'idle' ? null : bodyOf(phase);
      const insert = body === null ? '' : insertOf(`Large ${phase}`, body);
      const light = () => startPacedLoadApart(url, '/healthz', {}, RATE, 200, server.pid);
      const run = body === null ? idleFor(config.duration) : () => workProblems(work(`Large ${phase}`, insert, WORDS[phase as Kind]));
      const row: MarkdownLoopRow = { id, phase, bodyChars: body?.length ?? null, ...(await measurePhase(id, phase, light, run, rows[0], profiling)) };
      rows.push(row);
      log(`  ${id.padEnd(30)} ${fixed(row.p50Ms, 2).padStart(6)} ms p50 ${fixed(row.p99Ms, 2).padStart(7)} ms p99 ${fixed(row.maxMs, 1).padStart(7)} ms longest${row.workSeconds === null ? '' : `, the work took ${row.workSeconds.toFixed(1)} s`}${row.valid ? '' : `  INVALID: ${row.problems.join('; ')}`}`);
    }
  } finally {
    await server.stop();
  }
  await profiling.finish(rows[0]?.p99Ms, log);
  return { rows, checks: rows.flatMap((row) => row.checks) };
}

/** The case's table: one line per phase, with its targets checked. */
export function renderMarkdownLoopReport(rows: readonly MarkdownLoopRow[]): string {
  const lines = [`markdown loop: GET /healthz at ${RATE} req/s, idle and while a ~1 MiB body of each kind is written, read as Markdown, as a document and as links, merged, read published and searched (p99 <= ${HEAVY_TARGETS.p99Growth}x idle, longest wait <= ${HEAVY_TARGETS.maxMs} ms)`];
  lines.push(`${'phase'.padEnd(32)}${'chars'.padStart(9)}${'work s'.padStart(8)}${phaseHeadings('longest')}`);
  for (const row of rows) {
    lines.push(
      `${row.id.padEnd(32)}${(row.bodyChars === null ? '-' : String(row.bodyChars)).padStart(9)}${(row.workSeconds === null ? '-' : row.workSeconds.toFixed(1)).padStart(8)}${phaseColumns(row)}`,
    );
  }
  return lines.join('\n');
}
