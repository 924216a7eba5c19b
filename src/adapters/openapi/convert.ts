import { toJsonSchema, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { caseInsensitivePattern } from './case-insensitive.js';

/**
 * Converts the operations' valibot schemas to the JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1)
 * of the document, with the official converter. Unknown schemas and actions make it throw (errorMode
 * 'throw'): nothing is dropped silently. The few valibot features it cannot convert on its own are
 * handled here, each with the reason; docs/api-reference.md lists them for readers of the document.
 */

/** Where a schema is used: a path or query parameter, a request body, or a response body. */
export type Place = 'path' | 'query' | 'body' | 'response';

type AnySchema = v.GenericSchema & { readonly pipe?: readonly { readonly kind: string; readonly type: string }[] };
type UnionSchema = AnySchema & { readonly options: readonly AnySchema[] };
type ArraySchema = AnySchema & { readonly item: AnySchema };

/**
 * Actions that normalise a value (the value keeps its type) before the rules after them check it. JSON
 * Schema cannot normalise, so the rules that follow describe the normalised form, and the note says so.
 */
const NORMALISING_ACTIONS: Readonly<Record<string, string>> = {
  to_lower_case: 'Converted to lower case before it is checked.',
  to_upper_case: 'Converted to upper case before it is checked.',
  trim: 'Leading and trailing whitespace is removed before it is checked.',
  trim_start: 'Leading whitespace is removed before it is checked.',
  trim_end: 'Trailing whitespace is removed before it is checked.',
};

/** Actions that hold for every JSON value of their type, so they add nothing to the JSON Schema. */
const ALWAYS_TRUE_IN_JSON: ReadonlySet<string> = new Set([
  // JSON has no NaN or Infinity: every JSON number is finite.
  'finite',
]);

/** Adds a sentence to a schema's description. */
function note(schema: JsonSchema, sentence: string): JsonSchema {
  const description = typeof schema.description === 'string' ? `${schema.description} ${sentence}` : sentence;
  return { ...schema, description };
}

/** True when a schema's pipe transforms the value: it is a text form of a typed option (`'12'` for 12). */
function transforms(schema: AnySchema): boolean {
  return (schema.pipe ?? []).some((action) => action.kind === 'transformation' && action.type === 'transform');
}

/**
 * A `regex` the converter refuses: one with flags (`pattern` has none), or a second one in a pipe (one
 * `pattern` per schema). `i` is rewritten as a case-insensitive pattern; `u` changes nothing for the
 * patterns a `pattern` may hold. A second pattern joins through `allOf`. Other flags still throw.
 */
function regexOverride(regex: RegExp, schema: JsonSchema, errors: readonly string[] | undefined): JsonSchema | undefined {
  const flags = regex.flags.replace('u', '');
  if (flags !== '' && flags !== 'i') return undefined;
  const pattern = flags === 'i' ? caseInsensitivePattern(regex.source) : regex.source;
  if (errors?.some((error) => error.includes('in combination with another regex action'))) {
    return { ...schema, allOf: [...((schema.allOf as JsonSchema[] | undefined) ?? []), { pattern }] };
  }
  return regex.flags === '' ? undefined : { ...schema, pattern };
}

function configFor(place: Place): ConversionConfig {
  return {
    target: 'draft-2020-12',
    // Request schemas may coerce (query text to numbers); the document describes what a client sends.
    // A response schema validates the JSON the server sends, which is its input too.
    typeMode: 'input',
    errorMode: 'throw',
    overrideSchema(context) {
      const schema = context.valibotSchema as AnySchema;
      // An object keyed by a fixed set of names (locales): the converter takes only string keys; JSON Schema
      // says it with `propertyNames`.
      if (schema.type === 'record') {
        const { key, value } = schema as AnySchema & { readonly key: AnySchema & { readonly options?: readonly string[] }; readonly value: AnySchema };
        if (key.type !== 'picklist') return undefined;
        return { type: 'object', propertyNames: { enum: [...key.options!] }, additionalProperties: convert(value, place) };
      }
      if (schema.type !== 'union') return undefined;
      const options = (schema as UnionSchema).options;
      // Query values arrive as text, so the query schemas accept a value or its text form
      // (`union([number(), pipe(string(), regex(...), transform(Number))])`). OpenAPI parameters are
      // typed and serialised as text by their `style`, so the document shows the typed value only.
      const typed = options.filter((option) => !transforms(option));
      if (typed.length > 0 && typed.length < options.length) {
        return typed.length === 1 ? convert(typed[0], place) : { anyOf: typed.map((option) => convert(option, place)) };
      }
      // In a query string, one value or many (`?a=x` or `?a=x&a=y`) is how an array is sent (style form, explode).
      if (place === 'query' && options.length === 2) {
        const array = options.find((option) => option.type === 'array') as ArraySchema | undefined;
        const single = options.find((option) => option !== array);
        if (array && single && JSON.stringify(convert(array.item, place)) === JSON.stringify(convert(single, place))) {
          return convert(array, place);
        }
      }
      return undefined;
    },
    overrideAction(context) {
      const action = context.valibotAction as { type: string; message?: unknown; requirement?: unknown };
      const normalising = NORMALISING_ACTIONS[action.type];
      if (normalising) return note(context.jsonSchema, normalising);
      if (ALWAYS_TRUE_IN_JSON.has(action.type)) return context.jsonSchema;
      if (action.type === 'regex') return regexOverride(action.requirement as RegExp, context.jsonSchema, context.errors);
      // A custom rule (`check`) has no JSON Schema form; its message states it, so the description carries it.
      if (action.type === 'check') {
        const message = typeof action.message === 'string' ? action.message : 'a rule JSON Schema cannot express';
        return note(context.jsonSchema, `Also checked: ${message}.`);
      }
      return undefined;
    },
  };
}

/** The JSON Schema of a valibot schema used at a place, without the `$schema` keyword (the document sets the dialect). */
export function convert(schema: v.GenericSchema, place: Place): JsonSchema {
  const { $schema: _dialect, ...converted } = toJsonSchema(schema, configFor(place));
  return converted;
}

/** True when an object entry may be left out (optional, nullish, exactOptional, undefinedable). */
export function isOptional(schema: v.GenericSchema): boolean {
  return ['optional', 'nullish', 'exact_optional', 'undefinedable'].includes(schema.type);
}
