import { Ajv } from 'ajv';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { conditionProblem } from '../../src/core/sites/adaptive/condition.js';
import { AdaptiveJsonSchema, AdaptiveJsonSchemaOutput, claimsOf } from '../../src/core/sites/adaptive/json-schema.js';
import { runs } from './runs.js';

/**
 * The adaptive schema check against ajv, a JSON Schema implementation: whatever the check accepts is a
 * valid draft-07 schema (ajv's meta-schema), compiles, and validates exactly the visitors whose claims
 * are the declared booleans; the stored form is what responses declare. Near misses (a wrong keyword, a
 * wrong type, an extra key, a bad claim name) are refused. Conditions naming declared claims pass the
 * condition check; any other claim is refused.
 */

const ajv = new Ajv({ strict: false });

const claimName = fc.stringMatching(/^[A-Za-z_$][A-Za-z0-9_$-]{0,12}$/).filter((name) => !['prototype', 'constructor', 'unsigned'].includes(name));
const claim = fc.record({ type: fc.constant('boolean'), description: fc.string({ maxLength: 20 }) });
const claims = fc.dictionary(claimName, claim, { maxKeys: 5 });

/** A schema of the shape of Part 3. */
const validSchema = fc
  .record(
    {
      $schema: fc.constantFrom('http://json-schema.org/draft-07/schema#', 'http://json-schema.org/draft-07/schema'),
      signed: claims,
      unsigned: fc.record({ properties: claims, described: fc.boolean() }),
    },
    { requiredKeys: ['signed'] },
  )
  .map(({ $schema, signed, unsigned }) => ({
    ...($schema !== undefined && { $schema }),
    type: 'object',
    properties: {
      ...signed,
      ...(unsigned && {
        unsigned: {
          type: 'object',
          ...(unsigned.described && { description: 'Unsigned claims of the site visitor.' }),
          properties: unsigned.properties,
          additionalProperties: false,
        },
      }),
    },
    additionalProperties: false,
  }));

/** One change that takes a valid schema out of the shape. */
const breakage = fc.constantFrom(
  (s: any) => ({ ...s, additionalProperties: true }),
  (s: any) => ({ ...s, type: 'array' }),
  (s: any) => ({ ...s, title: 'Visitors' }),
  (s: any) => ({ ...s, $schema: 'https://json-schema.org/draft/2020-12/schema' }),
  (s: any) => ({ ...s, properties: { ...s.properties, plan: { type: 'string', description: 'p' } } }),
  (s: any) => ({ ...s, properties: { ...s.properties, flag: { type: 'boolean' } } }),
  (s: any) => ({ ...s, properties: { ...s.properties, flag: { type: 'boolean', description: 'd', default: true } } }),
  (s: any) => ({ ...s, properties: { ...s.properties, '9lives': { type: 'boolean', description: 'd' } } }),
  (s: any) => ({ ...s, properties: { ...s.properties, unsigned: { type: 'object', properties: {}, additionalProperties: true } } }),
  (s: any) => ({ ...s, properties: { ...s.properties, unsigned: { type: 'object', properties: { x: { type: 'number', description: 'n' } }, additionalProperties: false } } }),
  (s: any) => {
    const { additionalProperties: _dropped, ...rest } = s;
    return rest;
  },
);

describe('adaptive schemas against ajv', () => {
  it('accepts only valid draft-07 schemas that validate exactly the declared boolean claims', () => {
    fc.assert(
      fc.property(validSchema, fc.dictionary(claimName, fc.boolean(), { maxKeys: 4 }), (input, visitor) => {
        const parsed = v.safeParse(AdaptiveJsonSchema, input);
        expect(parsed.success).toBe(true);
        if (!parsed.success) return;
        const stored = parsed.output;
        expect(v.is(AdaptiveJsonSchemaOutput, stored)).toBe(true);
        expect(ajv.validateSchema(stored), JSON.stringify(ajv.errors)).toBe(true);
        const validate = ajv.compile(stored);
        const { signed, unsigned } = claimsOf(stored);
        const declared = Object.fromEntries(Object.entries(visitor).filter(([name]) => signed.has(name)));
        expect(validate(declared)).toBe(true);
        const undeclared = Object.keys(visitor).some((name) => !signed.has(name));
        expect(validate(visitor)).toBe(!undeclared);
        if (unsigned.size > 0) {
          const [first] = unsigned;
          expect(validate({ ...declared, unsigned: { [first]: true } })).toBe(true);
          expect(validate({ ...declared, unsigned: { [first]: 'yes' } })).toBe(false);
        }
      }),
      { numRuns: runs(300) },
    );
  });

  it('refuses every near miss of the shape', () => {
    fc.assert(
      fc.property(validSchema, breakage, (input, breakIt) => {
        expect(v.safeParse(AdaptiveJsonSchema, breakIt(input)).success).toBe(false);
      }),
      { numRuns: runs(300) },
    );
  });

  it('accepts conditions over the declared claims and refuses any other claim', () => {
    fc.assert(
      fc.property(validSchema, claimName, fc.constantFrom('&&', '||', '===', '!=='), (input, other, operator) => {
        const parsed = v.parse(AdaptiveJsonSchema, input);
        const claims = claimsOf(parsed);
        const reads = [...claims.signed].map((name) => `visitor.claims[${JSON.stringify(name)}]`);
        reads.push(...[...claims.unsigned].map((name) => `!visitor.claims.unsigned[${JSON.stringify(name)}]`));
        const expression = reads.length === 0 ? 'true' : reads.join(` ${operator} `);
        expect(conditionProblem(expression, claims)).toBeNull();
        const stranger = `visitor.claims[${JSON.stringify(other)}] ${operator} true`;
        expect(conditionProblem(stranger, claims) === null).toBe(claims.signed.has(other));
      }),
      { numRuns: runs(300) },
    );
  });
});
