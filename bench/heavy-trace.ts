/**
 * Lays the slow light requests of a traced heavy-work run (BENCH_TRACE=1) over the server's main-thread CPU
 * profile, to see what the main thread was doing while each one waited:
 * `npx tsx bench/heavy-trace.ts <profile folder> [threshold: a multiple of the idle p99, default 2]`.
 * For each slow request it prints the main thread's busy stretches (samples other than `(idle)`, gaps under
 * 0.5 ms joined) that overlap its wait, each with its length and the frames that took most of it, by self and
 * by total time; then, per phase, every stretch of more than 3 ms of work (its samples' time, a gap between
 * two counting at most 1 ms, so that time off the CPU is left out) and its garbage collections (gc.json). Both
 * processes' clocks are the machine's monotonic clock, so the times line up.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readMainProfile, type ProfileNode } from './cpu-profile.js';

interface Trace {
  idleP99Ms: number;
  phases: { phase: string; timeline: [number, number][] }[];
}

const [folder, multiple = '2'] = process.argv.slice(2);
const trace = JSON.parse(readFileSync(join(folder, 'trace.json'), 'utf8')) as Trace;
const profile = readMainProfile(folder);

// The main thread's collections: [start µs, ms, kind], kind as perf_hooks numbers it (1 minor, 2 major, 4 incremental, 8 weak callbacks).
const collections = JSON.parse(readFileSync(join(folder, 'gc.json'), 'utf8')) as [number, number, number][];
const KINDS: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weak callbacks' };
const collectionsIn = (from: number, to: number, atLeastMs: number) =>
  collections
    .filter(([start, ms]) => start + ms * 1000 >= from && start <= to && ms >= atLeastMs)
    .map(([start, ms, kind]) => `${KINDS[kind] ?? kind} ${ms.toFixed(1)} ms at ${((start - from) / 1000).toFixed(1)}`);

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const label = (node: ProfileNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'}${url ? ` ${basename(url)}:${lineNumber + 1}` : ''}`;
};

// Sample times (µs, monotonic) and nodes.
const times: number[] = [];
let at = profile.startTime;
for (const delta of profile.timeDeltas) times.push((at += delta));
const isIdle = (index: number) => byId.get(profile.samples[index])!.callFrame.functionName === '(idle)';

/** Busy stretches: runs of non-idle samples, joined across gaps under 0.5 ms. */
const stretches: { from: number; to: number; first: number; last: number }[] = [];
for (let index = 0; index < times.length; index++) {
  if (isIdle(index)) continue;
  const previous = stretches[stretches.length - 1];
  if (previous && times[index] - previous.to < 500) {
    previous.to = times[index];
    previous.last = index;
  } else stretches.push({ from: times[index - 1] ?? times[index], to: times[index], first: index, last: index });
}

/** The frames that took most of a stretch: by self time, and by total time (each frame once per sample). */
function describe(first: number, last: number): string {
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let longestGap = 0;
  for (let index = first; index <= last; index++) {
    const weight = (times[index] - (times[index - 1] ?? times[index])) / 1000;
    longestGap = Math.max(longestGap, weight);
    const leaf = byId.get(profile.samples[index])!;
    self.set(label(leaf), (self.get(label(leaf)) ?? 0) + weight);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const name = label(byId.get(id)!);
      if (seen.has(name) || name.startsWith('(root)')) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + weight);
    }
  }
  const top = (map: Map<string, number>, count: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, ms]) => `${ms.toFixed(1)} ${name}`)
      .join(' | ');
  // A sample lands only while the thread runs: a long gap between two is time the thread was off the CPU
  // (or in code that cannot be interrupted), counted to the sample after it.
  return `      ${last - first + 1} samples, longest gap ${longestGap.toFixed(1)} ms\n      self: ${top(self, 5)}\n      total: ${top(total, 8)}`;
}

const threshold = trace.idleP99Ms * Number(multiple);
console.log(`${basename(folder)}: idle p99 ${trace.idleP99Ms.toFixed(2)} ms; requests over ${threshold.toFixed(2)} ms`);
for (const { phase, timeline } of trace.phases) {
  const slow = timeline.filter(([, ms]) => ms > threshold);
  console.log(`\n${phase}: ${slow.length} of ${timeline.length} over ${threshold.toFixed(2)} ms`);
  for (const [sent, ms] of slow) {
    const end = sent + ms * 1000;
    const overlapping = stretches.filter((stretch) => stretch.to >= sent - 1000 && stretch.from <= end);
    // The longest time without a sample, busy or idle: the thread waited for a core (or the machine stalled).
    let gap = 0;
    for (let index = 1; index < times.length; index++) if (times[index] >= sent && times[index - 1] <= end) gap = Math.max(gap, times[index] - times[index - 1]);
    console.log(
      `  ${(sent / 1e6).toFixed(3)} s: ${ms.toFixed(1)} ms; main thread busy ${overlapping.map((s) => ((s.to - s.from) / 1000).toFixed(1)).join(', ') || 'never'} ms, longest gap between samples ${(gap / 1000).toFixed(1)} ms`,
    );
    const pauses = collectionsIn(sent, end, 1);
    if (pauses.length > 0) console.log(`    collections: ${pauses.join(', ')}`);
    for (const stretch of overlapping.filter((s) => s.to - s.from >= 2000)) {
      console.log(`    ${((stretch.from - sent) / 1000).toFixed(1)} ms after the send, ${((stretch.to - stretch.from) / 1000).toFixed(1)} ms:`);
      console.log(describe(stretch.first, stretch.last));
    }
  }
}

/** The time a stretch worked: its samples' time, each gap counted up to 1 ms. */
const workOf = (first: number, last: number) => {
  let work = 0;
  for (let index = first + 1; index <= last; index++) work += Math.min(1000, times[index] - times[index - 1]);
  return work / 1000;
};
console.log('\nmain-thread stretches of more than 3 ms of work, by phase');
for (const { phase, timeline } of trace.phases) {
  if (timeline.length === 0) continue;
  const from = timeline[0][0];
  const to = Math.max(...timeline.map(([sent, ms]) => sent + ms * 1000));
  const heavy = stretches.filter((stretch) => stretch.from >= from && stretch.to <= to && workOf(stretch.first, stretch.last) > 3);
  const pauses = collections.filter(([start]) => start >= from && start <= to);
  const long = pauses.filter(([, ms]) => ms > 3);
  console.log(`\n${phase}: ${heavy.length} stretches; ${pauses.length} collections (${pauses.reduce((sum, [, ms]) => sum + ms, 0).toFixed(0)} ms), ${long.length} over 3 ms: ${long.map(([, ms, kind]) => `${KINDS[kind] ?? kind} ${ms.toFixed(1)}`).join(', ')}`);
  for (const stretch of heavy) {
    console.log(`  ${(stretch.from / 1e6).toFixed(3)} s: ${workOf(stretch.first, stretch.last).toFixed(1)} ms of work in ${((stretch.to - stretch.from) / 1000).toFixed(1)} ms`);
    console.log(describe(stretch.first, stretch.last));
  }
}
