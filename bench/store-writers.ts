import type { Store } from '../src/store/types.js';
import { startCpuCount, type CpuUsage } from './cpu-usage.js';
import { meanUsage, percentile } from './load.js';
import type { CompactionWatch } from './store-compactions.js';
import { MEMBERS, MEMBERS_INDEX, ORGANIZATION_ID, touchedMember, type BenchMemberRecord } from './store-records.js';

/** The latency of a set of writes. */
export interface LatencyFigures {
  writes: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** What the writers measured over all their measured windows. */
export interface WriteFigures extends LatencyFigures {
  /** The measured seconds, and the writes begun in them per second. */
  seconds: number;
  writesPerSecond: number;
  /** The writes that began while a compaction was running, and those that began outside one. */
  duringCompaction: LatencyFigures;
  outsideCompaction: LatencyFigures;
  /** Compactions that started in a measured window, and how long each took (ms). */
  compactions: number;
  compactionMs: number[];
  /** The CPU used while the writers were measured (mean over the windows): `server` is the writers' process, `bench` its parent. */
  cpu: CpuUsage | null;
  /** Why the figures cannot be trusted: failed writes, or acknowledged writes the store does not hold. */
  problems: string[];
}

/**
 * Concurrent writers against an open store of members (`ids`), run in windows: each window starts
 * `writers` writers, each awaiting its write before starting the next, and stops them after its
 * time. A write is one store.write transaction that reads a member and puts a new version of it
 * (another role, a later lastSeenAt), as PATCH /members/{id} does, so the store keeps its number of
 * records. A write's latency runs from the call to the promise resolving, which the JSON-file store
 * does only once the write is fsynced. A write counts in the window it began in, and is classified by
 * whether a compaction was running when it began.
 */
export class WriteLoad {
  private readonly all: number[] = [];
  private readonly during: number[] = [];
  private readonly outside: number[] = [];
  private readonly acknowledged = new Map<string, number>();
  private readonly failures: string[] = [];
  private failed = 0;
  private next = 0;
  private stamp = 0;
  private seconds = 0;
  private compactionMs: number[] = [];
  private compactions = 0;
  private readonly usages: (CpuUsage | null)[] = [];

  constructor(
    private readonly store: Store,
    private readonly ids: readonly string[],
    private readonly watch: CompactionWatch,
    private readonly writers: number,
  ) {}

  /**
   * Writes for `warmup` seconds, not counted, then for `seconds`, counted; then waits until the writes
   * in flight and any compaction are done, so that nothing of this window runs into the next one
   * (which may be another process's).
   */
  async run(warmup: number, seconds: number): Promise<void> {
    let measuring = false;
    let stopping = false;
    const writer = async () => {
      while (!stopping) await this.writeOne(measuring);
    };
    const running = Array.from({ length: this.writers }, writer);
    await sleep(warmup * 1000);
    const stopCounting = await startCpuCount(process.pid, process.ppid);
    measuring = true;
    const begin = performance.now();
    const firstSpan = this.watch.spans.length;
    await sleep(seconds * 1000);
    measuring = false;
    const end = performance.now();
    this.usages.push(await stopCounting());
    stopping = true;
    await Promise.all(running);
    await this.watch.idle();
    this.seconds += (end - begin) / 1000;
    const spans = this.watch.spans.slice(firstSpan).filter((span) => span.start < end);
    this.compactions += spans.length;
    this.compactionMs.push(...spans.map((span) => span.end! - span.start));
  }

  /** The figures of every window so far, once it has checked that the store holds every acknowledged write. */
  async figures(): Promise<WriteFigures> {
    const problems = this.failed > 0 ? [`${this.failed} writes failed (${this.failures.join('; ')})`] : [];
    problems.push(...(await this.verify()));
    const figures = latencyOf(this.all);
    return {
      ...figures,
      seconds: this.seconds,
      writesPerSecond: figures.writes / this.seconds,
      duringCompaction: latencyOf(this.during),
      outsideCompaction: latencyOf(this.outside),
      compactions: this.compactions,
      compactionMs: this.compactionMs,
      cpu: meanUsage(this.usages),
      problems,
    };
  }

  private async writeOne(counted: boolean): Promise<void> {
    const id = this.ids[this.next++ % this.ids.length];
    const stamp = ++this.stamp;
    const compacting = this.watch.running;
    const started = performance.now();
    try {
      await this.store.write(async (tx) => {
        const current = (await tx.get(MEMBERS, id)) as BenchMemberRecord | undefined;
        if (!current) throw new Error(`member ${id} is missing`);
        await tx.put(MEMBERS, touchedMember(current, stamp, new Date()));
      });
    } catch (error) {
      this.failed++;
      if (this.failures.length < 3) this.failures.push((error as Error).message);
      return;
    }
    const ms = performance.now() - started;
    this.acknowledged.set(id, Math.max(this.acknowledged.get(id) ?? 0, stamp));
    if (!counted) return;
    this.all.push(ms);
    (compacting ? this.during : this.outside).push(ms);
  }

  /** Checks that the writes took effect: every member is still there, each at least at its last acknowledged version. */
  private verify(): Promise<string[]> {
    return this.store.read(async (tx) => {
      const problems: string[] = [];
      const { count } = await tx.list(MEMBERS, { index: MEMBERS_INDEX, value: ORGANIZATION_ID, limit: 0 });
      if (count !== this.ids.length) problems.push(`the store holds ${count} members, not ${this.ids.length}`);
      let lost = 0;
      for (const [id, stamp] of this.acknowledged) {
        const record = (await tx.get(MEMBERS, id)) as BenchMemberRecord | undefined;
        if (!record || record.stamp < stamp) lost++;
      }
      if (lost > 0) problems.push(`${lost} members do not hold their last acknowledged write`);
      return problems;
    });
  }
}

function latencyOf(values: number[]): LatencyFigures {
  const sorted = Float64Array.from(values).sort();
  return {
    writes: sorted.length,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    maxMs: sorted.length === 0 ? NaN : sorted[sorted.length - 1],
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
