import { buffersOf, defineJob } from '../job.js';
import { jsonBytes, lazyJson } from '../json-text.js';
import type { Workers } from '../workers.js';
import { markdownToDocument, type JSONDocument } from './document.js';
import { markdownWork } from './markdown-work.js';

/**
 * A body's `format=document` form, off the event loop when the body is long (markdown-work.ts). The job gives
 * the document back as its JSON's bytes, moved between threads, which the response carries as they are
 * (json-text.ts): 1 MiB of prose makes a 9 MB document, which the event loop would otherwise parse and print
 * again (0.3 to 1 s of one turn with its collections; a structured clone of the tree costs three times the
 * parse).
 */
export const markdownDocumentJob = defineJob<string, Uint8Array>({
  name: 'markdown-document',
  what: 'converting a body to a document',
  run: (markdown) => jsonBytes(markdownToDocument(markdown)),
  transferOutput: (bytes) => buffersOf([bytes]),
});

/** The fields every JSONDocument has (markdownToDocument), which its stand-in shows before it is parsed. */
const DOCUMENT_KEYS = ['object', 'data', 'nodes'] as const;

/**
 * The JSON document of a Markdown body (markdownToDocument), made off the event loop when the body is long,
 * as a stand-in that a response prints without parsing it (json-text.ts).
 */
export async function documentOf(workers: Workers, markdown: string): Promise<JSONDocument> {
  return lazyJson<JSONDocument>(await markdownWork(workers, markdownDocumentJob, markdown, markdown.length), DOCUMENT_KEYS);
}
