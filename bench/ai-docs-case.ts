import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild } from './child.js';
import type { BenchConfig } from './config.js';
import { measurePair, startPacedLoadApart, type Measurement } from './load.js';
import { fixed, renderTable } from './report.js';
import type { ReaderServerInfo } from './reader-server.js';
import type { Check } from './targets.js';

/**
 * The AI-tools case (issue 32), on a published site of 2,000 pages: the site MCP server's `search` tool
 * (req/s and p99); a page's `.md` version against its HTML (req/s, in alternating slices on one server);
 * llms-full.txt's time to its first and last byte, cold (made) then warm (kept), and the longest wait of a
 * light request (the HTML page, 50 a second) sent meanwhile, beside the same load's for as long just before
 * (idle: what the machine's load alone makes it wait). The server runs its jobs on a pool of worker threads,
 * as `npm start` does, so that the figures are what users get. Targets: `.md` at least the HTML's req/s (it renders
 * nothing), and no light request waiting more than 100 ms while llms-full.txt is made.
 */

/** The targets of the case. */
export const AI_DOCS_TARGETS = { markdownRatio: 1, lightWaitMs: 100 };

/** What the case measured. */
export interface AiDocsResults {
  rows: { id: string; requestsPerSecond: number; p50Ms: number; p99Ms: number; valid: boolean }[];
  llms: {
    coldMs: number;
    coldFirstByteMs: number;
    warmMs: number;
    bytes: number;
    lightMaxMs: number;
    lightP99Ms: number;
    lightResponses: number;
    idleMaxMs: number;
    idleP99Ms: number;
    firstSearchMs: number;
  };
  checks: Check[];
  pages: number;
}

const here = dirname(fileURLToPath(import.meta.url));
const PAGES = 2000;
/** How long the light load runs alone before llms-full.txt is asked for. */
const IDLE_MS = 3000;

/** The ids of the case's rows, so that BENCH_CASES=ai selects them. */
export function aiDocsCaseIds(): string[] {
  return ['ai-mcp-search', 'ai-md-page', 'ai-html-page', 'ai-llms-full'];
}

const rowOf = (id: string, measurement: Measurement) => ({ id, requestsPerSecond: measurement.requestsPerSecond, p50Ms: measurement.p50Ms, p99Ms: measurement.p99Ms, valid: measurement.problems.length === 0 });

/** Fetches a URL to its last byte: the milliseconds to its headers (the first byte) and to the end, and its size. */
async function lastByte(url: string): Promise<{ ms: number; firstByteMs: number; bytes: number }> {
  const started = performance.now();
  const response = await fetch(url);
  const firstByteMs = performance.now() - started;
  const body = await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return { ms: performance.now() - started, firstByteMs, bytes: body.byteLength };
}

