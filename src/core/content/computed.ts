import type { Context } from '../context.js';
import { findSpec } from '../openapi-specs/present.js';
import { latestVersion } from '../openapi-specs/processing.js';
import { normalizeMarkdown } from './markdown.js';
import type { ComputedSource } from './model.js';

/**
 * Computed pages: a page whose content is generated, here from an OpenAPI specification of the
 * organization (`builtin:openapi`). Reads expand it into a document page generated from the
 * specification's latest version (`computed=true`, the default), or show the stored source as a
 * `computed` page (`computed=false`).
 */

/** What a computed page expands into: its generated Markdown and the seed it was generated from. */
export interface ComputedContent {
  readonly markdown: string;
  /** The id of the specification version the content comes from (`none` while there is none). */
  readonly seed: string;
}

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

/** The specification version a computed page's content comes from: its latest processed one, if any. */
async function sourceVersion(ctx: Context, organizationId: string, source: ComputedSource) {
  const spec = await findSpec(ctx, organizationId, source.dependencies.spec.ref.spec);
  return spec && (await latestVersion(ctx.tx, spec));
}

/** The seed of a computed page (as computeContent gives it), without parsing the specification or generating Markdown. */
export async function computedSeed(ctx: Context, organizationId: string, source: ComputedSource): Promise<string> {
  return (await sourceVersion(ctx, organizationId, source))?.id ?? 'none';
}

/** Generates the content of a computed page of an organization. */
export async function computeContent(ctx: Context, organizationId: string, source: ComputedSource): Promise<ComputedContent> {
  const slug = source.dependencies.spec.ref.spec;
  const version = await sourceVersion(ctx, organizationId, source);
  if (!version) return { markdown: `_The OpenAPI specification ${slug} has no processed version yet._\n`, seed: 'none' };
  let document: Record<string, any>;
  try {
    document = JSON.parse(version.document) as Record<string, any>;
  } catch {
    return { markdown: `_The OpenAPI specification ${slug} could not be read._\n`, seed: version.id };
  }
  return { markdown: normalizeMarkdown(operationsMarkdown(document)), seed: version.id };
}
