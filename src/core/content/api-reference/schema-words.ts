/**
 * A schema's type and limits in words, as an API reference shows them beside a field: `array of Pet`,
 * `string or null`, `≥ 1`, `1 to 64 characters`, `format: email`. Values are shown as JSON texts, cut to
 * MAX_VALUE_CHARS so that one huge default cannot swell a page.
 */

/** How many characters of a value (an enum member, a default) are shown. */
export const MAX_VALUE_CHARS = 200;

/** A value as JSON text (cut past MAX_VALUE_CHARS), or undefined for a value JSON cannot write. */
export function valueText(value: unknown): string | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** A count's range in words: `1 to 64 characters`, `at least 1 item`, `at most 3 properties`; undefined when unbounded. */
function range(min: unknown, max: unknown, one: string, many = `${one}s`): string | undefined {
  const plural = (n: number) => (n === 1 ? one : many);
  const low = isNumber(min) && min > 0 ? min : undefined;
  const high = isNumber(max) ? max : undefined;
  if (low !== undefined && high !== undefined) return low === high ? `exactly ${low} ${plural(low)}` : `${low} to ${high} ${plural(high)}`;
  if (low !== undefined) return `at least ${low} ${plural(low)}`;
  if (high !== undefined) return `at most ${high} ${plural(high)}`;
  return undefined;
}

/** The bounds of a number: `≥ 1`, `> 0` (exclusive, as OpenAPI 3.0's boolean or 3.1's number says), `≤ 100`, `multiple of 5`. */
function numberBounds(schema: Record<string, any>): string[] {
  const out: string[] = [];
  if (isNumber(schema.exclusiveMinimum)) out.push(`> ${schema.exclusiveMinimum}`);
  else if (isNumber(schema.minimum)) out.push(`${schema.exclusiveMinimum === true ? '>' : '≥'} ${schema.minimum}`);
  if (isNumber(schema.exclusiveMaximum)) out.push(`< ${schema.exclusiveMaximum}`);
  else if (isNumber(schema.maximum)) out.push(`${schema.exclusiveMaximum === true ? '<' : '≤'} ${schema.maximum}`);
  if (isNumber(schema.multipleOf)) out.push(`multiple of ${schema.multipleOf}`);
  return out;
}

/** A schema's limits in words, in a fixed order: format, bounds, lengths, pattern, counts. */
export function constraintsOf(schema: Record<string, any>): string[] {
  const out: string[] = [];
  if (typeof schema.format === 'string' && schema.format !== '') out.push(`format: ${schema.format}`);
  out.push(...numberBounds(schema));
  const length = range(schema.minLength, schema.maxLength, 'character');
  if (length) out.push(length);
  if (typeof schema.pattern === 'string' && schema.pattern !== '') out.push(`pattern: ${schema.pattern.length > MAX_VALUE_CHARS ? `${schema.pattern.slice(0, MAX_VALUE_CHARS - 1)}…` : schema.pattern}`);
  const items = range(schema.minItems, schema.maxItems, 'item');
  if (items) out.push(items);
  if (schema.uniqueItems === true) out.push('unique items');
  const properties = range(schema.minProperties, schema.maxProperties, 'property', 'properties');
  if (properties) out.push(properties);
  return out;
}

/** The types a schema names (`type`, a string or, in OpenAPI 3.1, a list), without `null`; and whether `null` is allowed. */
export function typesOf(schema: Record<string, any>): { types: string[]; nullable: boolean } {
  const listed: unknown[] = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  const names = listed.filter((type): type is string => typeof type === 'string');
  return { types: names.filter((type) => type !== 'null'), nullable: names.includes('null') || schema.nullable === true };
}
