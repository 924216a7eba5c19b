import { defineJob, markdownWork, registerJobs, type PageView, type Workers } from '../core/reader.js';
import { layoutWordsOf } from './layout-words.js';
import { renderBody, type Heading } from './markdown.js';

/**
 * A page's body rendered off the event loop when it is long. markdown-it reads and renders 1 MiB in one call
 * (100-300 ms on an idle 2-core machine, seconds on a loaded one), which would hold every other request
 * once per revision and page; above INLINE_MARKDOWN_CHARS the body is rendered as a job, on the worker pool
 * where the platform has one, and only its HTML and headings come back. The job is the reader's own: this
 * module registers it, and the pool's threads load this module (src/workers/worker.ts).
 */

/** What the job reads: the body as the core gives it, and the locale of the reader's words. */
export interface BodyInput extends Pick<PageView, 'markdown' | 'links' | 'anchors' | 'pageTitles'>, Partial<Pick<PageView, 'imageSizes'>> {
  readonly locale: string;
}

/** A body as HTML, with its headings for the outline. */
export interface RenderedBody {
  readonly html: string;
  readonly headings: Heading[];
}

/** renderBody as a job (the words are looked up in the thread: they hold functions, which do not cross). */
export const renderBodyJob = defineJob<BodyInput, RenderedBody>({
  name: 'reader-body',
  what: 'rendering a page',
  run: (input) => renderBody(input, layoutWordsOf(input.locale)),
});
registerJobs([renderBodyJob]);

/** A page's body as HTML: on this thread when it is short, else through the workers port. */
export function renderBodyOff(workers: Workers, page: Pick<PageView, 'markdown' | 'links' | 'anchors' | 'pageTitles'> & Partial<Pick<PageView, 'imageSizes'>>, locale: string): Promise<RenderedBody> {
  const { markdown, links, anchors, pageTitles, imageSizes } = page;
  return markdownWork(workers, renderBodyJob, { markdown, links, anchors, pageTitles, imageSizes, locale }, markdown.length);
}
