import type { ApiMedia, ApiOperation, ApiParameter, ApiReference, ApiSecurityRequirement, ApiSecurityScheme, SchemaNode } from './model.js';

/**
 * The page model as Markdown: what a computed OpenAPI page reads as everywhere but the reader's HTML (the
 * content API, search, the PDF, `.md` pages). One `##` section per operation, whose heading text
 * (`GET /pets`) gives the anchor the model holds; schemas are tables of their fields, nested ones named by
 * their path (`owner.name`, `tags[]`, `pet<one of 1>.name`); examples are fenced code.
 */

/** Text for a table cell: one line, its pipes escaped. */
const cell = (value: string | undefined) => (value ?? '').replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

/** Inline code that holds any text (a fence longer than any run of backticks in it). */
function code(value: string): string {
  const longest = Math.max(0, ...(value.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return /^`|`$/.test(value) ? `${fence} ${value} ${fence}` : `${fence}${value}${fence}`;
}

/** A table in Markdown. */
const table = (header: string[], rows: string[][]) => [`| ${header.join(' | ')} |`, `|${header.map(() => ' --- ').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)];

/** A text as a sentence: ending with a full stop unless it ends with punctuation already. */
const sentence = (value: string) => (/[.!?:;]$/.test(value.trim()) ? value.trim() : `${value.trim()}.`);

/** Why a node, or the items of an array node, are not expanded, in words. */
export function cutNote(node: SchemaNode): string | undefined {
  const cut = node.cut ?? node.items?.cut;
  const ref = (node.cut ? node.ref : node.items?.ref) ?? 'this schema';
  if (cut === 'cycle') return `Circular: ${ref} again, as above.`;
  if (cut === 'depth') return 'Not expanded: nested too deep.';
  if (cut === 'budget') return 'Not expanded: the page shows enough fields.';
  return undefined;
}

/** What a field's description cell says: its flags, description, limits, allowed values, default, and why it stops. */
export function fieldNotes(node: SchemaNode): string[] {
  const notes: string[] = [];
  if (node.deprecated) notes.push('Deprecated.');
  if (node.readOnly) notes.push('Read-only.');
  if (node.writeOnly) notes.push('Write-only.');
  if (node.description) notes.push(sentence(node.description));
  if (node.constraints.length > 0) notes.push(`${node.constraints.join(', ')}.`);
  if (node.enum) notes.push(`One of: ${node.enum.map(code).join(', ')}${node.moreEnum ? ` and ${node.moreEnum} more` : ''}.`);
  if (node.default !== undefined) notes.push(`Default: ${code(node.default)}.`);
  const cut = cutNote(node);
  if (cut) notes.push(cut);
  if (node.moreProperties) notes.push(`${node.moreProperties} more properties not shown.`);
  return notes;
}

/** A node's fields as table rows, nested ones below it named by their path. */
function fieldRows(node: SchemaNode, prefix: string, rows: string[][]): void {
  const row = (child: SchemaNode, name: string) => {
    rows.push([code(name), cell(child.type), child.required ? 'yes' : 'no', cell(fieldNotes(child).join(' '))]);
    fieldRows(child, name, rows);
  };
  for (const property of node.properties) row(property, prefix === '' ? (property.name ?? '') : `${prefix}.${property.name ?? ''}`);
  if (node.items && (node.items.properties.length > 0 || node.items.composition)) fieldRows(node.items, `${prefix}[]`, rows);
  if (node.additional) row(node.additional, `${prefix === '' ? '' : `${prefix}.`}*`);
  const words = { allOf: 'all of', oneOf: 'one of', anyOf: 'any of' } as const;
  node.composition?.variants.forEach((variant, at) => row(variant, `${prefix}<${words[node.composition!.kind]} ${at + 1}>`));
}

/** A schema as Markdown lines: its type, and a table of its fields when it has some. */
function schemaLines(node: SchemaNode): string[] {
  const rows: string[][] = [];
  fieldRows(node, '', rows);
  const notes = fieldNotes(node);
  return [...(notes.length > 0 ? [cell(notes.join(' ')), ''] : []), ...(rows.length > 0 ? [...table(['Field', 'Type', 'Required', 'Description'], rows), ''] : [])];
}

/** A fenced code block that no line of its text can close. */
function fenced(text: string, language: string): string[] {
  const longest = Math.max(2, ...(text.match(/^ {0,3}`{3,}/gm) ?? []).map((run) => run.trim().length));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}${language}`, text, fence, ''];
}

/** A media type: its schema and its examples. */
function mediaLines(media: ApiMedia): string[] {
  const lines = [`${code(media.mediaType)}${media.schema ? `: ${cell(media.schema.type)}` : ''}`, ''];
  if (media.schema) lines.push(...schemaLines(media.schema));
  for (const example of media.examples) {
    lines.push(`${example.generated ? 'Example (generated from the schema)' : `Example${example.title ? `: ${cell(example.title)}` : ''}`}:`, '');
    lines.push(...fenced(example.value, /json/i.test(media.mediaType) || example.generated ? 'json' : ''));
  }
  return lines;
}

/** Parameters (or headers) as a table. */
function parameterTable(parameters: readonly ApiParameter[], withPlace: boolean): string[] {
  const rows = parameters.map((parameter) => {
    const notes = [...(parameter.deprecated ? ['Deprecated.'] : []), ...(parameter.description ? [sentence(parameter.description)] : []), ...fieldNotes({ ...parameter.schema, description: undefined, deprecated: false })];
    if (parameter.example !== undefined) notes.push(`Example: ${code(parameter.example.replace(/\s+/g, ' '))}.`);
    return [code(parameter.name), ...(withPlace ? [cell(parameter.in)] : []), cell(parameter.schema.type), parameter.required ? 'yes' : 'no', cell(notes.join(' '))];
  });
  return [...table(['Name', ...(withPlace ? ['In'] : []), 'Type', 'Required', 'Description'], rows), ''];
}

/** The schemes an alternative of a security requirement names, in words. */
const requirementText = (requirement: ApiSecurityRequirement) =>
  requirement.schemes.length === 0 ? 'none' : requirement.schemes.map((scheme) => `${code(scheme.name)}${scheme.scopes.length > 0 ? ` (${scheme.scopes.map(code).join(', ')})` : ''}`).join(' and ');

/** A security scheme as a list item. */
function schemeLine(scheme: ApiSecurityScheme): string[] {
  const lines = [`- ${code(scheme.name)}: ${cell(scheme.summary)}${scheme.description ? `. ${cell(scheme.description)}` : ''}`];
  for (const flow of scheme.flows) {
    lines.push(`  - ${cell(flow.kind)}${flow.urls.length > 0 ? `: ${flow.urls.map(code).join(', ')}` : ''}${flow.scopes.length > 0 ? `; scopes: ${flow.scopes.map((scope) => `${code(scope.name)}${scope.description ? ` (${cell(scope.description)})` : ''}`).join(', ')}` : ''}`);
  }
  return lines;
}

/** One operation's section. */
function operationLines(operation: ApiOperation): string[] {
  const lines = [`## ${operation.method} ${code(operation.path)}`, ''];
  if (operation.deprecated) lines.push('**Deprecated.**', '');
  if (operation.operationId) lines.push(`Operation ${code(operation.operationId)}`, '');
  if (operation.summary) lines.push(operation.summary, '');
  if (operation.description) lines.push(operation.description, '');
  if (operation.servers.length > 0) lines.push(operation.servers.map((server) => code(`${operation.method} ${server.url.replace(/\/+$/, '')}${operation.path}`)).join(' or '), '');
  if (operation.security.length > 0) lines.push(`**Authentication**: ${operation.security.map(requirementText).join(', or ')}`, '');
  if (operation.parameters.length > 0) lines.push('**Parameters**', '', ...parameterTable(operation.parameters, true));
  const body = operation.requestBody;
  if (body) {
    lines.push(`**Request body**${body.required ? ' (required)' : ''}`, '');
    if (body.description) lines.push(body.description, '');
    for (const media of body.contents) lines.push(...mediaLines(media));
  }
  if (operation.sample) lines.push('**Request sample**', '', ...fenced(operation.sample, 'bash'));
  if (operation.responses.length > 0) lines.push('**Responses**', '');
  for (const response of operation.responses) {
    lines.push(`**${code(response.status)}**${response.description ? `: ${cell(response.description)}` : ''}`, '');
    if (response.headers.length > 0) lines.push('Headers:', '', ...parameterTable(response.headers, false));
    for (const media of response.contents) lines.push(...mediaLines(media));
  }
  return lines;
}

/** The page model of a document as Markdown. */
export function referenceMarkdown(reference: ApiReference): string {
  const lines: string[] = [];
  if (reference.description) lines.push(reference.description, '');
  if (reference.servers.length > 0) lines.push('**Servers**', '', ...reference.servers.map((server) => `- ${code(server.url)}${server.description ? `: ${cell(server.description)}` : ''}`), '');
  if (reference.securitySchemes.length > 0) lines.push('**Authentication**', '', ...reference.securitySchemes.flatMap(schemeLine), '');
  for (const operation of reference.operations) lines.push(...operationLines(operation));
  if (reference.omittedOperations > 0) lines.push(`_${reference.omittedOperations} more operations are not shown: a page shows at most ${reference.operations.length}._`, '');
  return lines.join('\n');
}
