import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonBytes, lazyJson, serializeJson } from '../../src/core/json-text.js';
import { runs } from './runs.js';

/**
 * The JSON a job made, sent on as bytes (core/json-text.ts): a result holding stand-ins serializes to the
 * bytes of what JSON.stringify prints for the same result with each stand-in's value in its place, whatever
 * the values and the strings around them hold (a NUL, the mark's own words, any Unicode); and a stand-in
 * reads, prints, clones and changes as the value it stands for.
 */

const decode = (body: string | Uint8Array) => (typeof body === 'string' ? body : new TextDecoder().decode(body));

/** A JSON object, as a stand-in would hold (a document: an object at the top). */
const object = fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 6 });
/** Strings that look like the mark a stand-in prints while it is spliced. */
const lookalike = fc.constantFrom('\u0000json-text:', '\u0000json-text:00:0', '"\\u0000json-text:', '\u0000');

describe('JSON text made in a thread', () => {
  it('splices each stand-in into the bytes JSON.stringify gives for its value', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(object, fc.jsonValue(), lookalike), { maxLength: 4 }), fc.array(object, { minLength: 1, maxLength: 3 }), fc.nat(), (around, values, repeat) => {
        const standIns = values.map((value) => lazyJson<Record<string, unknown>>(jsonBytes(value), Object.keys(value)));
        // One stand-in may stand twice in a result.
        const result = { around, values: [...standIns, standIns[repeat % standIns.length]] };
        const plain = { around, values: [...values, values[repeat % values.length]] };
        const body = serializeJson(result);
        expect(body).toBeInstanceOf(Uint8Array);
        expect(decode(body)).toBe(JSON.stringify(plain));
        // Spliced, the stand-ins were not parsed: printed again, they give the same.
        expect(decode(serializeJson(result))).toBe(JSON.stringify(plain));
      }),
      { numRuns: runs(200) },
    );
  });

  it('prints a result without stand-ins as JSON.stringify does, as text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(serializeJson({ value })).toBe(JSON.stringify({ value }));
      }),
      { numRuns: runs(100) },
    );
  });

  it('reads, prints, clones and changes a stand-in as its value', () => {
    const value = { object: 'document', data: { é: '→ 😀' }, nodes: [{ key: 'a', nodes: [] }] };
    const keys = ['object', 'data', 'nodes'] as const;
    expect(lazyJson<typeof value>(jsonBytes(value), keys)).toEqual(value);
    expect(lazyJson<typeof value>(jsonBytes(value), keys).nodes[0].key).toBe('a');
    expect(JSON.stringify(lazyJson(jsonBytes(value), keys))).toBe(JSON.stringify(value));
    expect(structuredClone(lazyJson(jsonBytes(value), keys))).toEqual(value);
    const changed = lazyJson<{ object: string; data: unknown; nodes: unknown[] }>(jsonBytes(value), keys);
    changed.nodes = [];
    expect(changed).toEqual({ ...value, nodes: [] });
    // Once read, it is a plain object, which the response prints as text.
    const read = lazyJson<typeof value>(jsonBytes(value), keys);
    void read.object;
    expect(serializeJson({ read })).toBe(JSON.stringify({ read: value }));
  });
});
