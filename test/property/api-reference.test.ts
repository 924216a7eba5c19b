import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildReference, OPERATION_EXAMPLE_CHARS, OPERATION_NODES } from '../../src/core/content/api-reference/build-reference.js';
import { MAX_EXAMPLE_CHARS } from '../../src/core/content/api-reference/example.js';
import type { ApiOperation, SchemaNode } from '../../src/core/content/api-reference/model.js';
import { referenceMarkdown } from '../../src/core/content/api-reference/reference-markdown.js';
import { MAX_DEPTH, nodeCount } from '../../src/core/content/api-reference/schema-tree.js';
import { renderApiReference } from '../../src/reader/api-reference.js';
import { layoutWordsOf } from '../../src/reader/layout-words.js';
import { runs } from './runs.js';

/**
 * Any OpenAPI document, however its schemas refer to one another (cycles, missing targets, malformed
 * pointers, values of the wrong type), gives a page model within its bounds, which both renderers render
 * without throwing: no tree deeper than MAX_DEPTH, no operation past its share of nodes and of example text.
 */

const NAMES = ['A', 'B', 'C'];
const ref = fc.constantFrom(...NAMES.map((name) => `#/components/schemas/${name}`), '#/components/schemas/Missing', '#/x/~1bad%', '#', 'other.json#/A').map(($ref) => ({ $ref }));
const value = fc.jsonValue({ maxDepth: 2 });
const text = fc.string({ maxLength: 12 });

const leaf = fc.record(
  {
    type: fc.constantFrom<unknown>('string', 'integer', 'number', 'boolean', 'null', ['string', 'null'], 'object', 'array', 'weird', 7),
    format: fc.constantFrom('date-time', 'email', 'uuid', 'int64', ''),
    minimum: fc.integer({ min: -5, max: 5 }),
    maximum: fc.oneof(fc.integer(), fc.constant(1e309)),
    exclusiveMinimum: fc.oneof(fc.boolean(), fc.integer()),
    minLength: fc.nat(100),
    maxLength: fc.nat(),
    pattern: text,
    enum: fc.oneof(fc.array(value, { maxLength: 60 }), value),
    const: value,
    default: value,
    example: value,
    examples: fc.oneof(fc.array(value, { maxLength: 2 }), value),
    description: text,
    deprecated: fc.oneof(fc.boolean(), value),
    readOnly: fc.boolean(),
    writeOnly: fc.boolean(),
    nullable: fc.boolean(),
  },
  { requiredKeys: [] },
);

const { schema } = fc.letrec<{ schema: unknown; object: unknown; array: unknown; composition: unknown }>((tie) => ({
  schema: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, ref, tie('object'), tie('array'), tie('composition'), fc.anything({ maxDepth: 1 })),
  object: fc.record(
    {
      type: fc.constant('object'),
      properties: fc.dictionary(fc.constantFrom('id', 'name', 'next', 'items', '__proto__', 'x y'), tie('schema'), { maxKeys: 4 }),
      required: fc.oneof(fc.array(fc.constantFrom('id', 'name', 'next')), value),
      additionalProperties: fc.oneof(fc.boolean(), tie('schema')),
      description: text,
    },
    { requiredKeys: ['properties'] },
  ),
  array: fc.record({ type: fc.constant('array'), items: tie('schema'), minItems: fc.nat(3), uniqueItems: fc.boolean() }, { requiredKeys: ['items'] }),
  composition: fc.record({ kind: fc.constantFrom('oneOf', 'anyOf', 'allOf'), variants: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }) }).map(({ kind, variants }) => ({ [kind]: variants })),
}));

