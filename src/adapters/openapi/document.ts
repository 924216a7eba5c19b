import type { JsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import type { Entries, Route } from '../../core/operation.js';
import { ErrorSchema } from '../../core/schemas.js';
import { extractComponents } from './components.js';
import { convert, isOptional } from './convert.js';

/**
 * Builds the OpenAPI 3.1 document of a route table: every route once, from its operation's schemas, so
 * an endpoint added to the table is documented with nothing else to write. It only reads the table.
 */

/** An OpenAPI 3.1 document (the parts this generator writes). */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers?: { url: string }[];
  security: Record<string, string[]>[];
  tags: { name: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
}

/** One operation of the document. */
export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: { name: string; in: 'path' | 'query'; required: boolean; schema: JsonSchema }[];
  requestBody?: { required: boolean; content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }>;
  security?: Record<string, string[]>[];
  /** True for a route that is not in the specification (from the public API, or our own). */
  'x-extension'?: true;
}

/** The name of the bearer security scheme. */
export const SECURITY_SCHEME = 'bearerAuth';
const ERROR_REF = { $ref: '#/components/schemas/Error' };

const SUCCESS_DESCRIPTIONS: Record<Route['status'], string> = {
  200: 'OK',
  201: 'Created',
  204: 'No content',
  205: 'Done (reset content: no body)',
};

/**
 * The tag that groups an operation on the reference page: the first literal segment of its path after
 * `/v1`, skipping an `orgs/{organizationId}` prefix that has more after it (`/v1/orgs/{o}/teams` → teams).
 */
function tagOf(path: string): string {
  let segments = path.split('/').slice(2);
  if (segments[0] === 'orgs' && segments.length > 2) segments = segments.slice(2);
  return segments.find((segment) => !segment.startsWith('{')) ?? 'orgs';
}

function parameters(entries: Entries, place: 'path' | 'query'): NonNullable<OpenApiOperation['parameters']> {
  return Object.entries(entries).map(([name, schema]) => ({
    name,
    in: place,
    // A path parameter is always required in OpenAPI; the router only matches a non-empty segment.
    required: place === 'path' || !isOptional(schema),
    schema: convert(schema, place),
  }));
}

function operationOf(route: Route): OpenApiOperation {
  try {
    return describe(route);
  } catch (error) {
    // Name the endpoint: the converter's message alone does not say which of 100+ operations failed.
    throw new Error(`OpenAPI: cannot describe ${route.method} ${route.path} (${route.operation.name}): ${(error as Error).message} (see src/adapters/openapi/convert.ts)`);
  }
}

function describe(route: Route): OpenApiOperation {
  const { operation } = route;
  const operationObject: OpenApiOperation = {
    operationId: operation.name,
    summary: operation.summary,
    tags: [tagOf(route.path)],
    responses: {},
  };
  const params = [...parameters(operation.params, 'path'), ...parameters(operation.query, 'query')];
  if (params.length > 0) operationObject.parameters = params;
  if (operation.body !== null) {
    const body = v.object(operation.body);
    operationObject.requestBody = {
      // An absent or empty body is read as `{}`, so a body is required only when a field is.
      required: Object.values(operation.body).some((schema) => !isOptional(schema)),
      content: { 'application/json': { schema: convert(body, 'body') } },
    };
  }
  const success: OpenApiOperation['responses'][string] = { description: SUCCESS_DESCRIPTIONS[route.status] };
  if (operation.response) {
    const schema = convert(operation.response, 'response');
    success.content = { 'application/json': { schema } };
    // The pipeline sets Location on a 201 whose body carries `urls.location`.
    const urls = (schema.properties as Record<string, JsonSchema> | undefined)?.urls;
    if (route.status === 201 && (urls?.properties as Record<string, unknown> | undefined)?.location) {
      success.headers = { Location: { description: 'The URL of the created resource in the API', schema: { type: 'string', format: 'uri' } } };
    }
  }
  operationObject.responses[String(route.status)] = success;
  const hasInput = params.length > 0 || operation.body !== null;
  if (hasInput) operationObject.responses['400'] = errorResponse('The path, query or body is not valid; the message names the field');
  if (route.authenticated === false) operationObject.security = [];
  else {
    operationObject.responses['401'] = {
      ...errorResponse('The Authorization header is missing, malformed or holds an unknown token'),
      headers: { 'WWW-Authenticate': { description: 'The challenge: `Bearer realm="docs-platform"`', schema: { type: 'string' } } },
    };
  }
  operationObject.responses.default = errorResponse(
    'Any other failure: 403 (not permitted), 404 (not found, or not visible to the caller), 409 (conflict), 413, 415, 500',
  );
  if (route.extension) {
    operationObject['x-extension'] = true;
    operationObject.description = 'Extension: this endpoint is not in the specification (it comes from the public API or is our own).';
  }
  return operationObject;
}

