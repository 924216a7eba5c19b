import { readMainProfile } from './cpu-profile.js';

/**
 * The busy stretches of a server's main thread, from the CPU profiles a case writes with BENCH_PROFILE=1
 * (thread 0's file in the folder): samples joined while the gap between two busy ones is under `--gap` ms
 * (`(idle)` and `(program)` are idle), each stretch of at least `min` ms listed with its top frames. A
 * measure that does not depend on the machine's load, unlike the light requests' waits: what the server
 * itself held the event loop for. Work sliced with pauses of a timer's millisecond still reads as one
 * stretch at the default gap of 5 ms; `--gap 1` tells its slices apart.
 *
 *   npx tsx bench/busy-stretches.ts bench/results/profiles/markdown-loop-<time> [min ms, 50] [--gap 5] [--after 3]
 *
 * `--after` leaves out the stretches that start in the first seconds (the server loading its code).
 */

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [value] = args.splice(at, 2).slice(1);
  return Number(value);
};
const gapMs = option('--gap', 5);
const afterS = option('--after', 3);
const [folder, minMs = '50'] = args;
if (!folder) throw new Error('usage: busy-stretches.ts <profile folder> [min ms] [--gap ms] [--after s]');
const profile = readMainProfile(folder);
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const frameOf = (id: number) => {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  return `${functionName || '(anon)'} ${url.split('/').slice(-2).join('/')}:${lineNumber}`;
};
const stackOf = (id: number) => {
  const stack: string[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(frameOf(at));
  return stack;
};
const idle = (id: number) => ['(idle)', '(program)'].includes(byId.get(id)!.callFrame.functionName);

interface Stretch {
  start: number;
  last: number;
  ids: number[];
}
const stretches: Stretch[] = [];
let current: Stretch | undefined;
let time = profile.startTime;
profile.samples.forEach((id, i) => {
  time += profile.timeDeltas[i];
  if (current && time - current.last > gapMs * 1000) {
    stretches.push(current);
    current = undefined;
  }
  if (idle(id)) return;
  current ??= { start: time, last: time, ids: [] };
  current.last = time;
  current.ids.push(id);
});
if (current) stretches.push(current);

const long = stretches.filter((stretch) => (stretch.last - stretch.start) / 1000 >= Number(minMs) && (stretch.start - profile.startTime) / 1e6 >= afterS);
console.log(`${long.length} stretches >= ${minMs} ms (gap ${gapMs} ms, after ${afterS} s)`);
const top = (counts: Map<string, number>, k: number) =>
  [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([frame, count]) => `${count}x ${frame}`)
    .join('\n      ');
for (const stretch of long) {
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  for (const id of stretch.ids) {
    const stack = stackOf(id);
    self.set(stack[0], (self.get(stack[0]) ?? 0) + 1);
    for (const frame of new Set(stack.slice(0, -1))) total.set(frame, (total.get(frame) ?? 0) + 1);
  }
  const at = ((stretch.start - profile.startTime) / 1e6).toFixed(2);
  console.log(`\n@${at}s ${((stretch.last - stretch.start) / 1000).toFixed(0)} ms, ${stretch.ids.length} samples\n  self: ${top(self, 6)}\n  total: ${top(total, 14)}`);
}
