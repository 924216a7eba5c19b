import { defineJob } from '../job.js';
import type { Workers } from '../workers.js';
import { markdownWork } from './markdown-work.js';
import { outlineOf, type Outline } from './outline.js';

/**
 * A body's outline (outline.ts: its URLs, heading anchors and sections), off the event loop when the body is
 * long (markdown-work.ts): markdown-it reads 1 MiB in a few hundred ms. What comes back is strings only.
 */
export const outlineJob = defineJob<string, Outline>({ name: 'markdown-outline', what: 'reading the outline of a page body', run: outlineOf });

/** The outline of a Markdown body, read off the event loop when the body is long. */
export const outlineOff = (workers: Workers, markdown: string): Promise<Outline> => markdownWork(workers, outlineJob, markdown, markdown.length);
