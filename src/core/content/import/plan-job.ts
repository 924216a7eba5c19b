import { buffersOf, defineJob } from '../../job.js';
import type { FetchedBytes } from '../../fetch-bytes.js';
import { planHtml } from './html-source.js';
import { localIds, type LocalPlan } from './local-ids.js';
import { planMarkdown } from './markdown-source.js';
import { planZip } from './zip-source.js';

/** What planning an import reads: what was fetched from where, and what the request says it is. */
export interface PlanImportInput {
  readonly url: string;
  readonly source: 'markdown' | 'html' | 'website' | 'zip';
  readonly fetched: FetchedBytes;
}

/**
 * The job that plans an import from what was fetched: unpacking a zip archive, parsing its Markdown, or
 * converting HTML, which takes seconds for large sources. Its pages and files have local ids (local-ids.ts);
 * the bytes of the files move back to the caller, which stores them.
 */
export const planImportJob = defineJob({
  name: 'planImport',
  what: 'reading the content to import',
  run({ url, source, fetched }: PlanImportInput): LocalPlan {
    const ids = localIds();
    const plan =
      source === 'markdown'
        ? planMarkdown(ids.next, url, fetched)
        : source === 'zip'
          ? planZip(ids.next, url, fetched)
          : planHtml(ids.next, url, fetched, source);
    return { ...plan, prefix: ids.prefix, ids: ids.count() };
  },
  transferInput: (input) => buffersOf([input.fetched.bytes]),
  transferOutput: (plan) => buffersOf(plan.files.map((file) => file.bytes)),
});
