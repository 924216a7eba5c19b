import type { Job } from '../job.js';
import type { Workers } from '../workers.js';

/**
 * Where a parse of a Markdown body runs. A parse is linear in the body's size (markdown-limits.ts bounds the
 * superlinear cases) but not cheap: mdast reads prose at a few ms per KB and tables at several times that, so
 * a body near the request limit (1 MiB) would hold the event loop for seconds. A body longer than
 * INLINE_MARKDOWN_CHARS is parsed as a job (on the worker pool where the platform has one), and only its
 * small result (a string, the outline, the page fields) comes back; a shorter one is parsed on the calling
 * thread, where it costs less than a round trip to a thread. The same function runs in both places: the job's.
 */

/**
 * The longest body parsed on the calling thread, in characters. At the costs per KB measured on a loaded
 * 2-core machine (docs/limits.md, "Markdown"), 8 KB of prose takes mdast some 8 to 30 ms, a table of 8 KB
 * about 120 ms; a round trip to a warm thread costs the calling thread well under a millisecond.
 */
export const INLINE_MARKDOWN_CHARS = 8 * 1024;

/**
 * Runs `job` on `input`, a body of `chars` characters: on this thread when it is short, else through the
 * `workers` port. Either way a failure is the job's error (an ApiError keeps its status and message).
 */
export async function markdownWork<I, O>(workers: Workers, job: Job<I, O>, input: I, chars: number, signal?: AbortSignal): Promise<O> {
  if (chars <= INLINE_MARKDOWN_CHARS) return job.run(input);
  return workers.run(job, input, signal);
}

/** How many characters a body given as a JSON document stands for: its JSON's (the Markdown it makes is of that order). */
export const documentChars = (document: unknown): number => JSON.stringify(document ?? null).length;
