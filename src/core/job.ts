/**
 * A job: CPU-heavy work that the platform may run off the main thread (parsing a large OpenAPI document,
 * rendering a PDF, unpacking an import, indexing a space). A job is a pure function from plain data to plain
 * data: what it gets and gives crosses threads by structured clone, so no class instances, functions or ports
 * (no store, no clock, no ids). Every job is listed once in the registry (jobs.ts), which the in-process
 * runner and the worker threads both read; the `Workers` port (workers.ts) runs them.
 */
export interface Job<I, O> {
  /** Its key in the registry: how a worker thread finds it. */
  readonly name: string;
  /** What it does, for the messages of the limits it may hit ("rendering a PDF"). */
  readonly what: string;
  /** The work itself. It must not keep or change its input, nor use any state beyond it. */
  run(input: I): O | Promise<O>;
  /**
   * The buffers of an input that move to the thread that runs it instead of being copied (big byte arrays),
   * and the message ports it talks through: the caller no longer uses them once the job started.
   */
  readonly transferInput?: (input: I) => readonly Transferred[];
  /** The buffers of an output that move back instead of being copied. */
  readonly transferOutput?: (output: O) => readonly ArrayBuffer[];
  /**
   * Readies what its first run would otherwise make, such as compiled schemas. A warm thread (see
   * src/workers/pool.ts) runs it once it starts, so that the first job after a quiet start does not pay it.
   */
  readonly prepare?: () => Promise<void>;
}

/**
 * What an input may hand over to the thread that runs it: byte arrays, and message ports (Node's or the web's,
 * named by shape: the package's declarations must not need the DOM library, which an embedding app may lack).
 */
export type Transferred = ArrayBuffer | { postMessage(...message: never[]): void; close(): void };

/** Declares a job (listed in jobs.ts). */
export const defineJob = <I, O>(job: Job<I, O>): Job<I, O> => job;

/**
 * The buffers of byte arrays that can move between threads instead of being copied: each once, and only
 * those an array spans whole (a view into a larger buffer, such as Node's pooled small Buffers, is copied,
 * so that moving it takes nothing else away from its owner).
 */
export function buffersOf(arrays: Iterable<Uint8Array>): ArrayBuffer[] {
  const whole = [...arrays].filter((array) => array.byteOffset === 0 && array.byteLength === array.buffer.byteLength && array.buffer instanceof ArrayBuffer);
  return [...new Set(whole.map((array) => array.buffer as ArrayBuffer))];
}