function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: ERROR_REF } } };
}

/** Builds the document of a route table. Throws when a schema cannot be converted (see convert.ts). */
export function buildOpenApiDocument(routes: readonly Route[]): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    const item = (paths[route.path] ??= {});
    item[route.method.toLowerCase()] = operationOf(route);
  }
  const tags = [...new Set(routes.map((route) => tagOf(route.path)))].map((name) => ({ name }));
  const errorSchemas = { Error: convert(ErrorSchema, 'response') };
  const shared = shareSchemas(Object.values(paths).flatMap((item) => Object.values(item)), new Set(Object.keys(errorSchemas)));
  return {
    openapi: '3.1.0',
    info: {
      title: 'docs-platform API',
      // The version of the API, as in its paths (`/v1`).
      version: 'v1',
      description:
        'Generated from the route table and the valibot schemas that validate every request and response. ' +
        'Operations marked `x-extension: true` are not in the specification. Authenticate with `Authorization: Bearer <token>`.',
    },
    security: [{ [SECURITY_SCHEME]: [] }],
    tags,
    paths,
    components: {
      schemas: { ...errorSchemas, ...shared },
      securitySchemes: { [SECURITY_SCHEME]: { type: 'http', scheme: 'bearer', description: 'An API token, e.g. the one `npm start` prints on its first start' } },
    },
  };
}

/** Replaces the objects the operations repeat by references to components (see components.ts); returns the components. */
function shareSchemas(operations: OpenApiOperation[], taken: ReadonlySet<string>): Record<string, JsonSchema> {
  const slots: { schema: JsonSchema; hint: string; put: (schema: JsonSchema) => void }[] = [];
  for (const operation of operations) {
    for (const parameter of operation.parameters ?? []) {
      slots.push({ schema: parameter.schema, hint: parameter.name, put: (schema) => (parameter.schema = schema) });
    }
    const body = operation.requestBody?.content['application/json'];
    if (body) slots.push({ schema: body.schema, hint: `${operation.operationId}Body`, put: (schema) => (body.schema = schema) });
    for (const response of Object.values(operation.responses)) {
      const content = response.content?.['application/json'];
      const schema = content?.schema as JsonSchema | undefined;
      if (content && schema && schema.$ref === undefined) {
        slots.push({ schema, hint: `${operation.operationId}Response`, put: (rewritten) => (content.schema = rewritten) });
      }
    }
  }
  const { schemas, components } = extractComponents(slots, taken);
  slots.forEach((slot, index) => slot.put(schemas[index]));
  return components;
}

const built = new WeakMap<readonly Route[], OpenApiDocument>();

/** The document of a route table, built on first use and kept: the table does not change while it serves. */
export function openApiDocument(routes: readonly Route[]): OpenApiDocument {
  let document = built.get(routes);
  if (!document) {
    document = buildOpenApiDocument(routes);
    built.set(routes, document);
  }
  return document;
}
