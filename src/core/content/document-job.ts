import { defineJob } from '../job.js';
import type { Workers } from '../workers.js';
import { markdownToDocument, type JSONDocument } from './document.js';
import { markdownWork } from './markdown-work.js';

/**
 * A body's `format=document` form, off the event loop when the body is long (markdown-work.ts). The job gives
 * the document back as its JSON text: a thread's structured clone of a large tree costs the receiving thread
 * about three times what parsing its JSON does (a 9 MB document from 1 MiB of prose).
 */
export const markdownDocumentJob = defineJob<string, string>({
  name: 'markdown-document',
  what: 'converting a body to a document',
  run: (markdown) => JSON.stringify(markdownToDocument(markdown)),
});

/** The JSON document of a Markdown body (markdownToDocument), made off the event loop when the body is long. */
export async function documentOf(workers: Workers, markdown: string): Promise<JSONDocument> {
  return JSON.parse(await markdownWork(workers, markdownDocumentJob, markdown, markdown.length)) as JSONDocument;
}