/** Runs the case (see the module comment). */
export async function runAiDocsCase(config: BenchConfig, log: (line: string) => void): Promise<AiDocsResults> {
  const server = await startChild<ReaderServerInfo>(join(here, 'reader-server.ts'), [String(PAGES), 'pool']);
  try {
    const { url, htmlPath, sitePath } = server.info;
    log(`AI-tools case: a published site of ${PAGES.toLocaleString('en-US')} pages`);
    // llms-full.txt first, cold, with a paced light load (of a page already rendered) meanwhile; then warm.
    // The same load for as long just before says what the machine alone makes a light request wait.
    await lastByte(`${url}${htmlPath}`);
    const idle = await startPacedLoadApart(url, htmlPath, {}, 50, 200);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const idleFigures = await idle.stop();
    const light = await startPacedLoadApart(url, htmlPath, {}, 50, 200);
    const cold = await lastByte(`${url}${sitePath}/llms-full.txt`);
    const lightFigures = await light.stop();
    const warm = await lastByte(`${url}${sitePath}/llms-full.txt`);
    const llms = {
      coldMs: cold.ms,
      coldFirstByteMs: cold.firstByteMs,
      warmMs: warm.ms,
      bytes: cold.bytes,
      lightMaxMs: lightFigures.maxMs,
      lightP99Ms: lightFigures.p99Ms,
      lightResponses: lightFigures.responses,
      idleMaxMs: idleFigures.maxMs,
      idleP99Ms: idleFigures.p99Ms,
    };
    log(
      `  llms-full.txt ${cold.bytes.toLocaleString('en-US')} bytes: cold ${fixed(cold.firstByteMs, 0)} ms to the first byte, ${fixed(cold.ms, 0)} ms to the last; warm ${fixed(warm.ms, 0)} ms; ` +
        `light requests meanwhile: ${lightFigures.responses}, p99 ${fixed(lightFigures.p99Ms, 1)} ms, longest ${fixed(lightFigures.maxMs, 1)} ms (idle before: p99 ${fixed(idleFigures.p99Ms, 1)} ms, longest ${fixed(idleFigures.maxMs, 1)} ms)`,
    );

    const get = (path: string) => ({ url, pids: [server.pid], connections: config.connections, request: { method: 'GET' as const, path, headers: {} }, expectedStatus: 200 });
    const pages = await measurePair(get(`${htmlPath}.md`), get(htmlPath), config);
    const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: { query: 'product example' } } });
    const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    // The first search builds the site's search index (a heavy job): timed apart, and not in the figures.
    const started = performance.now();
    const first = await fetch(`${url}${sitePath}/~mcp`, { method: 'POST', headers: mcpHeaders, body: call });
    await first.text();
    const firstSearchMs = performance.now() - started;
    log(`  first search (builds the index): ${first.status} in ${fixed(firstSearchMs, 0)} ms`);
    const search = await measurePair(
      {
        url,
        pids: [server.pid],
        connections: config.connections,
        request: { method: 'POST', path: `${sitePath}/~mcp`, headers: mcpHeaders, body: call },
        expectedStatus: 200,
      },
      null,
      config,
    );
    const rows = [rowOf('ai-mcp-search', search.target), rowOf('ai-md-page', pages.target), rowOf('ai-html-page', pages.ceiling!)];
    const ratio = pages.target.requestsPerSecond / pages.ceiling!.requestsPerSecond;
    const checks: Check[] = [
      { caseId: 'ai-md-page', target: `>= ${AI_DOCS_TARGETS.markdownRatio * 100}% of the HTML page's req/s`, label: `>=${AI_DOCS_TARGETS.markdownRatio * 100}% html`, actual: `${(ratio * 100).toFixed(0)}%`, pass: rows[1].valid && rows[2].valid ? ratio >= AI_DOCS_TARGETS.markdownRatio : null },
      { caseId: 'ai-llms-full', target: `no light request waits more than ${AI_DOCS_TARGETS.lightWaitMs} ms meanwhile`, label: `<=${AI_DOCS_TARGETS.lightWaitMs} ms`, actual: `${fixed(llms.lightMaxMs, 1)} ms`, pass: lightFigures.unexpectedStatus === 0 && lightFigures.errors === 0 ? llms.lightMaxMs <= AI_DOCS_TARGETS.lightWaitMs : null },
    ];
    const problems = [search.target, pages.target, pages.ceiling!].map((measurement) => measurement.problems.join('; '));
    rows.forEach((row, at) => log(`  ${row.id.padEnd(14)} ${Math.round(row.requestsPerSecond).toString().padStart(6)} req/s  p50 ${fixed(row.p50Ms, 2).padStart(5)} ms  p99 ${fixed(row.p99Ms, 2).padStart(6)} ms${row.valid ? '' : `  INVALID: ${problems[at]}`}`));
    return { rows, llms: { ...llms, firstSearchMs }, checks, pages: PAGES };
  } finally {
    await server.stop();
  }
}

/** The case's tables. */
export function renderAiDocsReport(results: AiDocsResults): string {
  const checkOf = (id: string) => results.checks.find((check) => check.caseId === id);
  const verdict = (id: string) => {
    const check = checkOf(id);
    return check ? `${check.actual} (${check.label}) ${check.pass ? 'met' : check.pass === false ? 'MISSED' : '-'}` : '';
  };
  const body = results.rows.map((row) => [row.id, Math.round(row.requestsPerSecond).toLocaleString('en-US'), fixed(row.p50Ms, 2), fixed(row.p99Ms, 2), verdict(row.id)]);
  const { llms } = results;
  return [
    `AI tools (a published site of ${results.pages.toLocaleString('en-US')} pages)`,
    ...renderTable(['case', 'req/s', 'p50 ms', 'p99 ms', 'target'], body, new Set([1, 2, 3])),
    '',
    ...renderTable(
      ['llms-full.txt', 'bytes', 'cold first byte ms', 'cold ms', 'warm ms', 'light requests', 'light p99 ms', 'longest wait ms', 'idle p99 / longest ms', 'target'],
      [
        [
          'ai-llms-full',
          llms.bytes.toLocaleString('en-US'),
          fixed(llms.coldFirstByteMs, 0),
          fixed(llms.coldMs, 0),
          fixed(llms.warmMs, 0),
          String(llms.lightResponses),
          fixed(llms.lightP99Ms, 1),
          fixed(llms.lightMaxMs, 1),
          `${fixed(llms.idleP99Ms, 1)} / ${fixed(llms.idleMaxMs, 1)}`,
          verdict('ai-llms-full'),
        ],
      ],
      new Set([1, 2, 3, 4, 5, 6, 7, 8]),
    ),
  ].join('\n');
}
