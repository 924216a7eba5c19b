import type { Context } from '../context.js';
import { listQuery, mapPage, pageOf } from '../pagination.js';
import { readOperation } from '../operation.js';
import { requireOpenAPISpecs } from '../permissions.js';
import { INDEXES, TABLES, type OpenAPISpecVersionRecord } from '../records.js';
import { Id } from '../schemas.js';
import { loadLatestVersion, loadSpec, loadVersion, presentContent, presentVersion, readDocument } from './present.js';
import { OpenAPIDocumentSchema, OpenAPISpecContentSchema, OpenAPISpecVersionList, OpenAPISpecVersionSchema, SpecSlugParam } from './schemas.js';

/** Path parameters naming a specification. */
const ofSpec = { organizationId: Id, specSlug: SpecSlugParam };
/** Path parameters naming one version. */
const oneVersion = { ...ofSpec, versionId: Id };

/** Checks that the caller may read the organization's specifications, then loads one (404, then 403, then 404). */
async function readSpec(ctx: Context, organizationId: string, specSlug: string) {
  await requireOpenAPISpecs(ctx, organizationId, 'view', 'read OpenAPI specifications');
  return loadSpec(ctx, organizationId, specSlug);
}

/** Loads the specification a request names and its version: `versionId`, or else the latest (404 while there is none). */
async function readVersion(ctx: Context, input: { organizationId: string; specSlug: string; versionId?: string }) {
  const spec = await readSpec(ctx, input.organizationId, input.specSlug);
  const version = input.versionId === undefined ? await loadLatestVersion(ctx, spec) : await loadVersion(ctx, spec, input.versionId);
  return { spec, version };
}

/** Lists the versions of a specification, newest first; members with a role. */
export const listOpenAPISpecVersions = readOperation({
  name: 'listOpenAPISpecVersions',
  summary: 'List the versions of an OpenAPI specification',
  params: ofSpec,
  query: listQuery,
  response: OpenAPISpecVersionList,
  async run(ctx, input) {
    const spec = await readSpec(ctx, input.organizationId, input.specSlug);
    const page = await pageOf(ctx.tx, TABLES.openAPISpecVersions, { index: INDEXES.openAPISpecVersionsBySpec, value: spec.id, order: 'desc' }, input);
    return mapPage(page, (version) => presentVersion(ctx, spec, version as OpenAPISpecVersionRecord));
  },
});

/** Gets the latest version of a specification; 404 until one was processed. */
export const getLatestOpenAPISpecVersion = readOperation({
  name: 'getLatestOpenAPISpecVersion',
  summary: 'Get the latest version of an OpenAPI specification',
  params: ofSpec,
  response: OpenAPISpecVersionSchema,
  run: async (ctx, input) => {
    const { spec, version } = await readVersion(ctx, input);
    return presentVersion(ctx, spec, version);
  },
});

/** Gets the content of the latest version of a specification; 404 until one was processed. */
export const getLatestOpenAPISpecVersionContent = readOperation({
  name: 'getLatestOpenAPISpecVersionContent',
  summary: 'Get the content of the latest version of an OpenAPI specification',
  params: ofSpec,
  response: OpenAPISpecContentSchema,
  run: async (ctx, input) => {
    const { spec, version } = await readVersion(ctx, input);
    return presentContent(ctx, spec, version);
  },
});

/** Gets a version of a specification by its id. */
export const getOpenAPISpecVersion = readOperation({
  name: 'getOpenAPISpecVersion',
  summary: 'Get a version of an OpenAPI specification',
  params: oneVersion,
  response: OpenAPISpecVersionSchema,
  run: async (ctx, input) => {
    const { spec, version } = await readVersion(ctx, input);
    return presentVersion(ctx, spec, version);
  },
});

/** Gets the content of a version of a specification. */
export const getOpenAPISpecVersionContent = readOperation({
  name: 'getOpenAPISpecVersionContent',
  summary: 'Get the content of a version of an OpenAPI specification',
  params: oneVersion,
  response: OpenAPISpecContentSchema,
  run: async (ctx, input) => {
    const { spec, version } = await readVersion(ctx, input);
    return presentContent(ctx, spec, version);
  },
});

/** Serves the document of a version (the version's `url`): the OpenAPI document itself, as JSON. */
export const getOpenAPISpecVersionDocument = readOperation({
  name: 'getOpenAPISpecVersionDocument',
  summary: 'Get the OpenAPI document of a version of an OpenAPI specification',
  params: oneVersion,
  response: OpenAPIDocumentSchema,
  run: async (ctx, input) => readDocument(ctx, (await readVersion(ctx, input)).version),
});
