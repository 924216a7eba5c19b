import type { WriteContext } from '../context.js';
import { conflict } from '../errors.js';
import { listQuery, mapPage, pageOf } from '../pagination.js';
import { readOperation, writeOperation } from '../operation.js';
import { requireOpenAPISpecs } from '../permissions.js';
import { INDEXES, TABLES, type OpenAPISpecRecord } from '../records.js';
import { Id } from '../schemas.js';
import { findSpec, loadSpec, loadSpecToChange, presentSpec, specKey } from './present.js';
import { resumeIfStale, scheduleProcessing, withSource, type SpecSourceInput } from './processing.js';
import { OpenAPISpecList, OpenAPISpecSchema, SpecSlug, SpecSlugParam, SpecSource } from './schemas.js';
import { exclusive, organizationScope } from '../scopes.js';

/** Path parameters naming one specification to read or delete. */
const one = { organizationId: Id, specSlug: SpecSlugParam };

/** Stores a new specification, pending, and schedules its first processing. */
async function insertSpec(ctx: WriteContext, organizationId: string, slug: string, source: SpecSourceInput): Promise<OpenAPISpecRecord> {
  const base: OpenAPISpecRecord = {
    id: ctx.ids.id(),
    organizationId,
    key: specKey(organizationId, slug),
    slug,
    processingState: 'pending',
    processingSince: ctx.now,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  const spec = withSource(base, source, ctx.now);
  await ctx.tx.insert(TABLES.openAPISpecs, spec);
  scheduleProcessing(ctx, spec.id);
  return spec;
}

/** Lists an organization's OpenAPI specifications, oldest first; members with a role. */
export const listOpenAPISpecs = readOperation({
  name: 'listOpenAPISpecs',
  summary: 'List the OpenAPI specifications of an organization',
  params: { organizationId: Id },
  query: listQuery,
  response: OpenAPISpecList,
  async run(ctx, input) {
    const { member } = await requireOpenAPISpecs(ctx, input.organizationId, 'view', 'list OpenAPI specifications');
    const page = await pageOf(ctx.tx, TABLES.openAPISpecs, { index: INDEXES.openAPISpecsByOrganization, value: input.organizationId }, input);
    return mapPage(page, (record) => {
      const spec = record as OpenAPISpecRecord;
      resumeIfStale(ctx, spec);
      return presentSpec(ctx, spec, member);
    });
  },
});

/**
 * Creates an OpenAPI specification from a URL or a text; `create` role and above. The slug is unique in
 * the organization (409). It answers at once, `pending`: the source is processed in the background.
 */
export const createOpenAPISpec = writeOperation({
  name: 'createOpenAPISpec',
  heavy: true,
  summary: 'Create an OpenAPI specification',
  params: { organizationId: Id },
  body: { slug: SpecSlug, source: SpecSource },
  response: OpenAPISpecSchema,
  locks: ({ organizationId }) => [exclusive(organizationScope(organizationId))],
  async run(ctx, { organizationId, slug, source }) {
    // Its slug must stay unique: two creations with one slug queue.
    await ctx.tx.lock(organizationScope(organizationId), 'exclusive');
    const { member } = await requireOpenAPISpecs(ctx, organizationId, 'edit', 'create OpenAPI specifications');
    if (await findSpec(ctx, organizationId, slug)) {
      throw conflict(`slug: an OpenAPI specification ${slug} exists in this organization; PUT to update it`);
    }
    return presentSpec(ctx, await insertSpec(ctx, organizationId, slug, source), member);
  },
});

/** Gets an OpenAPI specification by its slug; members with a role. */
export const getOpenAPISpec = readOperation({
  name: 'getOpenAPISpec',
  summary: 'Get an OpenAPI specification',
  params: one,
  response: OpenAPISpecSchema,
  async run(ctx, { organizationId, specSlug }) {
    const { member } = await requireOpenAPISpecs(ctx, organizationId, 'view', 'read OpenAPI specifications');
    return presentSpec(ctx, await loadSpec(ctx, organizationId, specSlug), member);
  },
});

/**
 * Creates the specification with this slug, or gives an existing one a new source; `create` role and
 * above. Either way it is processed again in the background (a URL is fetched again even when it is the
 * same URL): the answer is `pending`, and an unchanged document adds no version.
 */
export const putOpenAPISpec = writeOperation({
  name: 'putOpenAPISpec',
  heavy: true,
  summary: 'Create or update an OpenAPI specification',
  params: { organizationId: Id, specSlug: SpecSlug },
  body: { source: SpecSource },
  response: OpenAPISpecSchema,
  async run(ctx, { organizationId, specSlug, source }) {
    const { member } = await requireOpenAPISpecs(ctx, organizationId, 'edit', 'create or update OpenAPI specifications');
    const existing = await findSpec(ctx, organizationId, specSlug);
    if (!existing) return presentSpec(ctx, await insertSpec(ctx, organizationId, specSlug, source), member);
    const updated = withSource(existing, source, ctx.now);
    await ctx.tx.put(TABLES.openAPISpecs, updated);
    scheduleProcessing(ctx, updated.id);
    return presentSpec(ctx, updated, member);
  },
});

/** Deletes an OpenAPI specification and all its versions; `create` role and above. A run still going is discarded. */
export const deleteOpenAPISpec = writeOperation({
  name: 'deleteOpenAPISpec',
  summary: 'Delete an OpenAPI specification',
  params: one,
  response: null,
  async run(ctx, { organizationId, specSlug }) {
    await requireOpenAPISpecs(ctx, organizationId, 'edit', 'delete OpenAPI specifications');
    const spec = await loadSpecToChange(ctx, organizationId, specSlug);
    const { items } = await ctx.tx.list(TABLES.openAPISpecVersions, { index: INDEXES.openAPISpecVersionsBySpec, value: spec.id });
    for (const version of items) await ctx.tx.delete(TABLES.openAPISpecVersions, version.id);
    await ctx.tx.delete(TABLES.openAPISpecs, spec.id);
  },
});
