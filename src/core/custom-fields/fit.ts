import type { CustomFieldRecord, CustomFieldValueRecord } from '../records.js';

/** A stored value of a custom field. */
export type StoredValue = CustomFieldValueRecord['value'];

const isList = (value: StoredValue): value is readonly string[] => Array.isArray(value);

/** What is wrong with a list of strings: an empty entry or a repeat; undefined when nothing is. */
function listProblem(values: readonly string[]): string | undefined {
  if (values.some((item) => item === '')) return 'must not hold empty strings';
  if (new Set(values).size !== values.length) return 'must not repeat an entry';
  return undefined;
}

/**
 * Why a value does not fit a field (a message that follows the field path), or undefined when it fits.
 * `text` takes a string, `number` a number, `boolean` a boolean, `tags` a list of distinct non-empty
 * strings, `select:single` one of the options, `select:multi` a list of distinct options.
 */
export function misfit(field: CustomFieldRecord, value: StoredValue): string | undefined {
  const options = field.options ?? [];
  const choices = `the options of ${field.name}: ${options.map((option) => JSON.stringify(option)).join(', ')}`;
  switch (field.type) {
    case 'text':
      return typeof value === 'string' ? undefined : 'must be a string for a text field';
    case 'number':
      return typeof value === 'number' ? undefined : 'must be a number for a number field';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false for a boolean field';
    case 'tags':
      return isList(value) ? listProblem(value) : 'must be a list of strings for a tags field';
    case 'select:single':
      return typeof value === 'string' && options.includes(value) ? undefined : `must be one of ${choices}`;
    case 'select:multi':
      if (!isList(value)) return 'must be a list of strings for a select:multi field';
      if (value.some((item) => !options.includes(item))) return `must hold only ${choices}`;
      return listProblem(value);
    default:
      throw new Error(`Unknown custom field type ${field.type}`);
  }
}

/**
 * A select field's value once its options are narrowed: the options that are gone are taken out of it.
 * Undefined when nothing of it is left (the space then has no value for the field).
 */
export function narrowToOptions(value: StoredValue, options: readonly string[]): StoredValue | undefined {
  if (isList(value)) {
    const kept = value.filter((item) => options.includes(item));
    return kept.length > 0 ? kept : undefined;
  }
  return typeof value === 'string' && options.includes(value) ? value : undefined;
}
