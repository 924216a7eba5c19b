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
