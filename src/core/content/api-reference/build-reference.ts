import { headingAnchor, newSlugger } from '../markdown.js';
import { exampleFor, exampleText, type Direction } from './example.js';
import type { ApiBody, ApiExample, ApiMedia, ApiOperation, ApiParameter, ApiReference, ApiResponse } from './model.js';
import { isObject, resolve } from './refs.js';
import { declaredSchemes, requestSample } from './request-sample.js';
import { nodeCount, schemaTree } from './schema-tree.js';
import { documentServers, requirementsOf, securitySchemesOf, serversOf } from './servers-security.js';

/**
 * Builds the page model of an OpenAPI 3.x or Swagger 2.0 document (model.ts): its servers, security
 * schemes and operations, each with its parameters, request body and responses, their schemas expanded and
 * their examples. A page stays bounded whatever the document: at most MAX_OPERATIONS operations, each
 * with its share of PAGE_NODES schema nodes and PAGE_EXAMPLE_CHARS characters of examples (within the
 * bounds of OPERATION_*), shared out in turn among its schemas so that one huge body cannot starve the
 * responses after it.
 */

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** How many operations one page shows. */
export const MAX_OPERATIONS = 1000;
/** How many schema nodes a page holds, shared among its operations. */
const PAGE_NODES = 10_000;
/** How many characters of examples a page holds, shared among its operations. */
const PAGE_EXAMPLE_CHARS = 400_000;
/** What each operation gets at least and at most, of nodes and of example characters. */
export const OPERATION_NODES = { min: 40, max: 400 };
export const OPERATION_EXAMPLE_CHARS = { min: 1000, max: 20_000 };
/** How many examples one media type shows. */
const MAX_EXAMPLES = 5;
/** How many parameters, responses and media types of one operation are shown. */
const MAX_PARTS = 100;

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const clamp = (value: number, { min, max }: { min: number; max: number }) => Math.max(min, Math.min(max, Math.floor(value)));

/** What one operation may still spend. */
interface Budget {
  nodes: number;
  chars: number;
  /** How many schemas are still to be expanded: each gets its fair share of what is left. */
  schemas: number;
}

/** A schema expanded within the operation's budget. */
function treeWithin(document: Record<string, any>, budget: Budget, raw: unknown, root?: { name?: string; required?: boolean }) {
  const share = Math.max(1, Math.floor(budget.nodes / Math.max(1, budget.schemas)));
  const tree = schemaTree(document, raw, share, root);
  budget.nodes = Math.max(0, budget.nodes - nodeCount(tree));
  budget.schemas = Math.max(0, budget.schemas - 1);
  return tree;
}

/** An example's text within the operation's budget of characters; undefined once it is spent. */
function exampleWithin(budget: Budget, value: unknown, json: boolean): string | undefined {
  if (budget.chars <= 0) return undefined;
  const shown = exampleText(value, json);
  if (shown === undefined) return undefined;
  const cut = shown.length > budget.chars ? `${shown.slice(0, budget.chars)}\n…` : shown;
  budget.chars -= cut.length;
  return cut;
}

/** Whether a media type carries JSON (so that a value made from its schema is a fair example). */
const isJson = (mediaType: string) => /(^|\/|\+)json\b|^\*\/\*$/i.test(mediaType);

/** The examples of a media type: the document's (`example`, `examples`), else one made from its schema. */
function examplesOf(document: Record<string, any>, budget: Budget, mediaType: string, media: Record<string, any>, direction: Direction): ApiExample[] {
  const json = isJson(mediaType);
  const written: { title?: string; value: unknown }[] = [];
  if (media.example !== undefined) written.push({ value: media.example });
  if (isObject(media.examples)) {
    for (const [name, raw] of Object.entries(media.examples).slice(0, MAX_EXAMPLES)) {
      const example = resolve(document, raw).value;
      // `externalValue` is a URL: nothing is fetched to show it.
      if (example && example.value !== undefined) written.push({ title: text(example.summary) ?? name, value: example.value });
    }
  }
  const shown: ApiExample[] = [];
  for (const { title, value } of written.slice(0, MAX_EXAMPLES)) {
    const cut = exampleWithin(budget, value, json);
    if (cut !== undefined) shown.push({ ...(title !== undefined && { title }), value: cut, generated: false });
  }
  if (shown.length > 0 || !json || media.schema === undefined) return shown;
  const made = exampleFor(document, media.schema, direction);
  // An empty object or list says nothing the schema does not.
  const empty = made === undefined || (typeof made === 'object' && made !== null && Object.keys(made).length === 0);
  const cut = empty ? undefined : exampleWithin(budget, made, true);
  return cut === undefined ? [] : [{ value: cut, generated: true }];
}

