import { buffersOf, defineJob } from '../job.js';
import { normalizeMarkdown } from './markdown.js';

/**
 * The Markdown a computed page (`builtin:openapi`) expands into, generated from a version of its OpenAPI
 * specification: one section per operation, with its summary and description. Reading a document of
 * megabytes and generating its Markdown takes a while, so it is a job, done once per version (computed.ts).
 */

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Markdown listing a specification's operations: one section per operation, with its summary and description. */
function operationsMarkdown(document: Record<string, any>): string {
  const lines: string[] = [];
  const info = document.info ?? {};
  if (typeof info.description === 'string' && info.description.trim() !== '') lines.push(info.description.trim(), '');
  for (const [path, item] of Object.entries<Record<string, any>>(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method];
      if (!operation) continue;
      lines.push(`## ${method.toUpperCase()} \`${path}\``, '');
      if (typeof operation.summary === 'string' && operation.summary !== '') lines.push(operation.summary, '');
      if (typeof operation.description === 'string' && operation.description !== '') lines.push(operation.description, '');
    }
  }
  return lines.join('\n');
}

/** What generating needs: the version's stored document (JSON text, or its UTF-8 bytes) and the specification's slug. */
export interface OpenAPIMarkdownInput {
  readonly document: string | Uint8Array;
  readonly slug: string;
}

/** The job that generates the Markdown of a specification version's document. */
export const openAPIMarkdownJob = defineJob({
  name: 'openAPIMarkdown',
  transferInput: ({ document }: OpenAPIMarkdownInput) => (typeof document === 'string' ? [] : buffersOf([document])),
  what: 'generating the pages of an OpenAPI document',
  run({ document, slug }: OpenAPIMarkdownInput): string {
    let parsed: Record<string, any>;
    try {
      parsed = JSON.parse(typeof document === 'string' ? document : new TextDecoder().decode(document)) as Record<string, any>;
    } catch {
      return `_The OpenAPI specification ${slug} could not be read._\n`;
    }
    return normalizeMarkdown(operationsMarkdown(parsed));
  },
});
