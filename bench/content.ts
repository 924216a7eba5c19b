/**
 * `npm run bench:content`: the content case of `npm run bench` (content-case.ts) on its own, every row:
 * at 100 and 10,000 pages (BENCH_CONTENT_SIZES), a page read by id and by path, a space search, an edit
 * batch changing one page and a merge of a request changing one page, BENCH_CONTENT_ROUNDS (200) timed
 * rounds each, p50 and p99. The same as `BENCH_CASES=content npm run bench` without the machine
 * description; results are printed and written to bench/results/content.json. Missed targets are
 * reported, not failed.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readConfig } from './config.js';
import { contentCaseIds, runContentCase } from './content-case.js';
import { renderContentReport } from './content-report.js';

async function main(): Promise<void> {
  const config = readConfig();
  const settings = { sizes: config.contentSizes, rounds: config.contentRounds };
  console.log(`content case: ${settings.sizes.map((n) => n.toLocaleString('en-US')).join(' and ')} pages, ${settings.rounds} timed rounds a row`);
  const results = await runContentCase(settings, contentCaseIds(settings), console.log);
  console.log(`\n${renderContentReport(results.rows)}`);
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'content.json');
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify({ date: new Date().toISOString(), settings, ...results }, null, 2)}\n`);
  const missed = results.checks.filter((check) => check.pass === false).length;
  console.log(`\n${results.checks.filter((check) => check.pass).length} of ${results.checks.length} targets met${missed ? `, ${missed} MISSED` : ''}. Results: ${out}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
