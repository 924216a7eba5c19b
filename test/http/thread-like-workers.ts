import type { Job } from '../../src/core/job.js';
import { errorOf, runJob } from '../../src/core/jobs.js';
import type { Workers } from '../../src/core/workers.js';

/**
 * A `workers` port that does to jobs what the pool does (input and output cloned as between threads, found
 * by name in the registry, errors carried as status and message), in this thread, and notes the name of
 * each job it ran in `ran`: what tells which work went through the port. test/workers runs the real pool.
 */
export function threadLikeWorkers(): { workers: Workers; ran: string[] } {
  const ran: string[] = [];
  const workers: Workers = {
    async run<I, O>(job: Job<I, O>, input: I): Promise<O> {
      ran.push(job.name);
      const { result } = await runJob(job.name, structuredClone(input));
      if (!result.ok) throw errorOf(result, job as Job<unknown, unknown>);
      return structuredClone(result.value) as O;
    },
    async close() {},
  };
  return { workers, ran };
}
