import { describe, expect, it } from 'vitest';
import { buildReference, MAX_OPERATIONS } from '../../../src/core/content/api-reference/build-reference.js';
import type { ApiOperation, SchemaNode } from '../../../src/core/content/api-reference/model.js';
import { referenceMarkdown } from '../../../src/core/content/api-reference/reference-markdown.js';
import { MAX_DEPTH, nodeCount } from '../../../src/core/content/api-reference/schema-tree.js';
import { RICH_DOCUMENT } from './rich-document.js';

/** The page model of an OpenAPI document: what each part of an operation shows, and its bounds. */

const reference = buildReference(RICH_DOCUMENT);
const operation = (id: string) => reference.operations.find((found) => found.operationId === id)!;
const field = (node: SchemaNode | undefined, name: string) => node?.properties.find((property) => property.name === name);
const mediaOf = (found: ApiOperation, status: string) => found.responses.find((response) => response.status === status)!.contents[0];

/** The deepest level of a tree below its root. */
function depthOf(node: SchemaNode): number {
  const children = [...node.properties, ...(node.items ? [node.items] : []), ...(node.additional ? [node.additional] : []), ...(node.composition?.variants ?? [])];
  return children.length === 0 ? 0 : 1 + Math.max(...children.map(depthOf));
}

describe('the page model of an OpenAPI document', () => {
  it('lists the servers, their variables filled, and the security schemes in words', () => {
    expect(reference.servers).toEqual([{ url: 'https://eu.pets.example/v2', description: 'Production' }]);
    expect(reference.securitySchemes.map((scheme) => [scheme.name, scheme.summary])).toEqual([
      ['bearerAuth', 'Authorization: Bearer <token> (JWT)'],
      ['apiKey', 'header X-Api-Key'],
      ['oauth', 'OAuth 2.0'],
    ]);
    expect(reference.securitySchemes[2].flows).toEqual([{ kind: 'authorizationCode', urls: ['https://auth.pets.example/authorize', 'https://auth.pets.example/token'], scopes: [{ name: 'write:pets', description: 'Change pets' }] }]);
  });

  it('gives each operation its anchor, servers, security and deprecated flag', () => {
    expect(reference.operations.map((found) => found.anchor)).toEqual(['get-pets', 'post-pets', 'get-petspetid', 'delete-petspetid', 'post-search']);
    expect(operation('getPet').deprecated).toBe(true);
    expect(operation('getPet').servers).toEqual([{ url: 'https://legacy.pets.example/v1' }]);
    expect(operation('listPets').security).toEqual([{ schemes: [{ name: 'bearerAuth', scopes: [] }] }]);
    expect(operation('createPet').security).toEqual([{ schemes: [{ name: 'oauth', scopes: ['write:pets'] }] }, { schemes: [{ name: 'apiKey', scopes: [] }] }]);
    expect(operation('deletePet').security).toEqual([]);
  });

  it('shows parameters with their place, required and deprecated flags, limits, enum, default and example', () => {
    const [limit, status] = operation('listPets').parameters;
    expect(limit).toMatchObject({ name: 'limit', in: 'query', required: false, deprecated: false, example: '10', schema: { type: 'integer', default: '20', constraints: ['≥ 1', '≤ 100'] } });
    expect(status).toMatchObject({ deprecated: true, schema: { type: 'Status', ref: 'Status', enum: ['"available"', '"pending"', '"sold"'], default: '"available"' } });
    // A path item's parameter applies to each of its operations.
    expect(operation('deletePet').parameters[0]).toMatchObject({ name: 'petId', in: 'path', required: true, schema: { constraints: ['format: uuid', 'pattern: ^[0-9a-f-]{36}$'] } });
  });

  it('expands schemas: fields with their flags and limits, nested objects, arrays and additional properties', () => {
    const pet = mediaOf(operation('createPet'), '201').schema!;
    expect(pet.ref).toBe('Pet');
    expect(field(pet, 'id')).toMatchObject({ type: 'integer', required: true, readOnly: true, constraints: ['format: int64'] });
    expect(field(pet, 'name')).toMatchObject({ required: true, constraints: ['1 to 64 characters'] });
    expect(field(pet, 'tag')).toMatchObject({ type: 'string or null', nullable: true, description: 'A free tag' });
    expect(field(pet, 'weight')).toMatchObject({ deprecated: true, constraints: ['> 0', 'multiple of 0.5'] });
    expect(field(pet, 'metadata')!.additional).toMatchObject({ type: 'string' });
    expect(field(field(pet, 'owner'), 'email')).toMatchObject({ constraints: ['format: email'] });
    const list = mediaOf(operation('listPets'), '200').schema!;
    expect(list).toMatchObject({ type: 'array of Pet', constraints: ['at most 100 items'] });
    expect(field(list.items, 'name')).toBeDefined();
  });

  it('cuts a $ref cycle where it meets a schema it is inside of, and stops at the depth bound', () => {
    const pet = mediaOf(operation('createPet'), '201').schema!;
    expect(field(pet, 'children')!.items).toMatchObject({ ref: 'Pet', cut: 'cycle', properties: [] });
    expect(field(field(pet, 'owner'), 'pets')!.items).toMatchObject({ ref: 'Pet', cut: 'cycle' });
    const deep = mediaOf(operation('search'), '200').schema!;
    expect(depthOf(deep)).toBe(MAX_DEPTH);
    let node: SchemaNode = deep;
    while (field(node, 'next')) node = field(node, 'next')!;
    expect(node.cut).toBe('depth');
  });

  it('shows allOf, oneOf and anyOf as such, each variant expanded', () => {
    const newPet = operation('createPet').requestBody!.contents[0].schema!;
    expect(newPet.composition?.kind).toBe('allOf');
    expect(newPet.composition?.variants.map((variant) => variant.properties.map((property) => property.name))).toEqual([['name', 'kind'], ['meows']]);
    const pet = mediaOf(operation('getPet'), '200').schema!;
    expect(pet).toMatchObject({ type: 'one of', composition: { kind: 'oneOf' } });
    expect(pet.composition!.variants.map((variant) => variant.ref)).toEqual(['Cat', 'Dog']);
    expect(operation('search').requestBody!.contents[0].schema!.composition?.kind).toBe('anyOf');
  });

  it('takes examples from the document, and makes one from the schema where there is none', () => {
    const body = operation('createPet').requestBody!;
    expect(body).toMatchObject({ required: true, description: 'The pet to add' });
    // The example given by an external URL is not fetched, so not shown.
    expect(body.contents[0].examples).toEqual([{ title: 'A cat', value: JSON.stringify({ name: 'Tom', kind: 'cat', meows: true }, null, 2), generated: false }]);
    expect(mediaOf(operation('search'), '200').examples).toEqual([{ value: '{\n  "depth": 0\n}', generated: false }]);
    const made = mediaOf(operation('createPet'), '201').examples;
    expect(made).toHaveLength(1);
    expect(made[0].generated).toBe(true);
    const value = JSON.parse(made[0].value);
    // A response shows read-only fields and leaves write-only ones out; formats and defaults give the values.
    expect(value).toMatchObject({ id: 0, name: 'string', status: 'available', owner: { email: 'user@example.com', pets: [] }, children: [], metadata: { key: 'string' }, weight: 0.5 });
    expect(value).not.toHaveProperty('secret');
    expect(buildReference(RICH_DOCUMENT)).toEqual(reference);
  });

  it('writes each request as a curl command: server URL, required parameters, credentials, example body', () => {
    expect(operation('createPet').sample).toBe(
      [`curl -X POST 'https://eu.pets.example/v2/pets'`, `-H 'Authorization: Bearer <token>'`, `-H 'Content-Type: application/json'`, `-d '${JSON.stringify({ name: 'Tom', kind: 'cat', meows: true }, null, 2)}'`].join(' \\\n  '),
    );
    expect(operation('getPet').sample).toBe(`curl -X GET 'https://legacy.pets.example/v1/pets/<petId>' \\\n  -H 'Authorization: Bearer <token>'`);
    expect(operation('deletePet').sample).toBe(`curl -X DELETE 'https://eu.pets.example/v2/pets/<petId>'`);
    const keyed = buildReference({
      openapi: '3.0.3',
      info: { title: 'Keys', version: '1' },
      servers: [{ url: '/api/' }],
      security: [{ key: [] }],
      components: { securitySchemes: { key: { type: 'apiKey', in: 'query', name: 'api key' } } },
      paths: { '/items/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true, example: "it's" }, { name: 'q', in: 'query', required: true, schema: { type: 'string', default: 'a b' } }], responses: {} } } },
    });
    expect(keyed.operations[0].sample).toBe(`curl -X GET '/api/items/it'\\''s?q=a%20b&api%20key=<api key>'`);
    // Without a server there is nowhere to send it.
    expect(buildReference({ openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: { '/a': { get: { responses: {} } } } }).operations[0].sample).toBeUndefined();
  });

  it('reads responses by $ref, their headers, and Swagger 2.0 documents', () => {
    const listed = operation('listPets').responses;
    expect(listed.map((response) => response.status)).toEqual(['200', 'default']);
    expect(listed[0].headers).toMatchObject([{ name: 'X-Rate-Limit', in: 'header', description: 'Requests left this hour', schema: { constraints: ['≥ 0'] } }]);
    expect(listed[1]).toMatchObject({ description: 'Something went wrong', contents: [{ mediaType: 'application/json', schema: { ref: 'Error' } }] });
    const swagger = buildReference({
      swagger: '2.0',
      info: { title: 'Legacy', version: '1' },
      host: 'legacy.example.com',
      basePath: '/v1',
      schemes: ['https'],
      securityDefinitions: { basic: { type: 'basic' } },
      security: [{ basic: [] }],
      paths: {
        '/things': {
          post: {
            parameters: [{ name: 'body', in: 'body', required: true, schema: { type: 'object', properties: { size: { type: 'integer', maximum: 9 } } } }, { name: 'q', in: 'query', type: 'string', enum: ['a', 'b'] }],
            responses: { '200': { description: 'OK', schema: { type: 'string' }, examples: { 'application/json': 'done' } } },
          },
        },
      },
    });
    expect(swagger.servers).toEqual([{ url: 'https://legacy.example.com/v1' }]);
    expect(swagger.securitySchemes).toMatchObject([{ name: 'basic', type: 'http', summary: 'Authorization: Basic <credentials>' }]);
    const [found] = swagger.operations;
    expect(found.parameters).toMatchObject([{ name: 'q', in: 'query', schema: { type: 'string', enum: ['"a"', '"b"'] } }]);
    expect(found.requestBody).toMatchObject({ required: true, contents: [{ mediaType: 'application/json', schema: { properties: [{ name: 'size', constraints: ['≤ 9'] }] } }] });
    expect(found.responses[0].contents[0].examples).toEqual([{ value: '"done"', generated: false }]);
    expect(found.sample).toMatch(/^curl -X POST 'https:\/\/legacy\.example\.com\/v1\/things' \\\n  -u '<username>:<password>'/);
  });

  it('stays bounded on a huge document: operations, schema nodes and example text', () => {
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 50 }, (_, at) => [`field${at}`, { $ref: '#/components/schemas/Wide' }])) };
    const paths = Object.fromEntries(Array.from({ length: MAX_OPERATIONS + 10 }, (_, at) => [`/things/${at}`, { get: { responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/Wide' } } } } } } }]));
    const huge = buildReference({ openapi: '3.1.0', info: { title: 'Huge', version: '1' }, paths, components: { schemas: { Wide: wide } } });
    expect(huge.operations).toHaveLength(MAX_OPERATIONS);
    expect(huge.omittedOperations).toBe(10);
    const schema = huge.operations[0].responses[0].contents[0].schema!;
    // Not one of its 50 self-referring fields fits the operation's share: the object stops, saying why.
    expect(schema.cut).toBe('budget');
    const nodes = huge.operations.reduce((sum, found) => sum + nodeCount(found.responses[0].contents[0].schema!), 0);
    expect(nodes).toBeLessThanOrEqual(MAX_OPERATIONS * 40);
    expect(referenceMarkdown(huge)).toContain('_10 more operations are not shown');
  });
});
