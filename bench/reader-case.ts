import { get } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild } from './child.js';
import type { BenchConfig } from './config.js';
import { measurePair, type Measurement } from './load.js';
import { fixed, renderTable } from './report.js';
import type { ReaderServerInfo } from './reader-server.js';
import type { Check } from './targets.js';

/**
 * The reader case (issue 17): a rendered page of a published site whose space holds 1,000 pages, against the
 * same page's JSON from the API (GET /v1/spaces/{spaceId}/content/page/{pageId}), measured in alternating
 * slices on one server. Target: the HTML at least half the JSON's req/s (rendered HTML is cached per revision
 * and page, so a request reads what the JSON read does, and the layout's data from the derived cache).
 * The page is measured again as a browser asks for it, gzipped (`reader-html-gzip`): its compressed bytes are
 * kept with its ETag (adapters/compression.ts), so a request costs a cache lookup more, not a compression.
 */

/** The target of the case. */
export const READER_TARGET = { ratio: 0.5 };

/** The case's rows. */
export interface ReaderRow {
  id: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  bytes: string;
  valid: boolean;
  problems: string[];
}

/** What the case measured. */
export interface ReaderResults {
  rows: ReaderRow[];
  checks: Check[];
  pages: number;
}

const here = dirname(fileURLToPath(import.meta.url));

/** The ids of the case's rows, without running anything, so that BENCH_CASES=reader selects them. */
export function readerCaseIds(): string[] {
  return ['reader-html', 'reader-html-gzip', 'reader-json'];
}

const rowOf = (id: string, measurement: Measurement, bytes: number): ReaderRow => ({
  id,
  requestsPerSecond: measurement.requestsPerSecond,
  p50Ms: measurement.p50Ms,
  p99Ms: measurement.p99Ms,
  bytes: bytes.toLocaleString('en-US'),
  valid: measurement.problems.length === 0,
  problems: measurement.problems,
});

/** The bytes an answer takes on the wire, as sent (fetch() would decode a compressed one): its Content-Length. */
function sentBytes(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(Number(response.headers['content-length'] ?? Number.NaN)));
    }).on('error', reject);
  });
}

/** Runs the reader case (see the module comment). */
export async function runReaderCase(config: BenchConfig, log: (line: string) => void): Promise<ReaderResults> {
  // BENCH_PROFILE=1: the server's CPU profile, to see where a rendered page's time goes.
  const profile = config.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(here, 'results', 'profiles', `reader-${Date.now()}`)}`] : [];
  const server = await startChild<ReaderServerInfo>(join(here, 'reader-server.ts'), ['1000'], profile);
  try {
    const { url, htmlPath, jsonPath, token, pages } = server.info;
    const sizes = await Promise.all([
      fetch(`${url}${htmlPath}`).then((response) => response.text()),
      fetch(`${url}${jsonPath}`, { headers: { authorization: `Bearer ${token}` } }).then((response) => response.text()),
    ]);
    log(`reader case: a page of a published space of ${pages.toLocaleString('en-US')} pages, HTML (${sizes[0].length.toLocaleString('en-US')} characters) against its JSON (${sizes[1].length.toLocaleString('en-US')})`);
    const target = (path: string, headers: Record<string, string>) => ({ url, pids: [server.pid], connections: config.connections, request: { method: 'GET' as const, path, headers }, expectedStatus: 200 });
    const gzip = { 'accept-encoding': 'gzip' };
    const gzipped = await sentBytes(`${url}${htmlPath}`, gzip);
    const json = target(jsonPath, { authorization: `Bearer ${token}` });
    const pair = await measurePair(target(htmlPath, {}), json, config);
    // Against the JSON once more, in slices of their own: each ratio compares figures taken side by side.
    const zipped = await measurePair(target(htmlPath, gzip), json, config);
    const rows = [rowOf('reader-html', pair.target, sizes[0].length), rowOf('reader-html-gzip', zipped.target, gzipped), rowOf('reader-json', pair.ceiling!, sizes[1].length)];
    const check = (caseId: string, measured: { target: Measurement; ceiling: Measurement | null }): Check => {
      const ratio = measured.target.requestsPerSecond / measured.ceiling!.requestsPerSecond;
      const valid = measured.target.problems.length === 0 && measured.ceiling!.problems.length === 0;
      return { caseId, target: `>= ${READER_TARGET.ratio * 100}% of the same page's JSON req/s`, label: `>=${READER_TARGET.ratio * 100}% json`, actual: `${(ratio * 100).toFixed(0)}%`, pass: valid ? ratio >= READER_TARGET.ratio : null };
    };
    const checks: Check[] = [check('reader-html', pair), check('reader-html-gzip', zipped)];
    for (const row of rows) log(`  ${row.id.padEnd(12)} ${Math.round(row.requestsPerSecond).toString().padStart(6)} req/s  p50 ${fixed(row.p50Ms, 2).padStart(5)} ms  p99 ${fixed(row.p99Ms, 2).padStart(6)} ms${row.valid ? '' : `  INVALID: ${row.problems.join('; ')}`}`);
    return { rows, checks, pages };
  } finally {
    await server.stop();
  }
}

/** The case's table. */
export function renderReaderReport(results: ReaderResults): string {
  const body = results.rows.map((row) => {
    const check = results.checks.find((each) => each.caseId === row.id);
    return [row.id, Math.round(row.requestsPerSecond).toLocaleString('en-US'), fixed(row.p50Ms, 2), fixed(row.p99Ms, 2), row.bytes, check ? `${check.actual} (${check.label}) ${check.pass ? 'met' : check.pass === false ? 'MISSED' : '-'}` : ''];
  });
  return [`Reader (a page of a space of ${results.pages.toLocaleString('en-US')} pages)`, ...renderTable(['case', 'req/s', 'p50 ms', 'p99 ms', 'bytes', 'target'], body, new Set([1, 2, 3, 4]))].join('\n');
}
