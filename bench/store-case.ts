import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CompactionPolicy } from '../src/store/json-file.js';
import { sizeLabel } from './cases.js';
import { startChild, type Child } from './child.js';
import type { BenchConfig } from './config.js';
import type { CpuUsage } from './cpu-usage.js';
import type { MemoryFigures, OpenedStore, StoreAnswer, StoreJob, StoreWork } from './store-child.js';
import type { StoreFiles } from './store-seed.js';
import { MIN_CLASS_WRITES, checkStoreTargets, type StoreFigures } from './store-targets.js';
import type { LatencyFigures, WriteFigures } from './store-writers.js';
import type { Check } from './targets.js';

/** A row of the store case: what was measured, on which files, and its checked targets. */
export interface StoreRow extends StoreFigures {
  /** The files the store was opened from. */
  files: StoreFiles;
  writes: WriteFigures | null;
  memory: MemoryFigures | null;
  /** The CPU time of the open (see OpenedStore). */
  openCpuMs: number | null;
  /** Journal entries the store replayed on open (from its log); null when it said nothing. */
  replayed: number | null;
  /** The CPU used while it was measured (see cpu-usage.ts): `server` is the store's process. */
  cpu: CpuUsage | null;
  checks: Check[];
  problems: string[];
}

/** The store case's rows and their checks. */
export interface StoreResults {
  rows: StoreRow[];
  checks: Check[];
  /** Wall time of the whole store case. */
  seconds: number;
}

/**
 * The compaction policy of the compaction row: the default 8 MiB floor without the ratio (by default a
 * 100k store, ~48 MB, compacts only past ~24 MB of journal), so that at ~20,000 writes/s the journal
 * folds several times in the measured window and writes fall both during and outside compactions.
 */
const FORCED_COMPACTIONS: CompactionPolicy = { minBytes: 8 * 2 ** 20, ratio: 0, maxEntries: Number.MAX_SAFE_INTEGER };

const childScript = join(dirname(fileURLToPath(import.meta.url)), 'store-child.ts');

/** The store sizes written to: the small and large data sets and the one halfway between (geometrically): 1k, 10k, 100k. */
function writeSizes(config: BenchConfig): number[] {
  return [...new Set([config.small, Math.round(Math.sqrt(config.small * config.large)), config.large])].sort((a, b) => a - b);
}

/** The ids of the store case's rows, without running anything, so that BENCH_CASES can select them. */
export function storeCaseIds(config: BenchConfig): string[] {
  const large = sizeLabel(config.large);
  return [...writeSizes(config).map((n) => `store-writes-${sizeLabel(n)}`), `store-compaction-${large}`, `store-open-snapshot-${large}`, `store-open-journal-${large}`];
}

/**
 * The store case: the JSON-file store on its own, in child processes, over real files in `dataDir`.
 * - store-writes-<n>: durable writes/s, p50 and p99 of 50 concurrent writers into a store of n members
 *   (1k, 10k, 100k), each size in a process of its own, measured in slices that alternate between the
 *   sizes (as measurePair does for the HTTP cases: the machine's speed drifts from one window to the
 *   next, and the target is a ratio between sizes), with the store's default compaction policy;
 * - store-compaction-<large>: the same at the large size with compactions forced (FORCED_COMPACTIONS),
 *   each write classified by whether a compaction was running when it began;
 * - store-open-snapshot-<large> and store-open-journal-<large>: opening a large store whose data is
 *   all in the snapshot, and one with half as many journal entries to replay after it; and the memory
 *   (RSS, heap) of the process then holding it.
 * The files are written directly in the store's format (see store-seed.ts). `print` hears a line per row.
 */
