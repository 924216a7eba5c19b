import { buffersOf, defineJob } from '../job.js';
import { normalizeMarkdown } from './markdown.js';

/**
 * The Markdown a computed page (`builtin:openapi`) expands into, generated from a version of its OpenAPI
 * specification: one section per operation, with its operation id, summary, description and parameters
 * (what a reader looks for, and what search finds it by). Reading a document of
 * megabytes and generating its Markdown takes a while, so it is a job, done once per version (computed.ts).
 */

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Follows a local `$ref` (`#/components/parameters/id`) to what it names; anything else is taken as it is. */
function resolved(document: Record<string, any>, value: any): any {
  for (let hops = 0; value && typeof value.$ref === 'string' && value.$ref.startsWith('#/') && hops < 16; hops++) {
    value = value.$ref
      .slice(2)
      .split('/')
      .map((part: string) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((node: any, part: string) => (node && typeof node === 'object' ? node[part] : undefined), document);
  }
  return value;
}

/** Text on one line, for a list item. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The parameters of an operation (the path's, then its own, an own one replacing the path's of the same name and place), as list items. */
function parameterLines(document: Record<string, any>, item: Record<string, any>, operation: Record<string, any>): string[] {
  const byKey = new Map<string, any>();
  for (const list of [item.parameters, operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const parameter = resolved(document, raw);
      if (!parameter || typeof parameter.name !== 'string') continue;
      byKey.set(`${parameter.in} ${parameter.name}`, parameter);
    }
  }
  return [...byKey.values()].map((parameter) => {
    const where = [typeof parameter.in === 'string' ? parameter.in : undefined, parameter.required === true ? 'required' : undefined].filter(Boolean).join(', ');
    const description = typeof parameter.description === 'string' ? oneLine(parameter.description) : '';
    return `- \`${parameter.name}\`${where ? ` (${where})` : ''}${description ? `: ${description}` : ''}`;
  });
}

/**
 * Markdown listing a specification's operations: one section per operation (`## METHOD \`/path\``), with
 * its operation id, summary, description and parameters (name, where, whether required, description).
 */
function operationsMarkdown(document: Record<string, any>): string {
  const lines: string[] = [];
  const info = document.info ?? {};
  if (typeof info.description === 'string' && info.description.trim() !== '') lines.push(info.description.trim(), '');
  for (const [path, item] of Object.entries<Record<string, any>>(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method];
      if (!operation) continue;
      lines.push(`## ${method.toUpperCase()} \`${path}\``, '');
      if (typeof operation.operationId === 'string' && operation.operationId !== '') lines.push(`Operation \`${operation.operationId}\``, '');
      if (typeof operation.summary === 'string' && operation.summary !== '') lines.push(operation.summary, '');
      if (typeof operation.description === 'string' && operation.description !== '') lines.push(operation.description, '');
      const parameters = parameterLines(document, item, operation);
      if (parameters.length > 0) lines.push('Parameters:', '', ...parameters, '');
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
