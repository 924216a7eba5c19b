import jsep from 'jsep';
import { pathOf } from './condition.js';

/**
 * Evaluates a condition (condition.ts says which expressions are accepted) for one visitor. Claims are
 * booleans: `visitor.claims.<name>` reads a signed claim, `visitor.claims.unsigned.<name>` an unsigned
 * one, and a claim the visitor does not bring reads as undefined (falsy). Only primitive values ever meet
 * the operators, so `==` and the others mean what they mean in JavaScript. An expression that does not
 * parse, or holds anything condition.ts refuses, is false: content is left out rather than shown.
 */

/** The claims of one visitor: signed (from a verified token) and unsigned (from the query). */
export interface VisitorClaims {
  readonly signed: Readonly<Record<string, boolean>>;
  readonly unsigned: Readonly<Record<string, boolean>>;
}

/** A visitor with no claims. */
export const NO_CLAIMS: VisitorClaims = { signed: {}, unsigned: {} };

type Value = boolean | string | number | null | undefined;

class Refused extends Error {}

const own = (record: Readonly<Record<string, boolean>>, name: string): boolean | undefined =>
  Object.prototype.hasOwnProperty.call(record, name) ? record[name] : undefined;

function claim(path: string[] | null, claims: VisitorClaims): Value {
  if (!path || path[0] !== 'visitor' || path[1] !== 'claims') throw new Refused();
  if (path[2] === 'unsigned' && path.length === 4) return own(claims.unsigned, path[3]);
  if (path.length === 3) return own(claims.signed, path[2]);
  throw new Refused();
}

function valueOf(node: jsep.Expression, claims: VisitorClaims): Value {
  switch (node.type) {
    case 'Literal': {
      const value = (node as jsep.Literal).value;
      if (value === null || typeof value === 'boolean' || typeof value === 'string' || typeof value === 'number') return value;
      throw new Refused();
    }
    case 'Identifier':
    case 'MemberExpression':
      return claim(pathOf(node), claims);
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      if (unary.operator !== '!') throw new Refused();
      return !valueOf(unary.argument, claims);
    }
    case 'BinaryExpression': {
      const { operator, left, right } = node as jsep.BinaryExpression;
      const a = valueOf(left, claims);
      switch (operator) {
        case '&&':
          return a && valueOf(right, claims);
        case '||':
          return a || valueOf(right, claims);
        case '==':
          return a == valueOf(right, claims);
        case '!=':
          return a != valueOf(right, claims);
        case '===':
          return a === valueOf(right, claims);
        case '!==':
          return a !== valueOf(right, claims);
        default:
          throw new Refused();
      }
    }
    case 'ConditionalExpression': {
      const conditional = node as jsep.ConditionalExpression;
      return valueOf(conditional.test, claims) ? valueOf(conditional.consequent, claims) : valueOf(conditional.alternate, claims);
    }
    default:
      throw new Refused();
  }
}

/** Whether a condition holds for a visitor's claims (false for an expression that cannot be evaluated). */
export function conditionHolds(expression: string, claims: VisitorClaims): boolean {
  try {
    return Boolean(valueOf(jsep(expression), claims));
  } catch {
    return false;
  }
}
