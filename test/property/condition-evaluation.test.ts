import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conditionProblem } from '../../src/core/sites/adaptive/condition.js';
import { conditionHolds } from '../../src/core/sites/adaptive/evaluate.js';
import { runs } from './runs.js';

/**
 * Conditions are JavaScript expressions (condition.ts), so JavaScript itself is the model of their meaning:
 * for random expressions of the accepted grammar and random claims, conditionHolds says what the expression
 * evaluates to in JavaScript over `visitor = { claims: { ...signed, unsigned } }`, made truthy.
 */

const SIGNED = ['isBeta', 'isStaff', 'plan'];
const UNSIGNED = ['fromCampaign', 'hideBeta'];
const claims = { signed: new Set(SIGNED), unsigned: new Set(UNSIGNED) };

const claim = fc.oneof(
  fc.constantFrom(...SIGNED).map((name) => `visitor.claims.${name}`),
  fc.constantFrom(...SIGNED).map((name) => `visitor.claims["${name}"]`),
  fc.constantFrom(...UNSIGNED).map((name) => `visitor.claims.unsigned.${name}`),
  fc.constantFrom(...UNSIGNED).map((name) => `visitor?.claims?.unsigned?.${name}`),
);
const literal = fc.constantFrom('true', 'false', 'null', '"pro"', '0', '1');

const { expression } = fc.letrec<{ expression: string }>((tie) => ({
  expression: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    claim,
    literal,
    tie('expression').map((inner) => `!(${inner})`),
    fc.tuple(tie('expression'), fc.constantFrom('&&', '||', '==', '!=', '===', '!=='), tie('expression')).map(([a, op, b]) => `(${a}) ${op} (${b})`),
    fc.tuple(tie('expression'), tie('expression'), tie('expression')).map(([a, b, c]) => `(${a}) ? (${b}) : (${c})`),
  ),
}));

/** Some claims of a visitor: each claim absent or a boolean. */
const bag = (names: string[]) =>
  fc.record(Object.fromEntries(names.map((name) => [name, fc.boolean()])), { requiredKeys: [] }) as fc.Arbitrary<Record<string, boolean>>;

describe('conditions evaluate as JavaScript does', () => {
  it('agrees with JavaScript on every accepted expression', () => {
    fc.assert(
      fc.property(expression, bag(SIGNED), bag(UNSIGNED), (text, signed, unsigned) => {
        expect(conditionProblem(text, claims)).toBeNull();
        const visitor = { claims: { ...signed, unsigned } };
        // The model: JavaScript's own evaluation of the same text.
        const expected = Boolean(new Function('visitor', `return (${text});`)(visitor));
        expect(conditionHolds(text, { signed, unsigned })).toBe(expected);
      }),
      { numRuns: runs(500) },
    );
  });

  it('is false for what it cannot evaluate, whatever the claims', () => {
    for (const text of ['', 'visitor.claims.isBeta(', 'alert(1)', 'visitor.claims.isBeta + 1', 'window.location', 'visitor.claims.constructor.constructor("return 1")()']) {
      expect(conditionHolds(text, { signed: { isBeta: true }, unsigned: {} })).toBe(false);
    }
    // Inherited properties are not claims.
    expect(conditionHolds('visitor.claims.toString', { signed: {}, unsigned: {} })).toBe(false);
    expect(conditionHolds('!visitor.claims.unsigned.constructor', { signed: {}, unsigned: {} })).toBe(true);
  });
});
