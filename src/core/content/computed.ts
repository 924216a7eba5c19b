import type { Context } from '../context.js';
import { findSpec } from '../openapi-specs/present.js';
import { latestVersion, versionDocument } from '../openapi-specs/processing.js';
import type { ApiReference } from './api-reference/model.js';
import { openAPIPageJob, type OpenAPIPage } from './computed-page.js';
import type { ComputedSource } from './model.js';

/**
 * Computed pages: a page whose content is generated, here from an OpenAPI specification of the
 * organization (`builtin:openapi`). Reads expand it into a document page generated from the
 * specification's latest version (`computed=true`, the default), or show the stored source as a
 * `computed` page (`computed=false`).
 */

/** What a computed page expands into: its generated Markdown, its page model, and the seed it was generated from. */
export interface ComputedContent {
  readonly markdown: string;
  /** The page model the Markdown renders (absent while there is no version, or when its document cannot be read). */
  readonly reference?: ApiReference;
  /** The id of the specification version the content comes from (`none` while there is none). */
  readonly seed: string;
}

/** What generating a computed page's content needs: reads, the bytes of specification versions, jobs and the cache. */
export type ComputeContext = Pick<Context, 'tx' | 'blobs' | 'workers' | 'derived'>;

/** The specification version a computed page's content comes from: its latest processed one, if any. */
async function sourceVersion(ctx: Pick<Context, 'tx'>, organizationId: string, source: ComputedSource) {
  const spec = await findSpec(ctx, organizationId, source.dependencies.spec.ref.spec);
  return spec && (await latestVersion(ctx.tx, spec));
}

/** The seed of a computed page (as computeContent gives it), without parsing the specification or generating Markdown. */
export async function computedSeed(ctx: Pick<Context, 'tx'>, organizationId: string, source: ComputedSource): Promise<string> {
  return (await sourceVersion(ctx, organizationId, source))?.id ?? 'none';
}

/** The kind of generated content in the derived-data cache, by specification version (versions never change). */
const COMPUTED_KIND = 'computed:openapi';

/**
 * How many characters of generated Markdown weigh as one page in the derived-data cache (about a page's
 * index). The page model weighs about as much again as its Markdown, hence the half.
 */
const CHARACTERS_PER_PAGE = 2500;

/**
 * Generates the content of a computed page of an organization: once per specification version (kept in
 * `ctx.derived`), as a job, since a document of megabytes takes a while to read and turn into Markdown.
 */
export async function computeContent(ctx: ComputeContext, organizationId: string, source: ComputedSource): Promise<ComputedContent> {
  const slug = source.dependencies.spec.ref.spec;
  const version = await sourceVersion(ctx, organizationId, source);
  if (!version) return { markdown: `_The OpenAPI specification ${slug} has no processed version yet._\n`, seed: 'none' };
  const generate = async () => ctx.workers.run(openAPIPageJob, { document: await versionDocument(ctx, version), slug });
  const page = await ctx.derived.get<OpenAPIPage>(COMPUTED_KIND, version.id, generate, ({ markdown }) => Math.ceil(markdown.length / CHARACTERS_PER_PAGE));
  return { markdown: page.markdown, ...(page.reference && { reference: page.reference }), seed: version.id };
}
