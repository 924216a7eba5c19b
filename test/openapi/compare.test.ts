import { describe, expect, it } from 'vitest';
import { compareRequired, compareSummaries, summarize } from './compare.js';

/** The comparison that the public API test relies on finds what it should, and only that. */

const compare = (ours: object, theirs: object, theirRoot: object = {}) => compareSummaries(summarize(ours, {}), summarize(theirs, theirRoot));

describe('comparing response schemas', () => {
  it('accepts ours sending less: a subset of the enum, an integer for a number, no null where null is allowed', () => {
    expect(compare({ type: 'string', enum: ['a'] }, { type: 'string', enum: ['a', 'b'] })).toEqual([]);
    expect(compare({ type: 'integer' }, { type: 'number' })).toEqual([]);
    expect(compare({ type: 'string' }, { type: ['string', 'null'] })).toEqual([]);
    expect(compare({ const: 'team' }, { type: 'string', enum: ['team'] })).toEqual([]);
  });

  it('reports ours sending a type or a value theirs does not allow', () => {
    expect(compare({ type: 'number' }, { type: 'integer' })).toEqual([{ field: '(body)', ours: 'type number', theirs: 'type integer' }]);
    expect(compare({ anyOf: [{ type: 'string' }, { type: 'null' }] }, { type: 'string' })).toEqual([
      { field: '(body)', ours: 'type null | string', theirs: 'type string' },
    ]);
    expect(compare({ type: 'string', enum: ['a', 'z'] }, { type: 'string', enum: ['a', 'b'] })).toEqual([
      { field: '(body)', ours: 'one of "a", "z"', theirs: 'one of "a", "b"' },
    ]);
    expect(compare({ type: 'string' }, { type: 'string', enum: ['a'] })).toEqual([{ field: '(body)', ours: 'any value', theirs: 'one of "a"' }]);
  });

  it('walks objects, arrays, $refs, allOf and oneOf, comparing only the fields both define', () => {
    const theirRoot = {
      components: {
        schemas: {
          List: { type: 'object', properties: { count: { type: 'number' } } },
          Role: { oneOf: [{ type: 'string', enum: ['admin', 'read'] }, { type: 'null' }] },
          Member: { type: 'object', properties: { role: { $ref: '#/components/schemas/Role' }, since: { type: 'string' } } },
        },
      },
    };
    const theirs = {
      allOf: [
        { $ref: '#/components/schemas/List' },
        { type: 'object', properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Member' } } } },
      ],
    };
    const ours = {
      type: 'object',
      properties: {
        count: { type: 'integer' },
        extra: { type: 'boolean' },
        items: { type: 'array', items: { type: 'object', properties: { role: { anyOf: [{ type: 'string', enum: ['admin', 'guest'] }, { type: 'null' }] }, since: { type: 'number' } } } },
      },
    };
    expect(compare(ours, theirs, theirRoot)).toEqual([
      { field: 'items[].role', ours: 'one of "admin", "guest"', theirs: 'one of "admin", "read"' },
      { field: 'items[].since', ours: 'type number', theirs: 'type string' },
    ]);
  });

  it('compares nothing below where a recursive schema refers to itself', () => {
    const root = {
      components: {
        schemas: {
          Page: {
            oneOf: [
              { type: 'object', properties: { type: { const: 'document' }, pages: { type: 'array', items: { $ref: '#/components/schemas/Page' } } } },
              { type: 'object', properties: { type: { const: 'link' } } },
            ],
          },
        },
      },
    };
    const page = (depth: number): object => ({
      type: 'object',
      properties: { type: { enum: ['document', 'link'] }, ...(depth > 0 ? { pages: { type: 'array', items: page(depth - 1) } } : {}) },
    });
    expect(compare(page(3), { $ref: '#/components/schemas/Page' }, root)).toEqual([]);
    expect(compare({ type: 'object', properties: { type: { enum: ['document', 'group'] } } }, { $ref: '#/components/schemas/Page' }, root)).toEqual([
      { field: 'type', ours: 'one of "document", "group"', theirs: 'one of "document", "link"' },
    ]);
  });

  it('follows a recursive $ref once', () => {
    const root = { components: { schemas: { Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } } } } };
    const ours = { type: 'object', properties: { children: { type: 'array', items: { type: 'object' } } } };
    expect(compare(ours, { $ref: '#/components/schemas/Node' }, root)).toEqual([]);
  });

  it('reports the fields theirs requires that ours may leave out, variant by variant and in subpages', () => {
    const theirRoot = {
      components: {
        schemas: {
          Page: { oneOf: [{ $ref: '#/components/schemas/Doc' }, { $ref: '#/components/schemas/Link' }] },
          Doc: {
            allOf: [
              { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
              {
                type: 'object',
                properties: {
                  type: { enum: ['document'] },
                  layout: { type: 'object', properties: { cover: { type: 'boolean' } }, required: ['cover'] },
                  pages: { type: 'array', items: { $ref: '#/components/schemas/Page' } },
                },
                required: ['type', 'layout', 'pages'],
              },
              { oneOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { type: 'object', properties: {} }] },
            ],
          },
          Link: { type: 'object', properties: { type: { enum: ['link'] }, target: { type: 'string' } }, required: ['type', 'target'] },
        },
      },
    };
    const link = { type: 'object', properties: { type: { const: 'link' }, target: { type: 'string' } }, required: ['type'] };
    const doc = (depth: number): object => ({
      type: 'object',
      properties: {
        id: { type: 'string' },
        type: { const: 'document' },
        layout: { type: 'object', properties: { cover: { type: 'boolean' } }, required: depth === 0 ? [] : ['cover'] },
        ...(depth > 0 && { pages: { type: 'array', items: { oneOf: [doc(depth - 1), link] } } }),
      },
      required: ['id', 'type', 'layout', ...(depth > 0 ? ['pages'] : [])],
    });
    const found = compareRequired({ oneOf: [doc(1), link] }, { $ref: '#/components/schemas/Page' }, {}, theirRoot);
    expect(found).toEqual([
      { field: '[type="document"].pages[][type="document"].pages', ours: 'absent', theirs: 'required' },
      { field: '[type="document"].pages[][type="document"].layout.cover', ours: 'optional', theirs: 'required' },
      { field: '[type="document"].pages[][type="link"].target', ours: 'optional', theirs: 'required' },
      { field: '[type="link"].target', ours: 'optional', theirs: 'required' },
    ]);
  });
});