/** The media types of a `content` map, each with its schema and examples. */
function contentsOf(document: Record<string, any>, budget: Budget, content: unknown, direction: Direction): ApiMedia[] {
  if (!isObject(content)) return [];
  return Object.entries(content)
    .slice(0, MAX_PARTS)
    .map(([mediaType, raw]) => {
      const media = isObject(raw) ? raw : {};
      const schema = media.schema === undefined ? undefined : treeWithin(document, budget, media.schema);
      return { mediaType, ...(schema && { schema }), examples: examplesOf(document, budget, mediaType, media, direction) };
    });
}

/** A parameter (or a response header, named `name`): its schema, or Swagger 2.0's fields on the parameter itself. */
function parameterOf(document: Record<string, any>, budget: Budget, parameter: Record<string, any>, name = String(parameter.name)): ApiParameter {
  const schema = parameter.schema ?? (parameter.type !== undefined ? { ...parameter, description: undefined } : parameter.content && Object.values<any>(parameter.content)[0]?.schema);
  const example = parameter.example ?? (isObject(parameter.examples) ? resolve(document, Object.values(parameter.examples)[0]).value?.value : undefined);
  const exampleShown = example === undefined ? undefined : exampleWithin(budget, example, true);
  return {
    name,
    in: String(parameter.in ?? 'header'),
    required: parameter.required === true,
    deprecated: parameter.deprecated === true,
    ...(text(parameter.description) && { description: parameter.description }),
    schema: treeWithin(document, budget, schema ?? {}, { name, required: parameter.required === true }),
    ...(exampleShown !== undefined && { example: exampleShown }),
  };
}

/** The path's and the operation's parameters, the operation's replacing the path's of the same name and place. */
function parametersOf(document: Record<string, any>, pathItem: Record<string, any>, operation: Record<string, any>): Record<string, any>[] {
  const all = [...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []), ...(Array.isArray(operation.parameters) ? operation.parameters : [])]
    .map((parameter) => resolve(document, parameter).value)
    .filter((parameter): parameter is Record<string, any> => parameter !== undefined && typeof parameter.name === 'string');
  const byPlace = new Map(all.map((parameter) => [`${parameter.in}\u0000${parameter.name}`, parameter]));
  return [...byPlace.values()].slice(0, MAX_PARTS);
}

/** The request body: OpenAPI 3's `requestBody`, or Swagger 2.0's parameter `in: body` (in the operation's `consumes`). */
function bodyOf(document: Record<string, any>, budget: Budget, operation: Record<string, any>, swaggerBody: Record<string, any> | undefined): ApiBody | undefined {
  const body = resolve(document, operation.requestBody).value;
  if (body) return { required: body.required === true, ...(text(body.description) && { description: body.description }), contents: contentsOf(document, budget, body.content, 'request') };
  if (!swaggerBody) return undefined;
  const consumes = operation.consumes ?? document.consumes;
  const mediaType = Array.isArray(consumes) && typeof consumes[0] === 'string' ? consumes[0] : 'application/json';
  return { required: swaggerBody.required === true, ...(text(swaggerBody.description) && { description: swaggerBody.description }), contents: contentsOf(document, budget, { [mediaType]: { schema: swaggerBody.schema } }, 'request') };
}

