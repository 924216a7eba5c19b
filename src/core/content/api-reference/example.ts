import { isObject, resolve } from './refs.js';
import { typesOf } from './schema-words.js';

/**
 * Examples made from a schema where the document gives none: deterministic (the same schema always gives
 * the same value) and bounded (MAX_EXAMPLE_DEPTH levels, MAX_EXAMPLE_VALUES values, cycles left out). A
 * schema's own `example`, `examples`, `const`, `default` or first enum member wins over anything made up;
 * `oneOf` and `anyOf` take their first variant, `allOf` merges its variants. A request leaves out
 * read-only properties, a response write-only ones, as the fields' readers would see them.
 */

/** How deep a made-up example goes. */
const MAX_EXAMPLE_DEPTH = 8;
/** How many values one made-up example holds at most. */
const MAX_EXAMPLE_VALUES = 300;
/** How many properties of one object a made-up example shows. */
const MAX_EXAMPLE_PROPERTIES = 30;
/** How many characters of an example's text are shown; a longer one is cut. */
export const MAX_EXAMPLE_CHARS = 10_000;

/** Which side of an exchange an example is for. */
export type Direction = 'request' | 'response';

/** Strings by format, as a reader expects to see them. */
const FORMATS: Readonly<Record<string, string>> = {
  'date-time': '2024-01-01T12:00:00Z',
  date: '2024-01-01',
  time: '12:00:00Z',
  email: 'user@example.com',
  uri: 'https://example.com',
  url: 'https://example.com',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  byte: 'ZXhhbXBsZQ==',
  password: '********',
};

interface Walk {
  readonly document: Record<string, any>;
  readonly direction: Direction;
  left: number;
}

/** A number within a schema's bounds: its minimum (just past an exclusive one), else its maximum, else 0. */
function numberIn(schema: Record<string, any>, integer: boolean): number {
  const step = integer ? 1 : 0.5;
  if (typeof schema.exclusiveMinimum === 'number') return schema.exclusiveMinimum + step;
  if (typeof schema.minimum === 'number') return schema.minimum + (schema.exclusiveMinimum === true ? step : 0);
  if (typeof schema.exclusiveMaximum === 'number') return schema.exclusiveMaximum - step;
  if (typeof schema.maximum === 'number') return Math.min(0, schema.maximum - (schema.exclusiveMaximum === true ? step : 0));
  return 0;
}

/** A string for a schema: by its format, else `string`, padded to its minimum length. */
function stringFor(schema: Record<string, any>): string {
  const value = (typeof schema.format === 'string' && FORMATS[schema.format]) || 'string';
  const min = typeof schema.minLength === 'number' ? Math.min(schema.minLength, 64) : 0;
  return value.length >= min ? value : value.padEnd(min, 'x');
}

/** An object's example: its properties' examples (those this direction shows), or one additional property's. */
function objectFor(walk: Walk, schema: Record<string, any>, depth: number, path: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = isObject(schema.properties) ? Object.entries(schema.properties) : [];
  for (const [name, raw] of properties.slice(0, MAX_EXAMPLE_PROPERTIES)) {
    const { value } = resolve(walk.document, raw);
    if (value && ((walk.direction === 'request' && value.readOnly === true) || (walk.direction === 'response' && value.writeOnly === true))) continue;
    const example = valueFor(walk, raw, depth + 1, path);
    if (example !== undefined) out[name] = example;
  }
  if (properties.length === 0 && isObject(schema.additionalProperties)) {
    const example = valueFor(walk, schema.additionalProperties, depth + 1, path);
    if (example !== undefined) out.key = example;
  }
  return out;
}

/** Merges allOf's variants: their objects' properties together, else the first variant's value. */
function mergedFor(walk: Walk, variants: unknown[], depth: number, path: readonly string[]): unknown {
  const values = variants.slice(0, MAX_EXAMPLE_PROPERTIES).map((variant) => valueFor(walk, variant, depth, path));
  const objects = values.filter(isObject);
  return objects.length > 0 ? Object.assign({}, ...objects) : values.find((value) => value !== undefined);
}

/** A value for a schema, or undefined where there is none to give (a cycle, past a bound, an empty schema). */
function valueFor(walk: Walk, raw: unknown, depth: number, path: readonly string[]): unknown {
  if (depth > MAX_EXAMPLE_DEPTH || walk.left <= 0) return undefined;
  const { value: schema, refs } = resolve(walk.document, raw);
  if (!schema || refs.some((ref) => path.includes(ref))) return undefined;
  walk.left--;
  const inside = refs.length > 0 ? [...path, ...refs] : path;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return mergedFor(walk, schema.allOf, depth, inside);
  for (const kind of ['oneOf', 'anyOf'] as const) if (Array.isArray(schema[kind]) && schema[kind].length > 0) return valueFor(walk, schema[kind][0], depth, inside);
  const { types, nullable } = typesOf(schema);
  const type = types[0] ?? (isObject(schema.properties) || isObject(schema.additionalProperties) ? 'object' : isObject(schema.items) ? 'array' : undefined);
  switch (type) {
    case 'object':
      return objectFor(walk, schema, depth, inside);
    case 'array': {
      const item = valueFor(walk, schema.items, depth + 1, inside);
      return item === undefined ? [] : [item];
    }
    case 'string':
      return stringFor(schema);
    case 'integer':
      return Math.ceil(numberIn(schema, true));
    case 'number':
      return numberIn(schema, false);
    case 'boolean':
      return true;
    default:
      return nullable ? null : undefined;
  }
}

/** An example value made from a schema for one direction, or undefined when the schema gives none. */
export function exampleFor(document: Record<string, any>, schema: unknown, direction: Direction): unknown {
  return valueFor({ document, direction, left: MAX_EXAMPLE_VALUES }, schema, 0, []);
}

/** A value as an example's text: pretty-printed JSON (for a media type that is not JSON, a string as it is), cut past MAX_EXAMPLE_CHARS. */
export function exampleText(value: unknown, json = true): string | undefined {
  let text: string | undefined;
  try {
    text = typeof value === 'string' && !json ? value : JSON.stringify(value, null, 2);
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  return text.length > MAX_EXAMPLE_CHARS ? `${text.slice(0, MAX_EXAMPLE_CHARS)}\n…` : text;
}
