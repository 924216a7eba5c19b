/**
 * `npm run bench`: autocannon against the bundled server on 127.0.0.1, next to two bare node:http
 * ceilings, and a check of the targets of the requirement:
 *
 * - GET one member, at 1k and 100k members: at least 40% of the small-object ceiling's req/s;
 * - GET the members list (limit 100), at 1k and 100k: at least 50% of the list ceiling's req/s,
 *   and its p50 and p99 at 100k within 1.5x of those at 1k;
 * - PATCH a member's role and PUT a team, 50 connections, 1k members: at least 2,000 durable writes/s;
 * - the PostgreSQL cases (ids `pg1-*`, `pg2-*`, see postgres-case.ts): GET one, the list and (1k) PUT team over
 *   the same seeded data copied into a fresh PostgreSQL schema (dropped at the end), served by 1 and by 2
 *   processes on one port (node:cluster): the list's p50 and p99 at 100k within 1.5x of 1k, at least 2,000
 *   durable writes/s, and with 1 process GET one and the list at least 1/3 of the JSON-file store's req/s in
 *   the same run. Where PostgreSQL does not answer they are skipped, saying why;
 * - the store case (ids `store-*`, see store-case.ts): the JSON-file store alone, 50 concurrent writers
 *   at 1k, 10k and 100k records, p99 during compactions, open time and memory at 100k;
 * - the content case (ids `content-*`, see content-case.ts; also `npm run bench:content`): the content
 *   model in this process on the memory store, at 100 and 10,000 pages: a page read by id and by path
 *   and a space search (p50 under 5 ms), an edit batch changing one page (p50 at 10,000 pages within 2x
 *   of 100), and a three-way merge of a request changing one page (its p50, p99, map nodes read, and
 *   growth from 100 to 10,000 pages reported);
 * - the heavy-work case (ids `heavy-work-*`, see heavy-case.ts): GET one member at 200 req/s against the
 *   bundled server's platform, idle and while each heavy job runs (a 4 MB OpenAPI document, a PDF of
 *   2,000 pages, a zip import of 1,000 pages, the first search of 10,000 pages): p99 at most 3x the idle
 *   p99, and no request over 100 ms.
 * - the Git Sync case (ids `git-*`, see git-case.ts): GET /healthz at 200 req/s while a 1,000-page space with 100
 *   files is exported to a local Git server, then imported into an empty space;
 * - the Markdown case (ids `markdown-loop-*`, see markdown-loop-case.ts): GET /healthz at 200 req/s against the
 *   bundled server's platform, idle and while a ~1 MiB body of each kind (prose, a table, lists, link references)
 *   is written and read: p99 at most 3x the idle p99, and no request over 100 ms.
 * - the reader case (ids `reader-*`, see reader-case.ts): a rendered page of a published space of 1,000 pages
 *   against the same page's JSON, alternating on one server: the HTML at least half the JSON's req/s.
 * - the AI-tools case (ids `ai-*`, see ai-docs-case.ts): on a published site of 2,000 pages, the site MCP
 *   server's search, a `.md` page against its HTML, and llms-full.txt's time to its last byte with the
 *   longest wait of a light request meanwhile (at most 100 ms).
 * - the contention case (ids `contention-*`, see contention-case.ts): 1 then 16 writers writing in one place (spaces,
 *   change requests, pages, merges, comments, members, a team, a site's sections: contention-kinds.ts), on the
 *   JSON file and on PostgreSQL with 1 and 2 processes: 16 get at least 1.5x the work of 1 done, none fails, and
 *   1 writer on PostgreSQL gets at least half the JSON file's rate. bench/pg-evidence.ts adds PostgreSQL's plans,
 *   counters and lock waits for the same writes.
 *
 * Every server (the one under test, each ceiling, and the seeder before it) is a child process, so
 * that autocannon, in this process, has its own event loop. Each case is measured in slices that
 * alternate with slices of its ceiling, and its ratio is to that ceiling run: on a shared virtual
 * machine the speed of a process drifts by tens of percent from one 5-second window to the next
 * (see measurePair). The server under test opens a seeded
 * JSON-file store in a temporary folder, so writes are fsynced before they are answered. A case whose
 * responses were not all the expected status, or that had errors, is reported INVALID. Targets that
 * are missed are reported, not failed: the exit code is 0 unless the bench itself broke.
 *
 * Settings (environment): BENCH_DURATION (s, default 5), BENCH_WARMUP (s, 1), BENCH_SLICES (5), BENCH_CONNECTIONS (10),
 * BENCH_WRITE_CONNECTIONS (50), BENCH_SMALL (1000), BENCH_LARGE (100000), BENCH_CASES (comma-separated
 * words of case ids, e.g. `list,ceiling`, `store`, `content`, `pg`; `-word` leaves out the ids with that word, e.g.
 * `list,-pg`), BENCH_POSTGRES (the database of the pg cases, default postgres://postgres@127.0.0.1:5432/test), BENCH_CONTENT_SIZES (100,10000), BENCH_CONTENT_ROUNDS (200), BENCH_PROFILE=1 (CPU profiles of the servers under test in
 * bench/results/profiles/server-<json|pg1|pg2>-<size>-<time>/; the largest file is the main thread, of each worker with pg2), BENCH_TRACE=1
 * (the heavy case's slow light requests laid over the server's main thread: bench/heavy-trace.ts), BENCH_DATA_DIR
 * (default the OS temp folder), BENCH_KEEP_DATA=1 (keep the seeded data files), BENCH_RUNTIME (`compiled`, the
 * default, runs the server under test bundled as `npm start` runs it; `tsx` runs it through tsx's loader),
 * BENCH_BARE=1 (the server under test without the request log, written to a file in the data folder, and the
 * rate limits, with a budget no case reaches, that it has by default as `npm start` has them).
 * Results: printed, and written to bench/results/latest.json.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { caseIds, ceilingCase, JSON_SERVER, platformCases, sizeLabel, type Case, type CeilingKind, type ServerKind } from './cases.js';
import { contentCaseIds, runContentCase, type ContentResults } from './content-case.js';
import { renderContentReport } from './content-report.js';
import type { CeilingInfo } from './ceiling-server.js';
import { startChild, type Child } from './child.js';
import { benchRuntime, compileChild, startNodeOptions } from './compiled.js';
import { readConfig } from './config.js';
import { measurePair, type Measurement, type Target } from './load.js';
import { heavyCaseIds, renderHeavyReport, runHeavyCase, type HeavyResults } from './heavy-case.js';
import { markdownLoopCaseIds, renderMarkdownLoopReport, runMarkdownLoopCase, type MarkdownLoopRow } from './markdown-loop-case.js';
import { gitCaseIds, renderGitReport, runGitCase, type GitRow } from './git-case.js';
import { describeMachine } from './machine.js';
import { copyToPostgres, POSTGRES_SERVERS, postgresCaseIds, postgresUnavailable } from './postgres-case.js';
import { buildRows, outcome, renderReport, writeResults, type Measured } from './report.js';
import type { SeededData } from './seed.js';
import type { ServerInfo } from './server-under-test.js';
import { runStoreCase, storeCaseIds, type StoreResults } from './store-case.js';
import { renderStoreReport } from './store-report.js';
import { contentionCaseIds, runContentionCase, type ContentionRow } from './contention-case.js';
import { readerCaseIds, renderReaderReport, runReaderCase, type ReaderResults } from './reader-case.js';
import { aiDocsCaseIds, renderAiDocsReport, runAiDocsCase, type AiDocsResults } from './ai-docs-case.js';
import { TARGETS, type Check } from './targets.js';

const here = dirname(fileURLToPath(import.meta.url));
const script = (name: string) => join(here, name);

async function main(): Promise<void> {
  const config = readConfig();
  const resultsDir = join(here, 'results');
  await mkdir(resultsDir, { recursive: true });
  const dataDir = await mkdtemp(join(config.dataRoot, 'docs-platform-bench-'));
  const machine = await describeMachine(dataDir);
  const include = config.only.filter((word) => !word.startsWith('-'));
  const exclude = config.only.filter((word) => word.startsWith('-')).map((word) => word.slice(1));
  const selected = (id: string) => (include.length === 0 || include.some((word) => id.includes(word))) && !exclude.some((word) => id.includes(word));
  const datasets = [
    { members: config.small, writes: true },
    { members: config.large, writes: false },
  ];
  const jsonIds = datasets.flatMap(({ members, writes }) => caseIds(members, writes)).filter(selected);
  const postgresIds = datasets.flatMap(({ members, writes }) => postgresCaseIds(members, writes)).filter(selected);
  // The PostgreSQL cases run where the database answers; elsewhere they are skipped, saying why.
  const postgresSkipped = postgresIds.length > 0 ? await postgresUnavailable(config.postgres) : undefined;
  const wanted = [...jsonIds, ...(postgresSkipped ? [] : postgresIds)];
  const storeIds = storeCaseIds(config).filter(selected);
  const contentSettings = { sizes: config.contentSizes, rounds: config.contentRounds };
  const contentIds = contentCaseIds(contentSettings).filter(selected);
  const heavyIds = heavyCaseIds().filter(selected);
  const markdownLoopIds = markdownLoopCaseIds().filter(selected);
  const gitIds = gitCaseIds().filter(selected);
  const readerIds = readerCaseIds().filter(selected);
  const aiDocsIds = aiDocsCaseIds().filter(selected);
  const contentionIds = contentionCaseIds().filter(selected);
  const ceilingOf = (id: string): CeilingKind => (/(^|-)list-/.test(id) ? 'list' : 'small');
  // The server under test runs as `npm start` runs it: compiled, unless BENCH_RUNTIME=tsx.
  const runtime = benchRuntime();
  const serverScript = runtime === 'compiled' ? await compileChild(script('server-under-test.ts'), join(resultsDir, 'compiled')) : script('server-under-test.ts');
  const nodeOptions = runtime === 'compiled' ? startNodeOptions() : [];
  const ceilingKinds = (['small', 'list'] as const).filter((kind) => wanted.some((id) => ceilingOf(id) === kind) || selected(`ceiling-${kind}`));

  console.log(`servers under test: ${runtime} (BENCH_RUNTIME)${nodeOptions.length ? `, node ${nodeOptions.join(' ')} as npm start` : ''}, ${config.bare ? 'without request logs and rate limits (BENCH_BARE=1)' : 'logging each request to a file and counting rate limits, as npm start serves'}`);
  console.log(`docs-platform bench: ${config.duration}s per case after ${config.warmup}s of warmup, ${config.connections} connections for reads, ${config.writeConnections} for writes`);
  console.log(`${machine.cpus[0]?.model ?? 'unknown CPU'} x${machine.cores}, node ${machine.node}, load average ${machine.loadAverage.map((n) => n.toFixed(2)).join(' ')}, data in ${dataDir} (${machine.dataFileSystem})`);
  if (machine.dataFileSystem === 'tmpfs') console.log('WARNING: the data folder is on tmpfs, where fsync is free: write figures overstate a real disk. Set BENCH_DATA_DIR.');
  if (postgresSkipped) console.log(`PostgreSQL cases skipped: ${postgresSkipped}. Set BENCH_POSTGRES to a database to run them.`);

  const measured: Measured[] = [];
  const seeds: Record<string, Omit<SeededData, 'token' | 'memberIds'> & { servers: Record<string, Pick<ServerInfo, 'openMs' | 'heapMb'>>; postgresCopyMs?: number }> = {};
  const targetOf = (server: Child<{ url: string; workerPids?: number[] }>, item: Case): Target => ({
    url: server.info.url,
    pids: [server.pid, ...(server.info.workerPids ?? [])],
    database: item.server?.store === 'postgres',
    connections: item.connections,
    request: item.request,
    expectedStatus: item.expectedStatus,
  });
  const print = (item: Case, { requestsPerSecond, p50Ms, p99Ms, cpu, problems }: Measurement) => {
    const database = cpu?.database === undefined ? '' : `, postgres ${cpu.database.toFixed(2)}`;
    const cores = cpu ? `  cpu: server ${cpu.server.toFixed(2)}${database}, autocannon ${cpu.bench.toFixed(2)}, others ${cpu.others.toFixed(2)}, steal ${cpu.steal.toFixed(2)}` : '';
    console.log(
      `  ${item.id.padEnd(16)} ${Math.round(requestsPerSecond).toString().padStart(6)} req/s  p50 ${p50Ms.toFixed(2).padStart(5)} ms  p99 ${p99Ms.toFixed(2).padStart(6)} ms${cores}${problems.length ? `  INVALID: ${problems.join('; ')}` : ''}`,
    );
  };
  /** Measures a case, alternating with its ceiling when given one. */
  const run = async (server: Child<{ url: string }>, item: Case, ceiling?: { server: Child<CeilingInfo>; item: Case }) => {
    const loadAverage = loadavg()[0];
    const pair = await measurePair(targetOf(server, item), ceiling ? targetOf(ceiling.server, ceiling.item) : null, config);
    if (item.verify && pair.target.problems.length === 0) pair.target.problems.push(...(await item.verify(pair.target)));
    const paired = ceiling && pair.ceiling ? { case: ceiling.item, measurement: pair.ceiling, loadAverage } : undefined;
    if (paired) {
      measured.push(paired);
      print(paired.case, paired.measurement);
    }
    measured.push({ case: item, measurement: pair.target, loadAverage, ceiling: paired });
    print(item, pair.target);
  };

  // The ceilings run for the whole bench (idle, they cost nothing) so that each case can be paired with one.
  const ceilings = new Map<CeilingKind, Child<CeilingInfo>>();
  let store: StoreResults | null = null;
  let content: ContentResults | null = null;
  let heavy: HeavyResults | null = null;
  let markdownLoop: { rows: MarkdownLoopRow[]; checks: Check[] } | null = null;
  let gitSync: { rows: GitRow[]; checks: Check[] } | null = null;
  let reader: ReaderResults | null = null;
  let aiDocs: AiDocsResults | null = null;
  let contention: { rows: ContentionRow[]; checks: Check[] } | null = null;
  try {
    for (const kind of ceilingKinds) {
      const ceiling = await startChild<CeilingInfo>(script('ceiling-server.ts'), [kind]);
      ceilings.set(kind, ceiling);
      console.log(`ceiling ${kind}: ${ceiling.info.bytes} bytes a response`);
      if (!wanted.some((id) => ceilingOf(id) === kind)) await run(ceiling, ceilingCase(kind, config));
    }
    for (const { members, writes } of datasets) {
      const ids = caseIds(members, writes).filter((id) => wanted.includes(id));
      const pgIds = postgresCaseIds(members, writes).filter((id) => wanted.includes(id));
      if (ids.length === 0 && pgIds.length === 0) continue;
      const size = sizeLabel(members);
      const path = join(dataDir, `members-${size}`, 'data.json');
      process.stdout.write(`seeding ${members.toLocaleString('en-US')} members... `);
      const seeder = await startChild<SeededData>(script('seed-child.ts'), [path, String(members)]);
      await seeder.stop();
      const seeded = seeder.info;
      const { token: _token, memberIds: _ids, ...kept } = seeded;
      const dataset: (typeof seeds)[string] = (seeds[size] = { ...kept, servers: {} });
      console.log(`${(seeded.seedMs / 1000).toFixed(1)} s, ${(seeded.dataBytes / 1e6).toFixed(1)} MB on disk`);
      /** Serves the data with one kind of server and measures its cases. */
      const serveCases = async (data: string, server: ServerKind, selectedIds: string[]) => {
        const label = server.store === 'json' ? 'json' : `pg${server.processes}`;
        // One folder per server: node names each thread's profile itself (tsx's loader runs a thread too).
        const profile = config.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(resultsDir, 'profiles', `server-${label}-${size}-${Date.now()}`)}`] : [];
        const log = config.bare ? '-' : join(dataDir, `requests-${label}-${size}.log`);
        const child = await startChild<ServerInfo>(serverScript, [data, String(server.processes), log], [...nodeOptions, ...profile]);
        dataset.servers[label] = { openMs: child.info.openMs, heapMb: child.info.heapMb };
        console.log(`${label}: ${server.processes} server process${server.processes > 1 ? 'es' : ''}, opened the data in ${child.info.openMs} ms`);
        try {
          for (const item of platformCases(child.info.url, seeded, config, writes, server)) {
            if (!selectedIds.includes(item.id)) continue;
            await run(child, item, { server: ceilings.get(item.ceiling)!, item: ceilingCase(item.ceiling, config) });
          }
        } finally {
          await child.stop();
        }
      };
      // Copied before the JSON cases write to the data file: both stores hold the same records.
      const copy = pgIds.length > 0 ? await copyToPostgres(config.postgres, path) : null;
      try {
        if (copy) {
          dataset.postgresCopyMs = copy.copyMs;
          console.log(`copied ${copy.records.toLocaleString('en-US')} records into PostgreSQL (${copy.url.replace(/^.*\?/, '')}) in ${(copy.copyMs / 1000).toFixed(1)} s`);
        }
        if (ids.length > 0) await serveCases(path, JSON_SERVER, ids);
        for (const server of POSTGRES_SERVERS) {
          const own = caseIds(members, writes, server).filter((id) => pgIds.includes(id));
          if (own.length > 0) await serveCases(copy!.url, server, own);
        }
      } finally {
        await copy?.drop();
      }
    }
    if (storeIds.length > 0) store = await runStoreCase(config, dataDir, storeIds, console.log, config.profile ? join(resultsDir, 'profiles') : null);
    if (contentIds.length > 0) {
      console.log(`content case: ${contentSettings.rounds} timed rounds a row, in this process`);
      content = await runContentCase(contentSettings, contentIds, console.log);
    }
    if (heavyIds.length > 0) heavy = await runHeavyCase(config, dataDir, heavyIds, console.log);
    if (markdownLoopIds.length > 0) markdownLoop = await runMarkdownLoopCase(config, dataDir, markdownLoopIds, console.log);
    if (gitIds.length > 0) gitSync = await runGitCase(config, dataDir, gitIds, console.log);
    if (readerIds.length > 0) reader = await runReaderCase(config, console.log);
    if (aiDocsIds.length > 0) aiDocs = await runAiDocsCase(config, console.log);
    if (contentionIds.length > 0) {
      console.log(`contention case: 1 writer, then 16, ${config.duration}s each`);
      contention = await runContentionCase(config, dataDir, serverScript, nodeOptions, contentionIds, console.log);
    }
  } finally {
    await Promise.all([...ceilings.values()].map((ceiling) => ceiling.stop()));
    if (process.env.BENCH_KEEP_DATA !== '1') await rm(dataDir, { recursive: true, force: true });
  }

  const rows = buildRows(measured, config.small, config.large);
  const checks = [...rows.flatMap((row) => row.checks), ...(store?.checks ?? []), ...(content?.checks ?? []), ...(heavy?.checks ?? []), ...(markdownLoop?.checks ?? []), ...(gitSync?.checks ?? []), ...(reader?.checks ?? []), ...(aiDocs?.checks ?? []), ...(contention?.checks ?? [])];
  if (rows.length > 0) console.log(`\n${renderReport(rows)}`);
  // Another process busy for a fifth of a core or more while a case ran took CPU from the bench or the server.
  const disturbed = measured.filter(({ measurement: { cpu } }) => cpu && cpu.others + cpu.steal >= 0.2);
  if (disturbed.length > 0) {
    const list = disturbed.map(({ case: item, measurement: { cpu } }) => `${item.id} (${(cpu!.others + cpu!.steal).toFixed(2)} cores)`).join(', ');
    console.log(`\nNOTE: other processes used CPU during ${list}; those figures are low by up to that share. Rerun on a quiet machine.`);
  }
  if (store) console.log(`\n${renderStoreReport(store.rows)}`);
  if (content) console.log(`\n${renderContentReport(content.rows)}`);
  if (heavy) console.log(`\n${renderHeavyReport(heavy.rows)}`);
  if (markdownLoop) console.log(`\n${renderMarkdownLoopReport(markdownLoop.rows)}`);
  if (gitSync) console.log(`\n${renderGitReport(gitSync.rows)}`);
  if (reader) console.log(`\n${renderReaderReport(reader)}`);
  if (aiDocs) console.log(`\n${renderAiDocsReport(aiDocs)}`);
  const resultsPath = join(resultsDir, 'latest.json');
  await writeResults(resultsPath, {
    date: new Date().toISOString(),
    machine,
    config,
    targets: TARGETS,
    datasets: seeds,
    postgres: postgresIds.length === 0 ? null : { url: config.postgres, skipped: postgresSkipped ?? null },
    rows: rows.map((row) => ({ ...row, result: outcome(row) })),
    runs: measured.map(({ case: item, measurement, loadAverage, ceiling }) => ({
      id: item.id,
      kind: item.kind,
      members: item.members,
      server: item.server,
      connections: item.connections,
      request: { method: item.request.method, path: item.request.path, body: item.request.body },
      expectedStatus: item.expectedStatus,
      ceiling: item.ceiling,
      pairedCeilingRequestsPerSecond: ceiling?.measurement.requestsPerSecond ?? null,
      loadAverage,
      ...measurement,
    })),
    store: store && { seconds: store.seconds, rows: store.rows.map((row) => ({ ...row, result: outcome(row) })) },
    content: content && { seconds: content.seconds, seeded: content.seeded, rows: content.rows.map((row) => ({ ...row, result: outcome(row) })) },
    heavy: heavy && { seconds: heavy.seconds, seedSeconds: heavy.seedSeconds, rows: heavy.rows.map((row) => ({ ...row, result: outcome(row) })) },
    markdownLoop: markdownLoop && { rows: markdownLoop.rows.map((row) => ({ ...row, result: outcome(row) })) },
    gitSync: gitSync && { rows: gitSync.rows.map((row) => ({ ...row, result: outcome(row) })) },
    reader: reader && { pages: reader.pages, rows: reader.rows },
    aiDocs: aiDocs && { pages: aiDocs.pages, rows: aiDocs.rows, llms: aiDocs.llms },
    contention: contention && { rows: contention.rows },
    checks,
  });
  const missed = checks.filter((check) => check.pass === false).length;
  const invalid = [...rows, ...(store?.rows ?? []), ...(content?.rows ?? []), ...(heavy?.rows ?? []), ...(markdownLoop?.rows ?? []), ...(gitSync?.rows ?? []), ...(reader?.rows ?? []), ...(aiDocs?.rows ?? [])].filter((row) => !row.valid).length;
  console.log(`\n${checks.filter((check) => check.pass).length} of ${checks.length} targets met${missed ? `, ${missed} MISSED` : ''}${invalid ? `, ${invalid} cases INVALID` : ''}. Results: ${resultsPath}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