/** The responses, by status; Swagger 2.0's `schema` and `examples` read as one content in the operation's `produces`. */
function responsesOf(document: Record<string, any>, budget: Budget, operation: Record<string, any>): ApiResponse[] {
  if (!isObject(operation.responses)) return [];
  const produces = operation.produces ?? document.produces;
  const swaggerType = Array.isArray(produces) && typeof produces[0] === 'string' ? produces[0] : 'application/json';
  return Object.entries(operation.responses)
    .slice(0, MAX_PARTS)
    .map(([status, raw]) => {
      const response = resolve(document, raw).value ?? {};
      const content = response.content ?? (response.schema !== undefined ? { [swaggerType]: { schema: response.schema, ...(isObject(response.examples) && { example: Object.values(response.examples)[0] }) } } : undefined);
      const headers = isObject(response.headers)
        ? Object.entries(response.headers)
            .slice(0, MAX_PARTS)
            .map(([name, header]) => resolve(document, header).value)
            .map((header, at) => header && parameterOf(document, budget, { ...header, in: 'header' }, Object.keys(response.headers)[at]))
            .filter((header): header is ApiParameter => header !== undefined)
        : [];
      return { status, ...(text(response.description) && { description: response.description }), headers, contents: contentsOf(document, budget, content, 'response') };
    });
}

/** How many schemas an operation expands, for the shares of its budget. */
function schemaCount(operation: Record<string, any>, parameters: readonly unknown[]): number {
  const responses = isObject(operation.responses) ? Object.keys(operation.responses).length : 0;
  const bodies = isObject(operation.requestBody?.content) ? Object.keys(operation.requestBody.content).length : 1;
  return parameters.length + bodies + responses;
}

/** The operations of a document in order, with their path item: at most MAX_OPERATIONS, and how many more there are. */
function operationsIn(document: Record<string, any>) {
  const found: { path: string; method: (typeof METHODS)[number]; item: Record<string, any>; operation: Record<string, any> }[] = [];
  let omitted = 0;
  for (const [path, raw] of Object.entries(isObject(document.paths) ? document.paths : {})) {
    const item = resolve(document, raw).value;
    for (const method of METHODS) {
      if (!isObject(item?.[method])) continue;
      if (found.length < MAX_OPERATIONS) found.push({ path, method, item: item!, operation: item![method] });
      else omitted++;
    }
  }
  return { found, omitted };
}

/** The page model of a document (see the module comment). */
export function buildReference(document: Record<string, any>): ApiReference {
  const info = isObject(document.info) ? document.info : {};
  const servers = documentServers(document);
  const security = requirementsOf(document.security);
  const { found, omitted } = operationsIn(document);
  const nodes = clamp(PAGE_NODES / Math.max(1, found.length), OPERATION_NODES);
  const chars = clamp(PAGE_EXAMPLE_CHARS / Math.max(1, found.length), OPERATION_EXAMPLE_CHARS);
  const slugger = newSlugger();
  const securitySchemes = securitySchemesOf(document);
  const declared = declaredSchemes(document);
  const operations = found.map(({ path, method, item, operation }): ApiOperation => {
    const all = parametersOf(document, item, operation);
    const swaggerBody = all.find((parameter) => parameter.in === 'body');
    const listed = all.filter((parameter) => parameter.in !== 'body');
    const budget: Budget = { nodes, chars, schemas: schemaCount(operation, listed) };
    const parameters = listed.map((parameter) => parameterOf(document, budget, parameter));
    const requestBody = bodyOf(document, budget, operation, swaggerBody);
    const ownServers = serversOf(operation.servers);
    const pathServers = serversOf(item.servers);
    const built = {
      anchor: headingAnchor(`${method.toUpperCase()} ${path}`, slugger),
      method: method.toUpperCase(),
      path,
      ...(text(operation.operationId) && { operationId: operation.operationId }),
      ...(text(operation.summary) && { summary: operation.summary }),
      ...(text(operation.description) && { description: operation.description }),
      deprecated: operation.deprecated === true,
      tags: Array.isArray(operation.tags) ? operation.tags.filter((tag: unknown): tag is string => typeof tag === 'string') : [],
      servers: ownServers.length > 0 ? ownServers : pathServers.length > 0 ? pathServers : servers,
      security: operation.security !== undefined ? requirementsOf(operation.security) : security,
      parameters,
      ...(requestBody && { requestBody }),
      responses: responsesOf(document, budget, operation),
    };
    // Without a server there is no URL to send the request to.
    return built.servers.length > 0 ? { ...built, sample: requestSample(built, securitySchemes, declared) } : built;
  });
  return {
    title: text(info.title) ?? '',
    version: typeof info.version === 'string' ? info.version : '',
    ...(text(info.description) && { description: info.description.trim() }),
    servers,
    securitySchemes,
    security,
    operations,
    omittedOperations: omitted,
  };
}
