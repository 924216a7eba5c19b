import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, SECURITY_SCHEME, type OpenApiOperation } from '../../src/adapters/openapi/document.js';
import { routes } from '../../src/core/routes.js';

/**
 * The generated OpenAPI document: valid OpenAPI 3.1 (checked by a validator package, and every schema in it
 * against the JSON Schema 2020-12 meta-schema), the route table exactly, and parameters that accept what
 * the pipeline accepts and refuse what it refuses.
 */

const document = buildOpenApiDocument(routes);
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
);
const ajv = new Ajv2020({ strict: true, allErrors: true, validateFormats: false });

/** Every schema object of the document, with where it is. */
function schemasOf(): { where: string; schema: object }[] {
  const found: { where: string; schema: object }[] = [];
  for (const { key, operation } of operations) {
    for (const parameter of operation.parameters ?? []) found.push({ where: `${key} ${parameter.in} ${parameter.name}`, schema: parameter.schema });
    if (operation.requestBody) found.push({ where: `${key} body`, schema: operation.requestBody.content['application/json'].schema });
    for (const [status, response] of Object.entries(operation.responses)) {
      const schema = response.content?.['application/json']?.schema as object | undefined;
      if (schema) found.push({ where: `${key} ${status}`, schema });
    }
  }
  for (const [name, schema] of Object.entries(document.components.schemas)) found.push({ where: `components.schemas.${name}`, schema });
  return found;
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', { timeout: 60_000 }, async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone({ ...document, servers: [{ url: 'http://127.0.0.1:8080' }] }));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('holds only JSON Schema 2020-12 schemas that compile in strict mode', () => {
    // Each schema against the meta-schema; then all of them at once (each distinct one once, with the
    // components as $defs so their $refs resolve) through Ajv's strict mode, which refuses unknown keywords.
    const unique = new Map(schemasOf().map((entry) => [JSON.stringify(entry.schema), entry]));
    const problems = [...unique.values()].filter(({ schema }) => !ajv.validateSchema(schema)).map(({ where }) => `${where}: ${ajv.errorsText(ajv.errors)}`);
    expect(problems).toEqual([]);
    const catalogue = JSON.parse(
      JSON.stringify({ $defs: document.components.schemas, anyOf: [...unique.values()].map(({ schema }) => schema) }).replaceAll('"#/components/schemas/', '"#/$defs/'),
    );
    expect(() => ajv.compile(catalogue)).not.toThrow();
  }, 30_000);

  it('has every route of the table, with its success status, and nothing else', () => {
    const inTable = routes.map((route) => `${route.method} ${route.path}`).sort();
    expect(operations.map(({ key }) => key).sort()).toEqual(inTable);
    const problems: string[] = [];
    for (const route of routes) {
      const operation = document.paths[route.path][route.method.toLowerCase()];
      const key = `${route.method} ${route.path}`;
      const successes = Object.keys(operation.responses).filter((status) => /^[23]/.test(status));
      if (successes.join() !== String(route.status)) problems.push(`${key}: success statuses ${successes.join()}, the route answers ${route.status}`);
      if (operation.operationId !== route.operation.name) problems.push(`${key}: operationId ${operation.operationId}`);
      if (operation.summary !== route.operation.summary) problems.push(`${key}: summary ${operation.summary}`);
      if (Boolean(operation['x-extension']) !== Boolean(route.extension)) problems.push(`${key}: x-extension ${operation['x-extension']}`);
      const open = route.authenticated === false;
      if (open !== (JSON.stringify(operation.security) === '[]')) problems.push(`${key}: security ${JSON.stringify(operation.security)}`);
      const names = (operation.parameters ?? []).map((parameter) => `${parameter.in}:${parameter.name}`).sort();
      const expected = [
        ...Object.keys(route.operation.params).map((name) => `path:${name}`),
        ...Object.keys(route.operation.query).map((name) => `query:${name}`),
      ].sort();
      if (names.join() !== expected.join()) problems.push(`${key}: parameters ${names.join()}, the operation takes ${expected.join()}`);
      if (Boolean(operation.requestBody) !== (route.operation.body !== null)) problems.push(`${key}: request body ${Boolean(operation.requestBody)}`);
      const hasBody = Boolean(operation.responses[String(route.status)].content);
      if (hasBody !== (route.operation.response !== null)) problems.push(`${key}: response body ${hasBody}`);
      if (!operation.responses.default?.content) problems.push(`${key}: no error response`);
    }
    expect(problems).toEqual([]);
  });

  it('refers to the objects it repeats as components, named after their `object`', () => {
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const schemaOf = (method: string, path: string, status: string) => document.paths[path][method].responses[status].content!['application/json'].schema;
    expect(schemaOf('get', '/v1/orgs/{organizationId}', '200')).toEqual(ref('Organization'));
    expect(schemaOf('patch', '/v1/orgs/{organizationId}', '200')).toEqual(ref('Organization'));
    expect(schemaOf('get', '/v1/orgs', '200')).toMatchObject({ properties: { items: { type: 'array', items: ref('Organization') } } });
    expect(document.components.schemas.Member).toMatchObject({ properties: { object: { const: 'member' }, user: ref('User') } });
    // Small objects stay where they are.
    expect(document.components.schemas.Organization).toMatchObject({ properties: { trial: { type: 'object' } } });
    expect(JSON.stringify(document).length).toBeLessThan(2_000_000);
  });

  it('describes bearer authentication and the one error shape', () => {
    expect(document.components.securitySchemes[SECURITY_SCHEME]).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ [SECURITY_SCHEME]: [] }]);
    const validate = ajv.compile(document.components.schemas.Error);
    expect(validate({ error: { code: 404, message: 'No team t1' } })).toBe(true);
    expect(validate({ error: { code: 404 } })).toBe(false);
    expect(validate({ error: { code: 4.5, message: 'x' } })).toBe(false);
  });

  it('states the limits and patterns of parameters and bodies', () => {
    const operation = (method: string, path: string): OpenApiOperation => document.paths[path][method];
    const parameter = (op: OpenApiOperation, name: string) => op.parameters!.find((entry) => entry.name === name)!;
    const members = operation('get', '/v1/orgs/{organizationId}/members');
    expect(parameter(members, 'limit')).toEqual({ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000 } });
    expect(parameter(members, 'search').schema).toEqual({ type: 'string', maxLength: 512 });
    expect(parameter(members, 'order').schema).toEqual({ type: 'string', enum: ['asc', 'desc'], default: 'desc' });
    expect(parameter(members, 'organizationId')).toMatchObject({ in: 'path', required: true, schema: { type: 'string', minLength: 1, maxLength: 200 } });
    const update = operation('patch', '/v1/orgs/{organizationId}').requestBody!;
    expect(update.required).toBe(false);
    const fields = update.content['application/json'].schema.properties as Record<string, any>;
    expect(fields.title).toMatchObject({ type: 'string', minLength: 2, maxLength: 255 });
    expect(fields.hostname).toMatchObject({ minLength: 3, maxLength: 32, pattern: '^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$' });
    expect(fields.defaultRole.anyOf).toContainEqual({ type: 'null' });
    const createTeam = operation('put', '/v1/orgs/{organizationId}/teams').requestBody!;
    expect(createTeam.required).toBe(true);
    expect(createTeam.content['application/json'].schema).toMatchObject({ required: ['title'], properties: { title: { minLength: 1, maxLength: 64 } } });
    const domain = parameter(operation('get', '/v1/email-domains/{emailDomain}/orgs'), 'emailDomain').schema;
    expect(domain.description).toMatch(/lower case/);
  });

  it('has parameters that accept exactly what the pipeline accepts (for generated text)', () => {
    // Each string parameter's JSON Schema and its valibot schema agree on ASCII text, short and long,
    // random and shaped like the pattern. (JSON Schema counts code points, valibot UTF-16 units: ASCII
    // keeps them equal.) Numbers and booleans in a query are typed values in the document: see convert.ts.
    const stringParameters = routes.flatMap((route) => {
      const op = document.paths[route.path][route.method.toLowerCase()];
      return (op.parameters ?? [])
        .filter((parameter) => parameter.schema.type === 'string')
        .map((parameter) => ({
          where: `${route.method} ${route.path} ${parameter.name}`,
          json: ajv.compile(parameter.schema),
          valibot: (parameter.in === 'path' ? route.operation.params : route.operation.query)[parameter.name],
          pattern: parameter.schema.pattern as string | undefined,
          // A value lower-cased before it is checked is described in its lower-case form (convert.ts).
          lowerCased: String(parameter.schema.description ?? '').includes('lower case'),
        }));
    });
    expect(stringParameters.length).toBeGreaterThan(10);
    for (const parameter of stringParameters) {
      const text = fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.string({ minLength: 190, maxLength: 2100 }),
        // fast-check cannot generate from lookaheads; without them the strings are still worth trying.
        ...(parameter.pattern ? [fc.stringMatching(new RegExp(parameter.pattern.replace(/\(\?[=!][^()]*\)/g, '')))] : []),
      );
      fc.assert(
        fc.property(text, (generated) => {
          const value = parameter.lowerCased ? generated.toLowerCase() : generated;
          const accepted = v.safeParse(parameter.valibot as v.GenericSchema, value).success;
          if (parameter.json(value) !== accepted) throw new Error(`${parameter.where}: ${JSON.stringify(value)} valibot ${accepted}, JSON Schema ${!accepted}`);
        }),
        { numRuns: 60 },
      );
    }
    // Every parameter of every route: seconds idle, past the default 10 s on a loaded machine.
  }, 60_000);
});
