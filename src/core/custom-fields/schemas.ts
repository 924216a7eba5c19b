import * as v from 'valibot';
import { listSchema } from '../pagination.js';
import { Timestamp, Url } from '../schemas.js';

/** The types of custom fields, as in the public API: what kind of value a space may hold in one. */
export const CUSTOM_FIELD_TYPES = ['text', 'number', 'boolean', 'tags', 'select:multi', 'select:single'] as const;

/** A type of CUSTOM_FIELD_TYPES. */
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** The types whose values are chosen from the field's `options`. */
export const SELECT_TYPES: readonly CustomFieldType[] = ['select:single', 'select:multi'];

/** The most strings a `tags` or `select:multi` value holds. */
export const MAX_LIST_VALUE_ITEMS = 50;

/** A field's name: 1 to 50 lower-case letters, digits, `_` and `-`; it identifies the field in paths and values. */
export const CustomFieldName = v.pipe(
  v.string(),
  v.minLength(1, 'must be 1 to 50 characters'),
  v.maxLength(50, 'must be 1 to 50 characters'),
  v.regex(/^[a-z_\-0-9]+$/, 'must be lower-case letters, digits, _ and - only'),
);

/** A field's title: at most 100 characters. */
export const CustomFieldTitle = v.pipe(v.string(), v.maxLength(100, 'must be at most 100 characters'));

/** A field's description: at most 200 characters. */
export const CustomFieldDescription = v.pipe(v.string(), v.maxLength(200, 'must be at most 200 characters'));

/** A field's placeholder: at most 100 characters. */
export const CustomFieldPlaceholder = v.pipe(v.string(), v.maxLength(100, 'must be at most 100 characters'));

/** A select field's options: 1 to 50 distinct strings of 1 to 40 characters. */
export const CustomFieldOptions = v.pipe(
  v.array(v.pipe(v.string(), v.minLength(1, 'must be 1 to 40 characters'), v.maxLength(40, 'must be 1 to 40 characters'))),
  v.minLength(1, 'must have 1 to 50 options'),
  v.maxLength(50, 'must have 1 to 50 options'),
  v.check((options) => new Set(options).size === options.length, 'must not repeat an option'),
);

/** The fields a create or an update may set besides `name` and `type`. */
export const customFieldDetails = {
  title: v.optional(CustomFieldTitle),
  description: v.optional(CustomFieldDescription),
  placeholder: v.optional(CustomFieldPlaceholder),
  options: v.optional(CustomFieldOptions),
};

/** The value of a custom field on a space: a string of at most 256 characters, a number, a boolean or a list of strings. */
export const CustomFieldValue = v.union(
  [
    v.pipe(v.string(), v.maxLength(256, 'must be at most 256 characters')),
    v.pipe(v.number(), v.finite('must be a finite number')),
    v.boolean(),
    v.pipe(
      v.array(v.pipe(v.string(), v.maxLength(256, 'must be at most 256 characters'))),
      v.maxLength(MAX_LIST_VALUE_ITEMS, `must have at most ${MAX_LIST_VALUE_ITEMS} items`),
    ),
  ],
  'must be a string, a number, a boolean or a list of strings',
);

/** The custom field object of responses. */
export const CustomFieldSchema = v.object({
  id: v.string(),
  name: v.string(),
  title: v.string(),
  description: v.string(),
  placeholder: v.string(),
  type: v.picklist(CUSTOM_FIELD_TYPES),
  options: v.optional(v.array(v.string())),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  urls: v.object({ location: Url }),
  permissions: v.object({ view: v.boolean(), edit: v.boolean() }),
});

/** A list of custom fields. */
export const CustomFieldList = listSchema(CustomFieldSchema);

/** A space's custom fields: one entry per field of its organization, with the value when the space has one. */
export const SpaceCustomFieldValues = v.array(
  v.object({
    customField: CustomFieldSchema,
    value: v.optional(v.union([v.string(), v.number(), v.boolean(), v.array(v.string())])),
  }),
);
