import { ApiError } from './errors.js';
import type { Job } from './job.js';
import { mergedBodyJob } from './change-requests/merge/text.js';
import { commentBodyJob } from './comments/body.js';
import { nodePreviewJob } from './comments/node-preview.js';
import { pageTextJob } from './content/author/page-text.js';
import { revertBlocksJob } from './content/author/revert-blocks.js';
import { openAPIPageJob } from './content/computed-page.js';
import { markdownDocumentJob } from './content/document-job.js';
import { planImportJob } from './content/import/plan-job.js';
import { readRepositoryJob } from './git-sync/read-job.js';
import { writeRepositoryJob } from './git-sync/write-job.js';
import { outlineJob } from './content/outline-job.js';
import { boundedJob } from './content/bounded-job.js';
import { readBodiesJob } from './content/read-bodies-job.js';
import { rewriteUrlsJob } from './content/rewrite-urls.js';
import { pdfReferencesJob, renderPdfJob } from './content/pdf/render-job.js';
import { parseSpecificationJob } from './openapi-specs/parse.js';
import { buildSearchIndexJob, indexPageJob } from './search/build-job.js';

/**
 * The registry of jobs: every job the platform runs through its `Workers` port, by name. The in-process
 * runner (workers.ts) and the worker threads (src/workers/worker.ts) both find jobs here, so each job has
 * one definition wherever it runs.
 */
const JOBS: readonly Job<any, any>[] = [
  parseSpecificationJob,
  openAPIPageJob,
  pdfReferencesJob,
  renderPdfJob,
  planImportJob,
  readRepositoryJob,
  writeRepositoryJob,
  buildSearchIndexJob,
  indexPageJob,
  // Markdown bodies too long to parse on the event loop (content/markdown-work.ts).
  pageTextJob,
  revertBlocksJob,
  commentBodyJob,
  markdownDocumentJob,
  nodePreviewJob,
  outlineJob,
  boundedJob,
  readBodiesJob,
  rewriteUrlsJob,
  mergedBodyJob,
];

const byName = new Map(JOBS.map((job) => [job.name, job]));

/**
 * Adds jobs defined above the core, where their code lives (the reader's rendering of a long page): the
 * module that defines them registers them as it loads, and a worker thread loads that module too
 * (src/workers/worker.ts), so that both threads find them by name. A name already taken throws.
 */
export function registerJobs(jobs: readonly Job<any, any>[]): void {
  for (const job of jobs) {
    const known = byName.get(job.name);
    if (known !== undefined && known !== job) throw new Error(`A job named ${job.name} is already in the registry`);
    byName.set(job.name, job);
  }
}

/** Whether the registry lists a job by this name. */
export const hasJob = (name: string): boolean => byName.has(name);

/** A job by name; throws for a name the registry does not list. */
export function jobNamed(name: string): Job<unknown, unknown> {
  const job = byName.get(name);
  if (!job) throw new Error(`No job named ${name} in the registry (src/core/jobs.ts)`);
  return job;
}

/** Runs every job's `prepare`, one after the other (in a warm worker thread); one that fails is left for its first run to meet. */
export async function prepareJobs(): Promise<void> {
  for (const job of JOBS) await job.prepare?.().catch(() => undefined);
}

/** How a job ended, as plain data that crosses threads: its output, or its error's status and message. */
export type JobResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly status?: number; readonly message: string };

/** Runs a job by name (in a worker thread): its result, and the buffers of its output that move instead of being copied. */
export async function runJob(name: string, input: unknown): Promise<{ result: JobResult; transfer: readonly ArrayBuffer[] }> {
  try {
    const job = jobNamed(name);
    const value = await job.run(input);
    return { result: { ok: true, value }, transfer: job.transferOutput?.(value) ?? [] };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { result: { ok: false, ...(error instanceof ApiError && { status: error.status }), message }, transfer: [] };
  }
}

/** The error a failed job's result stands for: an ApiError when the job threw one, else an Error with its message. */
export function errorOf(result: Extract<JobResult, { ok: false }>, job: Job<unknown, unknown>): Error {
  return result.status !== undefined ? new ApiError(result.status, result.message) : new Error(`${job.what} failed: ${result.message}`);
}