export async function runStoreCase(config: BenchConfig, dataDir: string, ids: readonly string[], print: (line: string) => void, profileDir: string | null): Promise<StoreResults> {
  const started = performance.now();
  const wanted = new Set(ids);
  const large = config.large;
  const childOptions = (id: string) => ['--expose-gc', ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, `${id}-${Date.now()}`)}`] : [])];
  const start = (id: string, job: StoreJob) => startChild<OpenedStore>(childScript, [JSON.stringify(job)], childOptions(id));

  const plans = [
    ...writeSizes(config).map((records) => ({ id: `store-writes-${sizeLabel(records)}`, kind: 'store-writes' as const, records, journalEntries: 0 })),
    { id: `store-compaction-${sizeLabel(large)}`, kind: 'store-compaction' as const, records: large, journalEntries: 0 },
    { id: `store-open-snapshot-${sizeLabel(large)}`, kind: 'store-open' as const, records: large, journalEntries: 0 },
    { id: `store-open-journal-${sizeLabel(large)}`, kind: 'store-open' as const, records: large, journalEntries: Math.floor(large / 2) },
  ].filter((plan) => wanted.has(plan.id));
  if (plans.length === 0) return { rows: [], checks: [], seconds: 0 };

  process.stdout.write(`store case: writing ${plans.length} stores... `);
  const seeder = await startChild<StoreFiles[]>(childScript, [JSON.stringify({ kind: 'seed', files: plans.map((plan) => ({ path: join(dataDir, 'store', plan.id, 'data.json'), records: plan.records, journalEntries: plan.journalEntries })) } satisfies StoreJob)]);
  await seeder.stop();
  const files = new Map(plans.map((plan, at) => [plan.id, seeder.info[at]]));
  print(`${((performance.now() - started) / 1000).toFixed(1)} s`);

  const rows: StoreRow[] = [];
  const row = (plan: (typeof plans)[number], opened: OpenedStore, writes: WriteFigures | null, memory: MemoryFigures) => {
    const problems = [...(writes?.problems ?? [])];
    if (opened.records !== plan.records) problems.push(`the store opened with ${opened.records} members, not ${plan.records}`);
    if (opened.maxStamp !== plan.journalEntries) problems.push(`the last journal entry was not replayed (highest stamp ${opened.maxStamp}, not ${plan.journalEntries})`);
    const replayed = opened.log.map((line) => /replayed (\d+) journal entries/.exec(line)?.[1]).find(Boolean);
    const made: StoreRow = {
      id: plan.id,
      kind: plan.kind,
      records: plan.records,
      files: files.get(plan.id)!,
      writesPerSecond: writes?.writesPerSecond ?? null,
      p99DuringCompactionMs: p99Of(writes?.duringCompaction),
      p99OutsideCompactionMs: p99Of(writes?.outsideCompaction),
      openMs: opened.openMs,
      openCpuMs: opened.openCpuMs,
      valid: problems.length === 0,
      writes,
      memory,
      replayed: replayed === undefined ? null : Number(replayed),
      cpu: writes ? writes.cpu : opened.cpu,
      checks: [],
      problems,
    };
    rows.push(made);
    print(describeRow(made));
  };

  // The write rows: every size's process open at once, and slices of writes alternating between them.
  const writePlans = plans.filter((plan) => plan.kind === 'store-writes');
  const writers: { plan: (typeof plans)[number]; child: Child<OpenedStore> }[] = [];
  try {
    for (const plan of writePlans) writers.push({ plan, child: await start(plan.id, { kind: 'writes', path: files.get(plan.id)!.path, writers: config.writeConnections }) });
    const sliceSeconds = config.duration / config.slices;
    for (let slice = 0; slice < config.slices; slice++) {
      for (const { child } of writers) await work(child, { type: 'run', warmup: slice === 0 ? config.warmup : 0, seconds: sliceSeconds });
    }
    for (const { plan, child } of writers) {
      const { writes, memory } = (await work(child, { type: 'finish' }))!;
      row(plan, child.info, writes, memory);
    }
  } finally {
    await Promise.all(writers.map(({ child }) => child.stop()));
  }

  for (const plan of plans.filter((each) => each.kind === 'store-compaction')) {
    const child = await start(plan.id, { kind: 'writes', path: files.get(plan.id)!.path, writers: config.writeConnections, compaction: FORCED_COMPACTIONS });
    try {
      await work(child, { type: 'run', warmup: config.warmup, seconds: config.duration });
      const { writes, memory } = (await work(child, { type: 'finish' }))!;
      row(plan, child.info, writes, memory);
    } finally {
      await child.stop();
    }
  }

  for (const plan of plans.filter((each) => each.kind === 'store-open')) {
    const child = await start(plan.id, { kind: 'open', path: files.get(plan.id)!.path });
    await child.stop();
    row(plan, child.info, null, child.info.memory);
  }

  const checks = checkStoreTargets(rows, config.small, large);
  for (const each of rows) each.checks = checks.filter((check) => check.caseId === each.id);
  return { rows, checks, seconds: (performance.now() - started) / 1000 };
}

/** The p99 of a class of writes, or null when too few writes make it. */
function p99Of(figures: LatencyFigures | undefined): number | null {
  return figures && figures.writes >= MIN_CLASS_WRITES ? figures.p99Ms : null;
}

/** Sends a `writes` child work and returns its figures (null for `run`); throws what failed in it. */
async function work(child: Child<OpenedStore>, message: StoreWork) {
  const answer = await child.request<StoreAnswer>(message);
  if (!answer.ok) throw new Error(`store child failed: ${answer.error}`);
  return answer.figures;
}

const mb = (value: number) => `${value.toFixed(0)} MB`;

/** One printed line of a row, as it is measured. */
function describeRow(row: StoreRow): string {
  const parts = [`  ${row.id.padEnd(24)}`];
  const { writes, memory } = row;
  if (writes) {
    parts.push(`${Math.round(writes.writesPerSecond).toString().padStart(6)} writes/s  p50 ${writes.p50Ms.toFixed(2).padStart(5)} ms  p99 ${writes.p99Ms.toFixed(2).padStart(6)} ms  ${writes.compactions} compactions`);
    if (row.kind === 'store-compaction') parts.push(`p99 during ${writes.duringCompaction.p99Ms?.toFixed(2)} ms (${writes.duringCompaction.writes} writes), outside ${writes.outsideCompaction.p99Ms?.toFixed(2)} ms (${writes.outsideCompaction.writes})`);
  } else {
    parts.push(`open ${row.openMs?.toFixed(0)} ms${row.replayed ? ` (${row.replayed} journal entries replayed)` : ''}`);
  }
  if (memory) parts.push(`RSS ${mb(memory.rssMb)}, heap ${mb(memory.heapUsedMb)}`);
  if (row.problems.length > 0) parts.push(`INVALID: ${row.problems.join('; ')}`);
  return parts.join('  ');
}
