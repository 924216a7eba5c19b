import jsep from 'jsep';
import type { Claims } from './json-schema.js';

/**
 * Conditions: the expressions that decide whether a section or a site space is shown to a visitor,
 * written in JavaScript expression syntax over the visitor's claims, as in
 * `visitor.claims.isBetaUser && !visitor.claims.unsigned.hideBeta`. They are parsed with jsep (a small,
 * well-kept JavaScript expression parser) and only a whitelist of node types is accepted:
 * - claims: `visitor.claims.<name>` and `visitor.claims.unsigned.<name>` (also `?.` and `["name"]`),
 *   each naming a claim the site's adaptive schema defines;
 * - literals: true, false, null, strings and numbers;
 * - `!`, `&&`, `||`, `==`, `!=`, `===`, `!==`, `a ? b : c` and parentheses.
 * Anything else (calls, other names, arithmetic, arrays, `this`, several expressions) is refused.
 */

type Node = jsep.Expression;

const UNARY = new Set(['!']);
const BINARY = new Set(['&&', '||', '==', '!=', '===', '!==']);
const LITERAL_TYPES = new Set(['boolean', 'string', 'number']);

/** The dotted path a member expression reads (`visitor.claims.x` → [visitor, claims, x]), or null when it is not a plain path. */
export function pathOf(node: Node): string[] | null {
  if (node.type === 'Identifier') return [(node as jsep.Identifier).name];
  if (node.type !== 'MemberExpression') return null;
  const member = node as jsep.MemberExpression;
  const head = pathOf(member.object);
  if (!head) return null;
  const property = member.property;
  if (!member.computed && property.type === 'Identifier') return [...head, (property as jsep.Identifier).name];
  if (member.computed && property.type === 'Literal' && typeof (property as jsep.Literal).value === 'string') {
    return [...head, (property as jsep.Literal).value as string];
  }
  return null;
}

/** Checks that a path names a claim of the schema; returns the problem, or null. */
function claimProblem(path: string[], claims: Claims): string | null {
  const shown = path.join('.');
  if (path[0] !== 'visitor' || path[1] !== 'claims') return `${shown} is not a claim: conditions read visitor.claims.<name>`;
  if (path[2] === 'unsigned') {
    if (path.length !== 4) return `${shown} is not a claim: unsigned claims are visitor.claims.unsigned.<name>`;
    return claims.unsigned.has(path[3]) ? null : `${shown} is not an unsigned claim of the site's adaptive schema`;
  }
  if (path.length !== 3) return `${shown} is not a claim: claims are booleans, read as visitor.claims.<name>`;
  return claims.signed.has(path[2]) ? null : `${shown} is not a claim of the site's adaptive schema`;
}

/** The first problem of an expression tree, or null when every node is allowed. */
function problemOf(node: Node, claims: Claims): string | null {
  switch (node.type) {
    case 'Literal': {
      const { value, raw } = node as jsep.Literal;
      return value === null || LITERAL_TYPES.has(typeof value) ? null : `${raw} is not an allowed value`;
    }
    case 'Identifier':
    case 'MemberExpression': {
      const path = pathOf(node);
      return path ? claimProblem(path, claims) : 'only claims can be read, as visitor.claims.<name>';
    }
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      return UNARY.has(unary.operator) ? problemOf(unary.argument, claims) : `the operator ${unary.operator} is not allowed`;
    }
    case 'BinaryExpression': {
      const binary = node as jsep.BinaryExpression;
      if (!BINARY.has(binary.operator)) return `the operator ${binary.operator} is not allowed`;
      return problemOf(binary.left, claims) ?? problemOf(binary.right, claims);
    }
    case 'ConditionalExpression': {
      const conditional = node as jsep.ConditionalExpression;
      return problemOf(conditional.test, claims) ?? problemOf(conditional.consequent, claims) ?? problemOf(conditional.alternate, claims);
    }
    case 'CallExpression':
      return 'function calls are not allowed';
    case 'Compound':
    case 'SequenceExpression':
      return 'a condition is one expression';
    default:
      return `${node.type} is not allowed`;
  }
}

/** What is wrong with a condition given a schema's claims, or null when it is fine. */
export function conditionProblem(expression: string, claims: Claims): string | null {
  let tree: Node;
  try {
    tree = jsep(expression);
  } catch (error) {
    return `is not a valid expression (${(error as Error).message})`;
  }
  if (tree.type === 'Compound' && (tree as jsep.Compound).body.length === 0) return 'is empty';
  return problemOf(tree, claims);
}
