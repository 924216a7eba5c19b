import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { parseOrThrow } from '../../src/core/validate.js';

/** The message of the 400 a value gets, or 'ok'. */
function outcome(schema: v.GenericSchema, value: unknown): string {
  try {
    parseOrThrow(schema, value);
    return 'ok';
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 400) throw error;
    return error.message;
  }
}

describe('parseOrThrow refuses arrays where objects belong', () => {
  const Position = v.object({ before: v.optional(v.object({ id: v.optional(v.string()) })) });
  const schema = v.object({
    position: v.optional(Position),
    meta: v.optional(v.record(v.string(), v.object({ value: v.optional(v.unknown()) }))),
    list: v.optional(v.array(v.object({ name: v.optional(v.string()) }))),
    either: v.optional(v.union([v.array(v.string()), v.object({ a: v.optional(v.string()) })])),
    body: v.optional(v.pipe(v.object({ markdown: v.optional(v.string()) }), v.check(() => true))),
  });

  it.each([
    [{ position: [] }, 'position: must be an object, not an array'],
    [{ position: { before: [] } }, 'position.before: must be an object, not an array'],
    [{ meta: [] }, 'meta: must be an object, not an array'],
    [{ meta: { x: [] } }, 'meta.x: must be an object, not an array'],
    [{ list: [{ name: 'a' }, []] }, 'list.1: must be an object, not an array'],
    [{ body: [] }, 'body: must be an object, not an array'],
    [[], 'value: must be an object, not an array'],
  ])('refuses %j', (value, message) => {
    expect(outcome(schema, value)).toBe(message);
  });

  it.each([[{}], [{ position: { before: { id: 'x' } } }], [{ either: [] }], [{ either: ['a'] }], [{ either: { a: 'b' } }], [{ list: [] }], [{ meta: { x: {} } }], [{ unknown: [] }]])(
    'accepts %j',
    (value) => {
      expect(outcome(schema, value)).toBe('ok');
    },
  );

  it('still refuses an array in a union whose options are all objects', () => {
    const union = v.union([v.object({ a: v.string() }), v.object({ b: v.optional(v.string()) })]);
    expect(outcome(union, [])).toBe('value: must be an object, not an array');
  });
});

describe('parseOrThrow refuses text that is not well-formed', () => {
  const schema = v.object({
    title: v.optional(v.pipe(v.string(), v.maxLength(64, 'must be at most 64 characters'))),
    meta: v.optional(v.record(v.string(), v.object({ value: v.optional(v.unknown()) }))),
    list: v.optional(v.array(v.string())),
    url: v.optional(v.pipe(v.string(), v.url())),
  });

  it.each([
    [{ title: '\ud800' }, 'title: must be well-formed Unicode text (a lone surrogate at index 0)'],
    [{ title: 'ab\udc00' }, 'title: must be well-formed Unicode text (a lone surrogate at index 2)'],
    [{ title: '\ud83d\ude00\ud83d' }, 'title: must be well-formed Unicode text (a lone surrogate at index 2)'],
    [{ title: '\ude00\ud83d' }, 'title: must be well-formed Unicode text (a lone surrogate at index 0)'],
    [{ list: ['a', 'b\ud800c'] }, 'list.1: must be well-formed Unicode text (a lone surrogate at index 1)'],
    [{ meta: { x: { value: { deep: ['\udfff'] } } } }, 'meta.x.value.deep.0: must be well-formed Unicode text (a lone surrogate at index 0)'],
    [{ meta: { 'a\ud800': { value: 1 } } }, 'meta.a\ufffd: the key must be well-formed Unicode text (a lone surrogate at index 1)'],
    [{ '\udc00': 1 }, '\ufffd: the key must be well-formed Unicode text (a lone surrogate at index 0)'],
    // Checked before the schema runs: its actions (v.url here) never see a lone surrogate.
    [{ url: 'https://x.test/\ud800', title: 5 }, 'url: must be well-formed Unicode text (a lone surrogate at index 15)'],
    ['\ud800', 'value: must be well-formed Unicode text (a lone surrogate at index 0)'],
  ])('refuses %j', (value, message) => {
    expect(outcome(schema, value)).toBe(message);
  });

  it.each([[{ title: '\ud83d\ude00 emoji' }], [{ title: '\ufffd' }], [{ meta: { 'ключ 🔑': { value: ['😀'] } } }], [{ list: [] }]])('accepts %j', (value) => {
    expect(outcome(schema, value)).toBe('ok');
  });

  it('names the prefix given', () => {
    expect(() => parseOrThrow(schema, { title: '\ud800' }, 'markdown: frontmatter')).toThrow('markdown: frontmatter.title: must be well-formed');
  });

  it('refuses nesting deeper than it walks, instead of overflowing the stack', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(outcome(schema, { meta: { x: { value: deep } } })).toBe('meta: must be nested at most 256 levels deep');
    let fine: unknown = 'x';
    for (let i = 0; i < 200; i++) fine = [fine];
    expect(outcome(schema, { meta: { x: { value: fine } } })).toBe('ok');
  });
});
