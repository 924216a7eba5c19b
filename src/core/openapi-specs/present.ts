import type * as v from 'valibot';
import type { Context } from '../context.js';
import { notFound } from '../errors.js';
import { openAPISpecPermissions } from '../permissions.js';
import { INDEXES, TABLES, type MemberRecord, type OpenAPISpecRecord, type OpenAPISpecVersionRecord } from '../records.js';
import { latestVersion, resumeIfStale, versionDocument } from './processing.js';
import type { OpenAPISpecContentSchema, OpenAPISpecSchema, OpenAPISpecVersionSchema } from './schemas.js';

/** The name of the one file of a version's `filesystem`: the document its `url` serves. */
export const DOCUMENT_FILE = 'openapi.json';

/** The unique key of a specification: `<organizationId>/<slug>`. */
export const specKey = (organizationId: string, slug: string) => `${organizationId}/${slug}`;

/** The API path of a specification, e.g. `/orgs/o1/openapi/petstore`. */
const specPath = (spec: OpenAPISpecRecord) => `/orgs/${spec.organizationId}/openapi/${spec.slug}`;

/** The OpenAPI specification object, with the caller's permissions. */
export function presentSpec(ctx: Context, spec: OpenAPISpecRecord, caller: MemberRecord): v.InferInput<typeof OpenAPISpecSchema> {
  return {
    object: 'openapi-spec',
    id: spec.id,
    createdAt: spec.createdAt,
    updatedAt: spec.updatedAt,
    slug: spec.slug,
    ...(spec.sourceURL !== undefined && { sourceURL: spec.sourceURL }),
    processingState: spec.processingState,
    ...(spec.lastVersion !== undefined && { lastVersion: spec.lastVersion }),
    ...(spec.lastProcessedAt !== undefined && { lastProcessedAt: spec.lastProcessedAt }),
    ...(spec.lastProcessErrorCode !== undefined && { lastProcessErrorCode: spec.lastProcessErrorCode }),
    permissions: openAPISpecPermissions(caller),
    urls: { location: ctx.urls.api(specPath(spec)), app: ctx.urls.app(`/o/${spec.organizationId}/openapi/${spec.slug}`) },
  };
}

/** The URL that serves a version's document. */
function documentUrl(ctx: Context, spec: OpenAPISpecRecord, version: OpenAPISpecVersionRecord) {
  return ctx.urls.api(`${specPath(spec)}/versions/${version.id}/${DOCUMENT_FILE}`);
}

/** The version object. */
export function presentVersion(ctx: Context, spec: OpenAPISpecRecord, version: OpenAPISpecVersionRecord): v.InferInput<typeof OpenAPISpecVersionSchema> {
  return {
    object: 'openapi-spec-version',
    id: version.id,
    createdAt: version.createdAt,
    url: documentUrl(ctx, spec, version),
    urls: { location: ctx.urls.api(`${specPath(spec)}/versions/${version.id}`) },
  };
}

/** A version's content: its one file, the document, under DOCUMENT_FILE, and the URL serving it. */
export async function presentContent(ctx: Context, spec: OpenAPISpecRecord, version: OpenAPISpecVersionRecord): Promise<v.InferInput<typeof OpenAPISpecContentSchema>> {
  return { filesystem: { [DOCUMENT_FILE]: await readDocument(ctx, version) }, url: documentUrl(ctx, spec, version) };
}

/** A version's document, parsed. */
export async function readDocument(ctx: Context, version: OpenAPISpecVersionRecord): Promise<Record<string, unknown>> {
  return JSON.parse(new TextDecoder().decode(await versionDocument(ctx, version))) as Record<string, unknown>;
}

/** The specification of an organization with this slug, if there is one. */
export async function findSpec(ctx: Pick<Context, 'tx'>, organizationId: string, slug: string): Promise<OpenAPISpecRecord | undefined> {
  const { items } = await ctx.tx.list(TABLES.openAPISpecs, { index: INDEXES.openAPISpecsByKey, value: specKey(organizationId, slug), limit: 1 });
  return items[0] as OpenAPISpecRecord | undefined;
}

/** Loads a specification by slug to change it, or 404. */
export async function loadSpecToChange(ctx: Context, organizationId: string, slug: string): Promise<OpenAPISpecRecord> {
  const spec = await findSpec(ctx, organizationId, slug);
  if (!spec) throw notFound(`No OpenAPI specification ${slug} in organization ${organizationId}`);
  return spec;
}

/**
 * Loads a specification by slug to read it, or 404. When its processing died (see processing.ts), the
 * read schedules it again: reading a specification is what heals it.
 */
export async function loadSpec(ctx: Context, organizationId: string, slug: string): Promise<OpenAPISpecRecord> {
  const spec = await loadSpecToChange(ctx, organizationId, slug);
  resumeIfStale(ctx, spec);
  return spec;
}

/** Loads a version of a specification, or 404. */
export async function loadVersion(ctx: Context, spec: OpenAPISpecRecord, versionId: string): Promise<OpenAPISpecVersionRecord> {
  const version = (await ctx.tx.get(TABLES.openAPISpecVersions, versionId)) as OpenAPISpecVersionRecord | undefined;
  if (!version || version.specId !== spec.id) throw notFound(`No version ${versionId} of OpenAPI specification ${spec.slug}`);
  return version;
}

/** Loads the latest version of a specification, or 404 while it has none. */
export async function loadLatestVersion(ctx: Context, spec: OpenAPISpecRecord): Promise<OpenAPISpecVersionRecord> {
  const version = await latestVersion(ctx.tx, spec);
  if (!version) throw notFound(`OpenAPI specification ${spec.slug} has no version yet`);
  return version;
}