const media = fc.record({ schema, example: value, examples: fc.dictionary(text, fc.record({ value, summary: text }, { requiredKeys: [] }), { maxKeys: 2 }) }, { requiredKeys: ['schema'] });
const content = fc.dictionary(fc.constantFrom('application/json', 'text/plain', 'application/xml', '*/*'), media, { minKeys: 1, maxKeys: 2 });
const parameter = fc.record({ name: fc.constantFrom('id', 'limit', 'X-Key'), in: fc.constantFrom('path', 'query', 'header', 'cookie', 'body'), required: fc.boolean(), deprecated: fc.boolean(), schema, example: value }, { requiredKeys: ['name', 'in'] });
const operation = fc.record(
  {
    operationId: text,
    summary: text,
    deprecated: fc.boolean(),
    parameters: fc.array(fc.oneof(parameter, ref), { maxLength: 3 }),
    requestBody: fc.record({ required: fc.boolean(), content }, { requiredKeys: ['content'] }),
    responses: fc.dictionary(fc.constantFrom('200', '201', '404', 'default', '5XX'), fc.record({ description: text, content, headers: fc.dictionary(text, parameter, { maxKeys: 2 }) }, { requiredKeys: [] }), { maxKeys: 3 }),
    security: fc.array(fc.dictionary(fc.constantFrom('key', 'oauth'), fc.array(text, { maxLength: 2 }), { maxKeys: 2 }), { maxLength: 2 }),
    servers: fc.array(fc.record({ url: fc.constantFrom('https://{a}.example', '/v1', 7) }), { maxLength: 2 }),
  },
  { requiredKeys: [] },
);
const document = fc.record({
  openapi: fc.constant('3.1.0'),
  info: fc.record({ title: text, version: text, description: text }, { requiredKeys: [] }),
  paths: fc.dictionary(fc.constantFrom('/a', '/a/{id}', '/b', '/<b>'), fc.dictionary(fc.constantFrom('get', 'post', 'delete', 'parameters'), operation, { maxKeys: 3 }), { maxKeys: 3 }),
  components: fc.record({
    schemas: fc.record({ A: schema, B: schema, C: schema }),
    securitySchemes: fc.dictionary(fc.constantFrom('key', 'oauth', 'basic'), fc.oneof(fc.record({ type: fc.constantFrom('apiKey', 'http', 'oauth2', 'openIdConnect', 'basic') }), value), { maxKeys: 3 }),
  }),
});

/** The deepest level of a tree below its root. */
function depthOf(node: SchemaNode): number {
  const children = [...node.properties, ...(node.items ? [node.items] : []), ...(node.additional ? [node.additional] : []), ...(node.composition?.variants ?? [])];
  return children.length === 0 ? 0 : 1 + Math.max(...children.map(depthOf));
}

/** The trees of an operation, and its examples' texts. */
function partsOf(found: ApiOperation): { trees: SchemaNode[]; examples: string[] } {
  const medias = [...(found.requestBody?.contents ?? []), ...found.responses.flatMap((response) => response.contents)];
  const parameters = [...found.parameters, ...found.responses.flatMap((response) => response.headers)];
  const trees = [...parameters.map((item) => item.schema), ...medias.flatMap((item) => (item.schema ? [item.schema] : []))];
  const examples = [...medias.flatMap((item) => item.examples.map((example) => example.value)), ...parameters.flatMap((item) => (item.example === undefined ? [] : [item.example]))];
  return { trees, examples };
}

describe('the page model of any OpenAPI document', () => {
  it('is built within its bounds, and renders as Markdown and HTML without throwing', async () => {
    await fc.assert(
      fc.asyncProperty(document, async (generated) => {
        const reference = buildReference(JSON.parse(JSON.stringify(generated)));
        for (const found of reference.operations) {
          const { trees, examples } = partsOf(found);
          for (const tree of trees) expect(depthOf(tree)).toBeLessThanOrEqual(MAX_DEPTH);
          // Each tree takes at least its root, past the operation's share once that is spent.
          expect(trees.reduce((sum, tree) => sum + nodeCount(tree), 0)).toBeLessThanOrEqual(OPERATION_NODES.max + trees.length);
          for (const example of examples) expect(example.length).toBeLessThanOrEqual(MAX_EXAMPLE_CHARS + 2);
          expect(examples.reduce((sum, example) => sum + example.length, 0)).toBeLessThanOrEqual(OPERATION_EXAMPLE_CHARS.max + 2 * examples.length);
        }
        expect(typeof referenceMarkdown(reference)).toBe('string');
        const rendered = await renderApiReference(reference, {}, layoutWordsOf('en'));
        expect(rendered.headings.map((heading) => heading.anchor)).toEqual(reference.operations.map((found) => found.anchor));
        expect(new Set(rendered.headings.map((heading) => heading.anchor)).size).toBe(rendered.headings.length);
        expect(rendered.html).not.toMatch(/<(script|img|b)[\s>]/);
      }),
      { numRuns: runs(200) },
    );
    // A run builds and renders a whole document: ~0.1 s under load, so the deep runs take tens of seconds.
  }, 120_000);
});
