import * as v from 'valibot';

/**
 * The adaptive schema of a site: a JSON Schema (draft-07) of the claims a visitor brings, in the one
 * shape Part 3 of the specification describes:
 *
 *   { "$schema"?: draft-07, "type": "object", "additionalProperties": false,
 *     "properties": { <claim>: {"type": "boolean", "description": "..."}, ...,
 *                     "unsigned"?: { "type": "object", "description"?: "Unsigned claims of the site visitor.",
 *                                    "additionalProperties": false,
 *                                    "properties": { <claim>: {"type": "boolean", "description": "..."} } } } }
 *
 * Every object is strict (an unknown keyword is refused), so whatever passes is a valid draft-07 schema
 * with nothing left to interpret; test/property/adaptive-schema.test.ts checks that with ajv's draft-07
 * meta-schema. (ajv itself is not used here: it compiles validators with `new Function`, which some of
 * the runtimes the core serves, such as Workers, forbid.)
 */

/** The description of the unsigned claims, the one the public API allows. */
export const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.';

/** The draft-07 meta-schema URI, as the public API spells it. */
export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/** A claim name: what follows `visitor.claims.` in a condition. */
export const CLAIM_NAME = /^[A-Za-z_$][A-Za-z0-9_$-]{0,99}$/;

/** Names an object cannot hold as its own keys safely; validation would silently drop them. */
const RESERVED = new Set(['__proto__', 'prototype', 'constructor']);

/** Whether every key of an object (its raw keys, before validation drops any) is a claim name. */
const claimKeys = (except: string | undefined) => (value: unknown) =>
  typeof value !== 'object' || value === null || Object.keys(value).every((name) => name === except || (CLAIM_NAME.test(name) && !RESERVED.has(name)));

/** Arrays are objects to the object schemas; claims come in a JSON object. */
const NOT_AN_ARRAY = v.check((value: unknown) => !Array.isArray(value), 'must be an object of claims, not an array');

/** Why a claim name is refused. */
const CLAIM_KEYS_MESSAGE =
  'claim names must be a letter, _ or $ followed by letters, digits, _, $ or - (at most 100 characters), and not __proto__, prototype or constructor';

/** A claim: a boolean with a description. */
const Claim = v.strictObject(
  {
    type: v.literal('boolean'),
    description: v.pipe(v.string(), v.maxLength(1024, 'must be at most 1024 characters')),
  },
  'must be a claim: {"type": "boolean", "description": "..."} and nothing else',
);

/** The unsigned claims object, its `properties` given: claims the visitor's browser may send without a signature. */
const unsignedWith = <P extends v.GenericSchema, D extends v.GenericSchema>(properties: P, description: D) =>
  v.strictObject(
    {
      type: v.literal('object'),
      description,
      properties,
      additionalProperties: v.literal(false),
    },
    'must be the unsigned claims: {"type": "object", "properties": {...}, "additionalProperties": false}',
  );

/** The whole schema, its top-level `properties` given. */
const schemaWith = <P extends v.GenericSchema>(properties: P, $schema: v.GenericSchema<string>) =>
  v.strictObject(
    {
      $schema: v.optional($schema),
      type: v.literal('object'),
      properties,
      additionalProperties: v.literal(false),
    },
    'must be a JSON Schema: {"type": "object", "properties": {...}, "additionalProperties": false}',
  );

/**
 * A site's adaptive JSON Schema as `PUT .../adaptive-schema` takes it. The claim names are checked on
 * the raw objects, because validation would silently drop a key such as `constructor`.
 */
export const AdaptiveJsonSchema = v.pipe(
  schemaWith(
    v.pipe(
      v.unknown(),
      NOT_AN_ARRAY,
      v.check(claimKeys('unsigned'), CLAIM_KEYS_MESSAGE),
      v.objectWithRest(
        {
          unsigned: v.optional(
            unsignedWith(
              v.pipe(v.unknown(), NOT_AN_ARRAY, v.check(claimKeys(undefined), CLAIM_KEYS_MESSAGE), v.record(v.string(), Claim)),
              v.optional(v.literal(UNSIGNED_DESCRIPTION)),
            ),
          ),
        },
        Claim,
      ),
    ),
    v.union([v.literal(DRAFT_07), v.literal('http://json-schema.org/draft-07/schema')], `must be ${DRAFT_07}`),
  ),
  // One spelling of the draft-07 URI is kept, the public API's, and the unsigned claims always carry their description.
  v.transform((schema) => {
    const { unsigned } = schema.properties;
    return {
      ...schema,
      ...(schema.$schema !== undefined && { $schema: DRAFT_07 }),
      properties: unsigned === undefined ? schema.properties : { ...schema.properties, unsigned: { ...unsigned, description: UNSIGNED_DESCRIPTION } },
    };
  }),
);

/** A site's adaptive JSON Schema as responses give it back. */
export const AdaptiveJsonSchemaOutput = schemaWith(
  v.objectWithRest({ unsigned: v.optional(unsignedWith(v.record(v.string(), Claim), v.literal(UNSIGNED_DESCRIPTION))) }, Claim),
  v.literal(DRAFT_07),
);

/** The claims an adaptive schema defines: the signed ones and the unsigned ones. */
export interface Claims {
  readonly signed: ReadonlySet<string>;
  readonly unsigned: ReadonlySet<string>;
}

/** The claims of a stored adaptive schema (none when the site has no schema). */
export function claimsOf(jsonSchema: Readonly<Record<string, unknown>> | undefined): Claims {
  const properties = (jsonSchema?.properties ?? {}) as Record<string, { properties?: Record<string, unknown> }>;
  const signed = new Set(Object.keys(properties).filter((name) => name !== 'unsigned'));
  const unsigned = new Set(Object.keys(properties.unsigned?.properties ?? {}));
  return { signed, unsigned };
}
