import * as v from 'valibot';
import { badRequest } from './errors.js';
import { describeMalformed, malformedText } from './well-formed.js';

/** The dotted path of an issue, e.g. `memberships.u1.role`. */
function pathOf(issue: v.BaseIssue<unknown>): string {
  return (issue.path ?? []).map((item) => String(item.key)).join('.');
}

/** A sentence for the first issue: the field, then the rule it breaks (`title: must be 1 to 64 characters`). */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[], prefix?: string): string {
  // A union reports its own issue; its members' issues say more about a near miss.
  let issue = issues[0];
  const path = [prefix, pathOf(issue)].filter(Boolean).join('.');
  if (issue.type === 'union' && !issue.message.startsWith('Invalid')) {
    return `${path || 'value'}: ${issue.message}`;
  }
  if (issue.type === 'object' && issue.received === 'undefined' && path) {
    return `${path}: is required`;
  }
  if (issue.kind === 'schema' && issue.received === 'undefined') {
    return `${path || 'value'}: is required`;
  }
  if (issue.type === 'picklist' || issue.type === 'literal') {
    return `${path || 'value'}: must be ${issue.expected}, not ${issue.received}`;
  }
  while (issue.issues?.length && issue.message.startsWith('Invalid type')) issue = issue.issues[0];
  const message = issue.message.startsWith('Invalid type')
    ? `must be ${issue.expected}, not ${issue.received}`
    : issue.message.charAt(0).toLowerCase() + issue.message.slice(1);
  return `${path || 'value'}: ${message}`;
}

/** The parts of a valibot schema the array check walks (every schema kind the project uses). */
interface SchemaNode {
  readonly type: string;
  readonly entries?: Readonly<Record<string, SchemaNode>>;
  readonly rest?: SchemaNode;
  readonly key?: SchemaNode | string;
  readonly value?: SchemaNode;
  readonly item?: SchemaNode;
  readonly items?: readonly SchemaNode[];
  readonly wrapped?: SchemaNode;
  readonly options?: readonly SchemaNode[];
  readonly getter?: (input: unknown) => SchemaNode;
}

const OBJECT_TYPES = new Set(['object', 'loose_object', 'strict_object', 'object_with_rest', 'record']);

/**
 * The path of the first array in `value` that `schema` took for an object, if any. Valibot's object and
 * record schemas accept arrays (`[]` has no key to refuse and parses as `{}`), so a JSON array where an
 * object is expected (`position: []`) would pass. Run on input the schema accepted, on every request: it
 * allocates nothing until it descends into a nested object.
 */
function arrayTakenForObject(schema: SchemaNode, value: unknown, path: readonly string[]): readonly string[] | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const fields = value as Record<string, unknown>;
  if (OBJECT_TYPES.has(schema.type)) {
    if (Array.isArray(value)) return path;
    if (schema.type === 'record') {
      for (const key in fields) {
        const found = inField(schema.value!, fields[key], path, key);
        if (found) return found;
      }
      return undefined;
    }
    const entries = schema.entries ?? {};
    for (const key in entries) {
      const found = inField(entries[key], fields[key], path, key);
      if (found) return found;
    }
    if (schema.rest) {
      for (const key in fields) {
        const found = key in entries ? undefined : inField(schema.rest, fields[key], path, key);
        if (found) return found;
      }
    }
    return undefined;
  }
  switch (schema.type) {
    case 'array':
    case 'tuple':
    case 'loose_tuple':
    case 'strict_tuple': {
      if (!Array.isArray(value)) return undefined;
      for (let index = 0; index < value.length; index++) {
        const node = schema.type === 'array' ? schema.item! : schema.items![index];
        const found = node && inField(node, value[index], path, String(index));
        if (found) return found;
      }
      return undefined;
    }
    case 'intersect':
      for (const node of schema.options!) {
        const found = arrayTakenForObject(node, value, path);
        if (found) return found;
      }
      return undefined;
    case 'union':
    case 'variant': {
      // The value passed when one option took it: it is wrong only if every option that takes it took an array for an object.
      let found: readonly string[] | undefined;
      for (const node of schema.options!) {
        if (!v.is(node as v.GenericSchema, value)) continue;
        const inOption = arrayTakenForObject(node, value, path);
        if (!inOption) return undefined;
        found ??= inOption;
      }
      return found;
    }
    case 'lazy':
      return arrayTakenForObject(schema.getter!(value), value, path);
    default:
      return schema.wrapped ? arrayTakenForObject(schema.wrapped, value, path) : undefined;
  }
}

/** Descends into one field or item: only an object can hide an array taken for an object. */
function inField(schema: SchemaNode, value: unknown, path: readonly string[], key: string): readonly string[] | undefined {
  return value !== null && typeof value === 'object' ? arrayTakenForObject(schema, value, [...path, key]) : undefined;
}

/** The field a path names, after the prefix (`body.title`); `value` for the whole input. */
function fieldOf(prefix: string | undefined, path: readonly string[]): string {
  return [prefix, ...path].filter(Boolean).join('.') || 'value';
}

/**
 * Validates a value against a schema; a failure is a 400 naming the field. Every input of every operation
 * (HTTP and library calls alike) comes through here, so the rules no schema states are checked here too:
 * text must be well-formed (no lone surrogate, in a value or a key; checked first, so that no schema action
 * sees one), and an array is never taken for an object.
 */
export function parseOrThrow<T>(schema: v.GenericSchema<unknown, T>, value: unknown, prefix?: string): T {
  const malformed = malformedText(value);
  if (malformed) throw badRequest(`${fieldOf(prefix, malformed.path)}: ${describeMalformed(malformed)}`);
  const result = v.safeParse(schema, value);
  if (!result.success) throw badRequest(describeIssues(result.issues, prefix));
  const array = arrayTakenForObject(schema as unknown as SchemaNode, value, []);
  if (array) throw badRequest(`${fieldOf(prefix, array)}: must be an object, not an array`);
  return result.output;
}
