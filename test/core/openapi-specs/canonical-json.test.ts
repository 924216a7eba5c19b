import fc from 'fast-check';
import { expect, it } from 'vitest';
import { canonicalJsonBytes } from '../../../src/core/openapi-specs/canonical-json.js';

/**
 * The canonical form gives every version its digest, and digests already stored were made by the nested
 * strings this model builds: the bytes must stay the same, whatever the keys and strings hold.
 */
function model(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(model).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${model((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

const encode = (text: string) => new TextEncoder().encode(text);

it('writes the bytes of the nested-string form, for any JSON value and any size hint', () => {
  // Strings of any UTF-16 code units (escapes, lone surrogates, astral characters), keys that look like indexes.
  const unit = fc.oneof(fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), fc.constantFrom('a', '10', '9', '"', '\\'));
  const text = fc.string({ unit, maxLength: 8 });
  const { json } = fc.letrec((tie) => ({
    json: fc.oneof({ depthSize: 'medium' }, text, fc.double(), fc.boolean(), fc.constant(null), fc.array(tie('json')), fc.dictionary(text, tie('json'))),
  }));
  fc.assert(
    fc.property(json, fc.nat(64), (value, hint) => {
      expect(canonicalJsonBytes(value, hint)).toEqual(encode(model(value)));
    }),
    { numRuns: 500 },
  );
  // ~2 s idle; five times that on a loaded machine.
}, 60_000);

it('sorts keys by code units, numbers and escapes as JSON.stringify writes them', () => {
  const value = { b: [1.5, -0, 1e21, null, true], a: ['é\u2028"\\\n', 'x\ud800', '😀'], 10: {}, 9: [] };
  expect(new TextDecoder().decode(canonicalJsonBytes(value))).toBe('{"10":{},"9":[],"a":["é\u2028\\"\\\\\\n","x\\ud800","😀"],"b":[1.5,0,1e+21,null,true]}');
});
