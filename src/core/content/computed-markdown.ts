import { buffersOf, defineJob } from '../job.js';
import { normalizeMarkdown } from './markdown.js';

/**
 * The Markdown a computed page (`builtin:openapi`) expands into, generated from a version of its OpenAPI
 * specification: one section per operation, with its summary, description, and tables of its parameters,
 * request body and responses (local `$ref`s followed). Reading a document of megabytes and generating its
 * Markdown takes a while, so it is a job, done once per version (computed.ts).
 */

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Text for a table cell: one line, its pipes escaped. */
const cell = (value: unknown) => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value)).replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

/** An object the document names by a local `$ref` (`#/components/parameters/Limit`), or the object itself. */
function resolved(document: Record<string, any>, value: any): any {
  for (let depth = 0; depth < 10 && typeof value?.$ref === 'string' && value.$ref.startsWith('#/'); depth++) {
    value = value.$ref
      .slice(2)
      .split('/')
      .map((part: string) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((at: any, key: string) => (at && typeof at === 'object' && Object.hasOwn(at, key) ? at[key] : undefined), document);
  }
  return value && typeof value === 'object' ? value : undefined;
}

/** A schema's name (the last part of its `$ref`), or its type (`array of Pet`). */
function typeOf(schema: any): string {
  if (!schema || typeof schema !== 'object') return '';
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop() ?? '';
  if (schema.type === 'array') return `array of ${typeOf(schema.items) || 'any'}`;
  return Array.isArray(schema.type) ? schema.type.join(' or ') : cell(schema.type);
}

/** A table in Markdown. */
const table = (header: string[], rows: string[][]) => [`| ${header.join(' | ')} |`, `|${header.map(() => ' --- ').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)];

/** The parameters, request body and responses of an operation, as Markdown lines. */
function operationDetails(document: Record<string, any>, pathItem: Record<string, any>, operation: Record<string, any>): string[] {
  const lines: string[] = [];
  const all = [...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []), ...(Array.isArray(operation.parameters) ? operation.parameters : [])]
    .map((parameter) => resolved(document, parameter))
    .filter((parameter) => parameter && typeof parameter.name === 'string');
  const parameters = all.filter((parameter) => parameter.in !== 'body');
  if (parameters.length > 0) {
    lines.push('**Parameters**', '');
    lines.push(...table(['Name', 'In', 'Required', 'Type', 'Description'], parameters.map((p) => [`\`${cell(p.name)}\``, cell(p.in), p.required ? 'yes' : 'no', cell(typeOf(p.schema ?? p)), cell(p.description)])), '');
  }
  // OpenAPI 3 has requestBody; Swagger 2.0 a parameter `in: body`.
  const body = resolved(document, operation.requestBody);
  const swaggerBody = all.find((parameter) => parameter.in === 'body');
  const bodyRows = body?.content && typeof body.content === 'object'
    ? Object.entries<any>(body.content).map(([type, media]) => [`\`${cell(type)}\``, cell(typeOf(media?.schema))])
    : swaggerBody ? [['', cell(typeOf(swaggerBody.schema))]] : [];
  if (bodyRows.length > 0) {
    lines.push(`**Request body**${body?.required || swaggerBody?.required ? ' (required)' : ''}`, '');
    if (typeof body?.description === 'string') lines.push(cell(body.description), '');
    lines.push(...table(['Content type', 'Schema'], bodyRows), '');
  }
  const responses = operation.responses && typeof operation.responses === 'object' ? Object.entries<any>(operation.responses) : [];
  if (responses.length > 0) {
    lines.push('**Responses**', '');
    const rows = responses.map(([status, value]) => {
      const response = resolved(document, value) ?? {};
      const content = response.content && typeof response.content === 'object' ? Object.entries<any>(response.content).map(([type, media]) => `\`${cell(type)}\` ${cell(typeOf(media?.schema))}`.trim()) : response.schema ? [cell(typeOf(response.schema))] : [];
      return [`\`${cell(status)}\``, cell(response.description), content.join(', ')];
    });
    lines.push(...table(['Status', 'Description', 'Content'], rows), '');
  }
  return lines;
}

/** Markdown listing a specification's operations: one section per operation, with its summary, description, parameters, request body and responses. */
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
      lines.push(...operationDetails(document, item, operation));
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
