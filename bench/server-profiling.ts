import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchConfig } from './config.js';
import type { PacedFigures } from './load.js';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The profiles of a server under test that answers light requests beside heavy work (the heavy, Git and
 * Markdown-loop cases). BENCH_PROFILE=1: CPU profiles of the server's threads (the main thread's file names
 * thread 0). BENCH_TRACE=1 adds finer ones (a sample every 250 µs) and, beside them, when each light request
 * was sent and how long it took (trace.json) and the main thread's garbage collections (gc.json, written by
 * heavy-server.ts), which bench/heavy-trace.ts lays over the main thread's profile.
 */
export interface ServerProfiling {
  /** The node options that make the server write its profiles. */
  readonly nodeOptions: string[];
  /** Keeps a phase's light requests for trace.json. */
  record(phase: string, timeline: PacedFigures['timeline']): void;
  /** Writes trace.json, once the server has stopped (and written its profiles), and says where they are. */
  finish(idleP99Ms: number | undefined, log: (line: string) => void): Promise<void>;
}

/** The profiling of case `name`'s server, as BENCH_PROFILE and BENCH_TRACE ask (sets BENCH_TRACE_GC for the server to inherit). */
export function serverProfiling(config: BenchConfig, name: string): ServerProfiling {
  const trace = process.env.BENCH_TRACE === '1';
  const folder = join(here, 'results', 'profiles', `${name}-${Date.now()}`);
  if (trace) process.env.BENCH_TRACE_GC = join(folder, 'gc.json');
  const timelines: { phase: string; timeline: PacedFigures['timeline'] }[] = [];
  return {
    nodeOptions: config.profile || trace ? ['--cpu-prof', `--cpu-prof-dir=${folder}`, ...(trace ? ['--cpu-prof-interval=250'] : [])] : [],
    record(phase, timeline) {
      if (trace) timelines.push({ phase, timeline });
    },
    async finish(idleP99Ms, log) {
      if (!trace) {
        if (config.profile) log(`  CPU profiles: ${folder}`);
        return;
      }
      await writeFile(join(folder, 'trace.json'), JSON.stringify({ idleP99Ms, phases: timelines }));
      log(`  trace: ${folder} (npx tsx bench/heavy-trace.ts ${folder})`);
    },
  };
}
