import { defineJob } from '../job.js';
import type { Workers } from '../workers.js';
import { boundedMarkdown } from './markdown-limits.js';
import { markdownWork } from './markdown-work.js';

/**
 * A body bounded for the parsers (boundedMarkdown), off the event loop when it is long (markdown-work.ts):
 * the limits' scan reads 1 MiB in a few hundred ms. The job gives back null when the body is within the
 * limits (almost always), so that a long body does not travel back unchanged.
 */
export const boundedJob = defineJob<string, string | null>({
  name: 'markdown-bounded',
  what: 'reading a page body',
  run: (markdown) => {
    const bounded = boundedMarkdown(markdown);
    return bounded === markdown ? null : bounded;
  },
});

/** boundedMarkdown of a body, read off the event loop when the body is long. */
export const boundedOff = async (workers: Workers, markdown: string): Promise<string> => (await markdownWork(workers, boundedJob, markdown, markdown.length)) ?? markdown;
