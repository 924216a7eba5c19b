import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { caseInsensitivePattern } from '../../src/adapters/openapi/case-insensitive.js';
import { extractComponents } from '../../src/adapters/openapi/components.js';
import { convert } from '../../src/adapters/openapi/convert.js';
import { buildOpenApiDocument } from '../../src/adapters/openapi/document.js';
import { readOperation, route } from '../../src/core/operation.js';
import { QueryBoolean, QueryStringList, queryInteger } from '../../src/core/schemas.js';

/** The conversion rules for what the official converter cannot convert on its own (src/adapters/openapi/convert.ts). */

describe('converting valibot schemas', () => {
  it('describes a query value by its type, not by its text forms', () => {
    expect(convert(queryInteger(1, 1000), 'query')).toEqual({ type: 'integer', minimum: 1, maximum: 1000 });
    expect(convert(v.optional(QueryBoolean, false), 'query')).toEqual({ type: 'boolean', default: false });
    expect(convert(QueryStringList, 'query')).toEqual({ type: 'array', items: { type: 'string' } });
    // In a body, a string or a list of strings are two JSON shapes, both allowed.
    expect(convert(QueryStringList, 'body')).toEqual({ anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] });
  });

  it('converts pipes with lengths, patterns, integers and bounds, picklists, optional and nullable fields, unions and objects', () => {
    const schema = v.object({
      title: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
      slug: v.pipe(v.string(), v.regex(/^[a-z]+$/)),
      count: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10)),
      kind: v.picklist(['a', 'b']),
      note: v.optional(v.string()),
      parent: v.nullable(v.string()),
      either: v.union([v.string(), v.number()]),
    });
    expect(convert(schema, 'body')).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 1, maxLength: 64 },
        slug: { type: 'string', pattern: '^[a-z]+$' },
        count: { type: 'integer', minimum: 0, maximum: 10 },
        kind: { type: 'string', enum: ['a', 'b'] },
        note: { type: 'string' },
        parent: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      },
      required: ['title', 'slug', 'count', 'kind', 'parent', 'either'],
    });
  });

  it('notes a value normalised before it is checked, and keeps the rules that follow', () => {
    const schema = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.minLength(1), v.regex(/^[a-z]+$/));
    expect(convert(schema, 'body')).toEqual({
      type: 'string',
      minLength: 1,
      pattern: '^[a-z]+$',
      description: 'Leading and trailing whitespace is removed before it is checked. Converted to lower case before it is checked.',
    });
  });

  it('states a custom rule in the description, and drops checks that hold for every JSON value', () => {
    const schema = v.pipe(v.string(), v.check((text) => text !== 'root', 'must not be root'));
    expect(convert(schema, 'body')).toEqual({ type: 'string', description: 'Also checked: must not be root.' });
    expect(convert(v.pipe(v.number(), v.finite()), 'body')).toEqual({ type: 'number' });
  });

  it('rewrites a case-insensitive regex, joins a second regex through allOf, and refuses other flags', () => {
    expect(convert(v.pipe(v.string(), v.regex(/^https?:\/\//i)), 'body')).toEqual({ type: 'string', pattern: '^[hH][tT][tT][pP][sS]?:\\/\\/' });
    expect(convert(v.pipe(v.string(), v.regex(/^a/), v.regex(/b$/)), 'body')).toEqual({ type: 'string', pattern: '^a', allOf: [{ pattern: 'b$' }] });
    expect(() => convert(v.pipe(v.string(), v.regex(/^a$/m)), 'body')).toThrow(/flags/);
  });

  it('fails, naming the endpoint, on a schema it cannot convert', () => {
    const odd = readOperation({ name: 'oddOperation', summary: 'Odd', body: { when: v.date() }, response: null, run: async () => {} });
    expect(() => buildOpenApiDocument([route('POST', '/v1/odd', odd, 204)])).toThrow(/POST \/v1\/odd \(oddOperation\).*"date"/);
  });
});

describe('caseInsensitivePattern', () => {
  const PATTERNS = [
    /^https?:\/\//i,
    /^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/i,
    /^(?<scheme>ftp|sftp):[^A-F\]]+\x41\u0042$/i,
    /^(?:hello|w[o0]rld)\s*\d{2,3}$/i,
    /^[^a-c]x$/i,
    /^[\x41-\x46_]+\u{62}$/iu,
  ];

  it('matches what the regex with the i flag matches, and nothing else', () => {
    for (const regex of PATTERNS) {
      // JSON Schema validators compile patterns in Unicode mode; other flags than i are kept as they are.
      const rewritten = new RegExp(caseInsensitivePattern(regex.source), regex.flags.replace('i', ''));
      const shaped = fc.stringMatching(new RegExp(regex.source.replace(/\(\?<\w+>/g, '('), regex.flags.replace('i', '')));
      const mixedCase = shaped.chain((text) => fc.array(fc.boolean(), { minLength: text.length, maxLength: text.length }).map((flips) =>
        [...text].map((c, i) => (flips[i] ? c.toUpperCase() : c.toLowerCase())).join(''),
      ));
      fc.assert(
        fc.property(fc.oneof(fc.string({ maxLength: 12 }), shaped, mixedCase), (text) => {
          expect(rewritten.test(text), `${regex} vs ${rewritten} on ${JSON.stringify(text)}`).toBe(regex.test(text));
        }),
        { numRuns: 300 },
      );
    }
  });
});

describe('extractComponents', () => {
  const long = (name: string) => ({ type: 'string', description: `${name} `.repeat(40) });
  const thing = { type: 'object', properties: { object: { const: 'thing' }, note: long('note') } };
  const other = { type: 'object', properties: { object: { const: 'thing' }, other: long('other') } };
  const settings = { type: 'object', properties: { colour: long('colour') } };

  it('moves objects met twice into components, named by `object`, `<Item>List` or where they were met', () => {
    const list = { type: 'object', properties: { items: { type: 'array', items: thing }, count: { type: 'number' } } };
    const { schemas, components } = extractComponents(
      [
        { schema: thing, hint: 'a' },
        { schema: list, hint: 'b' },
        { schema: list, hint: 'c' },
        { schema: { type: 'object', properties: { settings } }, hint: 'd' },
        { schema: { type: 'object', properties: { settings, other, again: other } }, hint: 'e' },
        { schema: { type: 'object', properties: { small: { type: 'object', properties: {} } } }, hint: 'f' },
      ] as unknown as Parameters<typeof extractComponents>[0],
      new Set(['Thing']),
    );
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    expect(schemas.slice(0, 3)).toEqual([ref('Thing2'), ref('Thing2List'), ref('Thing2List')]);
    expect(components.Thing2List).toEqual({ type: 'object', properties: { items: { type: 'array', items: ref('Thing2') }, count: { type: 'number' } } });
    expect(schemas[3]).toEqual({ type: 'object', properties: { settings: ref('Settings') } });
    expect(schemas[4]).toEqual({ type: 'object', properties: { settings: ref('Settings'), other: ref('Thing3'), again: ref('Thing3') } });
    expect(schemas[5]).toEqual({ type: 'object', properties: { small: { type: 'object', properties: {} } } });
    expect(Object.keys(components).sort()).toEqual(['Settings', 'Thing2', 'Thing2List', 'Thing3']);
  });
});
