import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The server's main-thread CPU profile in a folder of profiles a case wrote (BENCH_PROFILE=1, BENCH_TRACE=1). */

/** A node of a V8 CPU profile: a frame, and the frames it called. */
export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** A V8 CPU profile (`--cpu-prof`): its nodes, and which node each sample was in, with the µs between samples. */
export interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The main thread's profile in a folder. */
export function readMainProfile(folder: string): Profile {
  // Node names profiles CPU.<date>.<time>.<pid>.<thread id>.<sequence>.cpuprofile; the main thread's id is 0.
  const main = readdirSync(folder).find((name) => name.endsWith('.cpuprofile') && name.split('.')[4] === '0');
  if (!main) throw new Error(`no main-thread profile in ${folder}`);
  return JSON.parse(readFileSync(join(folder, main), 'utf8')) as Profile;
}
