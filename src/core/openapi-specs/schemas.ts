import * as v from 'valibot';
import { listSchema } from '../pagination.js';
import { Timestamp, Url } from '../schemas.js';

/** The states of processing, in the order a run goes through them. */
export const PROCESSING_STATES = ['pending', 'progress', 'complete'] as const;

/** Why a processing failed: the source did not answer in time, could not be fetched, or is not an OpenAPI document. */
export const PROCESS_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const;

/**
 * The largest source document: 5 MiB of UTF-8, fetched (a larger one is a `FETCH_ERROR`) or given as `text`
 * (a 400; over HTTP the 1 MiB of a request body comes first, but library calls have no such limit).
 */
export const MAX_SOURCE_BYTES = 5 * 1024 * 1024;

/** The longest source URL. */
export const MAX_URL_LENGTH = 2048;

/** A specification's slug: 1 to 100 lowercase letters and digits, in words joined by single hyphens. */
export const SpecSlug = v.pipe(
  v.string(),
  v.minLength(1, 'must be 1 to 100 characters'),
  v.maxLength(100, 'must be 1 to 100 characters'),
  v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must match ^[a-z0-9]+(?:-[a-z0-9]+)*$ (lowercase words joined by single hyphens)'),
);

/** A slug in a path that only looks a specification up: anything that cannot be one is simply not found. */
export const SpecSlugParam = v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters'));

/** The URL a specification is fetched from: an absolute http(s) URL of at most 2048 characters. */
const SourceUrl = v.pipe(
  v.string(),
  v.maxLength(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`),
  v.url('must be an absolute URL'),
  v.regex(/^https?:\/\//i, 'must be an http or https URL'),
);

/** Where a specification comes from: `{url}` (fetched, and fetched again on every PUT) or `{text}` (JSON or YAML). */
export const SpecSource = v.pipe(
  v.object({
    url: v.optional(SourceUrl),
    // A check rather than maxBytes, which JSON Schema (the API's OpenAPI document) has no keyword for.
    text: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1, 'must not be empty'),
        v.check((text) => new TextEncoder().encode(text).length <= MAX_SOURCE_BYTES, `must be at most ${MAX_SOURCE_BYTES} bytes (5 MiB) of UTF-8`),
      ),
    ),
  }),
  v.check((source) => (source.url === undefined) !== (source.text === undefined), 'must have exactly one of url and text'),
);

/** The OpenAPI specification object of responses. */
export const OpenAPISpecSchema = v.object({
  object: v.literal('openapi-spec'),
  id: v.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  slug: v.string(),
  sourceURL: v.optional(Url),
  processingState: v.picklist(PROCESSING_STATES),
  lastVersion: v.optional(v.string()),
  lastProcessedAt: v.optional(Timestamp),
  lastProcessErrorCode: v.optional(v.picklist(PROCESS_ERROR_CODES)),
  permissions: v.object({ view: v.boolean(), edit: v.boolean() }),
  urls: v.object({ location: Url, app: Url }),
});

/** A list of OpenAPI specifications. */
export const OpenAPISpecList = listSchema(OpenAPISpecSchema);

/** A version of an OpenAPI specification; `url` serves its document. */
export const OpenAPISpecVersionSchema = v.object({
  object: v.literal('openapi-spec-version'),
  id: v.string(),
  createdAt: Timestamp,
  url: Url,
  urls: v.object({ location: Url }),
});

/** A list of versions. */
export const OpenAPISpecVersionList = listSchema(OpenAPISpecVersionSchema);

/** An OpenAPI (or Swagger) document: a JSON object. */
export const OpenAPIDocumentSchema = v.record(v.string(), v.unknown());

/** The content of a version: its files by path (one, the document `url` serves) and that URL. */
export const OpenAPISpecContentSchema = v.object({
  filesystem: v.record(v.string(), OpenAPIDocumentSchema),
  url: Url,
});
