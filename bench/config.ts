import { tmpdir } from 'node:os';

/** How a bench run is configured: every knob has a default and an environment variable. */
export interface BenchConfig {
  /** Seconds each case is measured (BENCH_DURATION, default 5). */
  readonly duration: number;
  /** Seconds of load before each measurement, not counted (BENCH_WARMUP, default 1). */
  readonly warmup: number;
  /** Into how many alternating slices a case and its ceiling are cut (BENCH_SLICES, default 5; see measurePair). */
  readonly slices: number;
  /** Connections of the read cases and the ceilings (BENCH_CONNECTIONS, default 10, autocannon's own default). */
  readonly connections: number;
  /** Connections of the write cases (BENCH_WRITE_CONNECTIONS, default 50, as the requirement says). */
  readonly writeConnections: number;
  /** Member counts of the small and the large data set (BENCH_SMALL, BENCH_LARGE; default 1,000 and 100,000). */
  readonly small: number;
  readonly large: number;
  /**
   * Only the cases whose id contains one of these comma-separated words, and none of the words given with
   * a leading `-` (BENCH_CASES; default all): `pg` runs the PostgreSQL cases, `list,-pg` the JSON lists.
   */
  readonly only: readonly string[];
  /** Write a CPU profile of each server under test into bench/results/profiles (BENCH_PROFILE=1). */
  readonly profile: boolean;
  /** Pages in the content case's spaces, smallest first (BENCH_CONTENT_SIZES, comma-separated; default 100 and 10,000). */
  readonly contentSizes: readonly number[];
  /** Timed rounds of each content row (BENCH_CONTENT_ROUNDS, default 200). */
  readonly contentRounds: number;
  /** The PostgreSQL database of the `pg*` cases, each data set in a schema of its own (BENCH_POSTGRES, default postgres://postgres@127.0.0.1:5432/test). */
  readonly postgres: string;
  /**
   * Serve without request logs and rate limits (BENCH_BARE=1); by default the server under test logs every
   * request to a file and counts every token's budget, as `npm start` does.
   */
  readonly bare: boolean;
  /** Where the data files go (BENCH_DATA_DIR, default the OS temp folder); it must be a real disk for durability to mean anything. */
  readonly dataRoot: string;
}

function number(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number of at least ${min}, not ${JSON.stringify(raw)}`);
  return value;
}

/** A comma-separated list of sizes (at least 1 each), sorted; `fallback` when unset. */
function sizes(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const values = raw.split(',').map((part) => Number(part.trim()));
  if (values.some((value) => !Number.isInteger(value) || value < 1)) throw new Error(`${name} must be comma-separated whole numbers of at least 1, not ${JSON.stringify(raw)}`);
  return [...new Set(values)].sort((a, b) => a - b);
}

/** Reads the configuration from the environment. */
export function readConfig(): BenchConfig {
  return {
    duration: number('BENCH_DURATION', 5, 1),
    warmup: number('BENCH_WARMUP', 1, 0),
    slices: number('BENCH_SLICES', 5, 1),
    connections: number('BENCH_CONNECTIONS', 10, 1),
    writeConnections: number('BENCH_WRITE_CONNECTIONS', 50, 1),
    small: number('BENCH_SMALL', 1_000, 2),
    large: number('BENCH_LARGE', 100_000, 2),
    only: (process.env.BENCH_CASES ?? '').split(',').map((word) => word.trim()).filter(Boolean),
    profile: process.env.BENCH_PROFILE === '1',
    contentSizes: sizes('BENCH_CONTENT_SIZES', [100, 10_000]),
    contentRounds: number('BENCH_CONTENT_ROUNDS', 200, 1),
    postgres: process.env.BENCH_POSTGRES || 'postgres://postgres@127.0.0.1:5432/test',
    bare: process.env.BENCH_BARE === '1',
    dataRoot: process.env.BENCH_DATA_DIR || tmpdir(),
  };
}
