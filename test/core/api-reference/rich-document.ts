/**
 * An OpenAPI 3.1 document that uses what an API reference must show: servers with variables, three kinds of
 * security scheme and per-operation security, deprecated operations and parameters, limits, enums and
 * defaults, allOf / oneOf / anyOf, examples written in the document and none (to be generated), response
 * headers, a cycle (Pet → Owner → Pet, and Pet's own children) and a chain deeper than the depth bound.
 */

/** A chain of `levels` schemas, each holding the next in its `next` property. */
function chain(levels: number): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (let level = 0; level < levels; level++) {
    schemas[`Level${level}`] = { type: 'object', properties: { depth: { type: 'integer', const: level }, ...(level + 1 < levels && { next: { $ref: `#/components/schemas/Level${level + 1}` } }) } };
  }
  return schemas;
}

export const RICH_DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Pet store', version: '2.0.0', description: 'Pets and their owners. See [the guide](https://example.com/guide).' },
  servers: [{ url: 'https://{region}.pets.example/v2', description: 'Production', variables: { region: { default: 'eu', enum: ['eu', 'us'] } } }],
  security: [{ bearerAuth: [] }],
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        summary: 'List pets',
        tags: ['pets'],
        parameters: [
          { name: 'limit', in: 'query', description: 'How many pets to return', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 }, example: 10 },
          { name: 'status', in: 'query', deprecated: true, description: 'Use `state` instead', schema: { $ref: '#/components/schemas/Status' } },
        ],
        responses: {
          '200': {
            description: 'The pets',
            headers: { 'X-Rate-Limit': { description: 'Requests left this hour', schema: { type: 'integer', minimum: 0 } } },
            content: { 'application/json': { schema: { type: 'array', maxItems: 100, items: { $ref: '#/components/schemas/Pet' } } } },
          },
          default: { $ref: '#/components/responses/Problem' },
        },
      },
      post: {
        operationId: 'createPet',
        summary: 'Add a pet',
        security: [{ oauth: ['write:pets'] }, { apiKey: [] }],
        requestBody: {
          required: true,
          description: 'The pet to add',
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/NewPet' },
              examples: { cat: { summary: 'A cat', value: { name: 'Tom', kind: 'cat', meows: true } }, external: { externalValue: 'https://example.com/dog.json' } },
            },
          },
        },
        responses: { '201': { description: 'Added', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
      },
    },
    '/pets/{petId}': {
      parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string', format: 'uuid', pattern: '^[0-9a-f-]{36}$' } }],
      get: {
        operationId: 'getPet',
        summary: 'Get a pet',
        deprecated: true,
        servers: [{ url: 'https://legacy.pets.example/v1' }],
        responses: {
          '200': { description: 'The pet', content: { 'application/json': { schema: { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }] } } } },
          '404': { $ref: '#/components/responses/Problem' },
        },
      },
      delete: { operationId: 'deletePet', summary: 'Remove a pet', security: [], responses: { '204': { description: 'Removed' } } },
    },
    '/search': {
      post: {
        operationId: 'search',
        requestBody: { content: { 'application/json': { schema: { anyOf: [{ type: 'object', properties: { text: { type: 'string', minLength: 3 } } }, { $ref: '#/components/schemas/Level0' }] } } } },
        responses: { '200': { description: 'Found', content: { 'application/json': { schema: { $ref: '#/components/schemas/Level0' }, example: { depth: 0 } } } } },
      },
    },
  },
  components: {
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A token from the dashboard' },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      oauth: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: 'https://auth.pets.example/authorize', tokenUrl: 'https://auth.pets.example/token', scopes: { 'write:pets': 'Change pets' } } } },
    },
    responses: {
      Problem: { description: 'Something went wrong', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    },
    schemas: {
      Status: { type: 'string', enum: ['available', 'pending', 'sold'], default: 'available' },
      Pet: {
        type: 'object',
        required: ['id', 'name'],
        properties: {
          id: { type: 'integer', format: 'int64', readOnly: true },
          name: { type: 'string', minLength: 1, maxLength: 64 },
          tag: { type: ['string', 'null'], description: 'A free tag' },
          status: { $ref: '#/components/schemas/Status' },
          owner: { $ref: '#/components/schemas/Owner' },
          children: { type: 'array', items: { $ref: '#/components/schemas/Pet' } },
          metadata: { type: 'object', additionalProperties: { type: 'string' } },
          secret: { type: 'string', writeOnly: true },
          weight: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.5, deprecated: true },
        },
      },
      Owner: { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' }, pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } },
      NewPet: {
        allOf: [
          { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 64 }, kind: { type: 'string', enum: ['cat', 'dog'] } } },
          { type: 'object', properties: { meows: { type: 'boolean', default: false } } },
        ],
      },
      Cat: { allOf: [{ $ref: '#/components/schemas/Pet' }, { type: 'object', properties: { meows: { type: 'boolean' } } }] },
      Dog: { allOf: [{ $ref: '#/components/schemas/Pet' }, { type: 'object', properties: { barks: { type: 'boolean' } } }] },
      Error: { type: 'object', required: ['code'], properties: { code: { type: 'integer' }, message: { type: 'string' } } },
      ...chain(12),
    },
  },
};
