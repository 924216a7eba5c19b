/**
 * Child process of the store case (`store-child.ts <job as JSON>`), run with --expose-gc:
 * - `seed`: writes the files of stores (see store-seed.ts) and reports them;
 * - `open`: opens a store, timing it, and reports what it holds and the memory the process then holds;
 * - `writes`: opens a store, then takes work from the parent: `run` a window of concurrent writers
 *   (see store-writers.ts), and `finish` with the figures of every window and the memory.
 * The store is the JSON-file store over a real file, so each write is fsynced before it resolves.
 * Each store is held by a process of its own: the memory figures are those of a process holding only
 * that store, and no store's garbage or compactions slow another's writes.
 */
import { createJsonFileStore, type CompactionPolicy } from '../src/store/json-file.js';
import type { Store } from '../src/store/types.js';
import { runAsChild } from './child.js';
import { startCpuCount, type CpuUsage } from './cpu-usage.js';
import { CompactionWatch } from './store-compactions.js';
import { MEMBERS, MEMBERS_INDEX, ORGANIZATION_ID, type BenchMemberRecord } from './store-records.js';
import { writeStoreFiles, type StoreFiles, type StorePlan } from './store-seed.js';
import { WriteLoad, type WriteFigures } from './store-writers.js';

/** What the parent asks a child to do. */
export type StoreJob =
  | { kind: 'seed'; files: StorePlan[] }
  | { kind: 'open'; path: string }
  | { kind: 'writes'; path: string; writers: number; compaction?: CompactionPolicy };

/** Work a `writes` child takes once ready. */
export type StoreWork = { type: 'run'; warmup: number; seconds: number } | { type: 'finish' };

/** What a `writes` child measured, answering `finish`. */
export interface WritesDone {
  writes: WriteFigures;
  memory: MemoryFigures;
}

/** A `writes` child's answer to `run` (null) or `finish`, or what went wrong. */
export type StoreAnswer = { ok: true; figures: WritesDone | null } | { ok: false; error: string };

/** Memory of the process, in MB (after a full garbage collection). */
export interface MemoryFigures {
  rssMb: number;
  heapUsedMb: number;
  /** The same before the store was opened: what the process holds without it. */
  baseRssMb: number;
  baseHeapUsedMb: number;
}

/** What an `open` or `writes` child reports once it has opened its store. */
export interface OpenedStore {
  /** How long createJsonFileStore took: reading and parsing the snapshot, replaying the journal. */
  openMs: number;
  /** The CPU time the process spent meanwhile (all its threads): what the open costs whatever else the machine runs. */
  openCpuMs: number;
  /** Members the store held once open, and the highest write stamp among them (the journal's last write). */
  records: number;
  maxStamp: number;
  /** The lines the store logged while opening (e.g. how many journal entries it replayed). */
  log: string[];
  /** Measured once the store is open and no compaction runs. */
  memory: MemoryFigures;
  /** The CPU used while it opened: `server` is this process; `others` took CPU from it. */
  cpu: CpuUsage | null;
}

const MB = 2 ** 20;

function memoryNow(): { rssMb: number; heapUsedMb: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rssMb: rss / MB, heapUsedMb: heapUsed / MB };
}

/**
 * The ids of the store's members, in the order of the members index (which this builds, as the API's
 * first list does), and the highest write stamp among them.
 */
async function survey(store: Store): Promise<{ ids: string[]; maxStamp: number }> {
  const { items } = await store.read((tx) => tx.list(MEMBERS, { index: MEMBERS_INDEX, value: ORGANIZATION_ID }));
  const maxStamp = (items as BenchMemberRecord[]).reduce((max, record) => Math.max(max, record.stamp), 0);
  return { ids: items.map((record) => record.id), maxStamp };
}

async function openStore(job: Extract<StoreJob, { kind: 'open' | 'writes' }>): Promise<{ info: OpenedStore; stop: () => Promise<void> }> {
  const base = memoryNow();
  const log: string[] = [];
  const watch = new CompactionWatch();
  const stopCounting = await startCpuCount(process.pid, process.ppid);
  const started = performance.now();
  const startedCpu = process.cpuUsage();
  const store = await createJsonFileStore({
    path: job.path,
    compaction: job.kind === 'writes' ? job.compaction : undefined,
    log: (line) => log.push(line),
    onCompactionStep: watch.onStep,
  });
  const openMs = performance.now() - started;
  const { user, system } = process.cpuUsage(startedCpu);
  const cpu = await stopCounting();
  try {
    const { ids, maxStamp } = await survey(store);
    // A compaction starts on open when the journal is past the threshold: measure the store at rest.
    await watch.idle();
    const memory = () => ({ ...memoryNow(), baseRssMb: base.rssMb, baseHeapUsedMb: base.heapUsedMb });
    if (job.kind === 'writes') takeWork(new WriteLoad(store, ids, watch, job.writers), memory);
    return { info: { openMs, openCpuMs: (user + system) / 1000, records: ids.length, maxStamp, log, memory: memory(), cpu }, stop: () => store.close() };
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
}

/** Answers the parent's work messages, one at a time. */
function takeWork(load: WriteLoad, memory: () => MemoryFigures): void {
  process.on('message', (work: StoreWork) => {
    const done =
      work.type === 'run' ? load.run(work.warmup, work.seconds).then(() => null) : load.figures().then((writes): WritesDone => ({ writes, memory: memory() }));
    done.then(
      (figures) => process.send!({ ok: true, figures } satisfies StoreAnswer),
      (error) => process.send!({ ok: false, error: (error as Error).stack ?? String(error) } satisfies StoreAnswer),
    );
  });
}

runAsChild<StoreFiles[] | OpenedStore>(async () => {
  const job = JSON.parse(process.argv[2]) as StoreJob;
  if (job.kind === 'seed') return { info: await writeStoreFiles(job.files) };
  return openStore(job);
});
