import { buffersOf, defineJob } from '../job.js';
import { buildReference } from './api-reference/build-reference.js';
import type { ApiReference } from './api-reference/model.js';
import { referenceMarkdown } from './api-reference/reference-markdown.js';

/**
 * What a computed page (`builtin:openapi`) expands into, generated from a version of its OpenAPI
 * specification: its page model (api-reference/model.ts), which the reader renders as HTML, and the same
 * model as Markdown, which the content API, search, the PDF and `.md` pages read. Reading a document of
 * megabytes and building its model takes a while, so it is a job, done once per version (computed.ts).
 */

/** What generating needs: the version's stored document (JSON text, or its UTF-8 bytes) and the specification's slug. */
export interface OpenAPIPageInput {
  readonly document: string | Uint8Array;
  readonly slug: string;
}

/** A computed page's generated content: its page model (absent when the document could not be read) and its Markdown. */
export interface OpenAPIPage {
  readonly reference?: ApiReference;
  readonly markdown: string;
}

/** The job that generates the page model and Markdown of a specification version's document. */
export const openAPIPageJob = defineJob({
  name: 'openAPIPage',
  transferInput: ({ document }: OpenAPIPageInput) => (typeof document === 'string' ? [] : buffersOf([document])),
  what: 'generating the pages of an OpenAPI document',
  run({ document, slug }: OpenAPIPageInput): OpenAPIPage {
    // Outside the try: an input that is neither text nor bytes is the caller's mistake, not the document's.
    const text = typeof document === 'string' ? document : new TextDecoder().decode(document);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { markdown: `_The OpenAPI specification ${slug} could not be read._\n` };
    const reference = buildReference(parsed as Record<string, any>);
    // Not normalized through the mdast parser as stored bodies are: the Markdown is written well-formed, and
    // normalizing took 34 s for the 1 MB of a public API's reference (377 operations) under load.
    return { reference, markdown: referenceMarkdown(reference) };
  },
});
