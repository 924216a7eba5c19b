import { parseDocument } from 'yaml';
import { joinBytes } from '../fetch-bytes.js';
import { buffersOf, defineJob } from '../job.js';

/** A source text that is an OpenAPI 3.x or Swagger 2.0 document. */
export interface ParsedSpecification {
  /** The document as JSON text, in UTF-8: what a version stores (in the blob store) and serves. */
  readonly json: Uint8Array;
  /** The SHA-256 (hex) of the document's canonical form: equal for documents that differ only in layout or key order. */
  readonly digest: string;
}

/** How many YAML aliases a document may expand, so that a small text cannot unfold into a huge one. */
const MAX_YAML_ALIASES = 100;

interface SchemaValidator {
  validate(document: Record<string, unknown>): Promise<{ valid: boolean }>;
}

let validator: Promise<SchemaValidator> | undefined;

/**
 * The validator of OpenAPI 2.0, 3.0, 3.1 and 3.2 documents against their official JSON Schemas (and of
 * their internal `$ref`s), made once: it compiles each version's schema on first use. Imported lazily
 * because the package reads those schemas from disk, which only processing needs.
 */
function schemaValidator(): Promise<SchemaValidator> {
  validator ??= import('@seriousme/openapi-schema-validator').then(({ Validator }) => new Validator());
  return validator;
}

/** Parses JSON, or else YAML (one document); undefined when the text is neither. */
function parseText(text: string): unknown {
  const source = text.replace(/^\uFEFF/, '');
  if (/^\s*[[{]/.test(source)) {
    try {
      return JSON.parse(source);
    } catch {
      // Not strict JSON: a YAML flow mapping may still read it.
    }
  }
  const document = parseDocument(source, { prettyErrors: false, uniqueKeys: true, logLevel: 'error' });
  if (document.errors.length > 0) return undefined;
  return document.toJS({ maxAliasCount: MAX_YAML_ALIASES });
}

/** JSON text with every object's keys sorted, so that key order does not make a document "new". */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The hex SHA-256 of a text, through Web Crypto (present in every runtime the core supports). */
async function sha256(text: string): Promise<string> {
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(hash), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Reads a source text as an OpenAPI 3.x or Swagger 2.0 document (JSON or YAML) and checks it against the
 * specification's schema; undefined when it is not one (the caller records `PARSE_ERROR`). External
 * `$ref`s (to other files or URLs) are refused: a version holds one self-contained document.
 */
export async function parseSpecification(text: string): Promise<ParsedSpecification | undefined> {
  // Outside the try: a validator that cannot load is the platform's failure, not the document's.
  const checker = await schemaValidator();
  try {
    const parsed = parseText(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
    // Round-trip through JSON so that what is checked is exactly what is stored (YAML may hold NaN, ...).
    const json = JSON.stringify(parsed);
    const document = JSON.parse(json) as Record<string, unknown>;
    const result = await checker.validate(document);
    if (!result.valid) return undefined;
    return { json: new TextEncoder().encode(json), digest: await sha256(canonicalJson(document)) };
  } catch {
    // A document too deep to walk, an alias bomb, ...: not something that can be served.
    return undefined;
  }
}

/**
 * The job that reads a source (its text, or its bytes in the chunks they were fetched in: joined and decoded
 * as UTF-8 in the job) as parseSpecification does: parsing and checking a document of megabytes takes
 * seconds, so it runs off the main thread where the platform has worker threads.
 */
export const parseSpecificationJob = defineJob({
  name: 'parseSpecification',
  what: 'reading an OpenAPI document',
  run: (source: string | readonly Uint8Array[]) => parseSpecification(typeof source === 'string' ? source : new TextDecoder().decode(joinBytes(source))),
  transferInput: (source) => (typeof source === 'string' ? [] : buffersOf(source)),
  transferOutput: (parsed) => (parsed ? buffersOf([parsed.json]) : []),
  // Compiles the validator's schemas of the versions most documents use. Paid by the first document otherwise:
  // ~0.2 s of the job's CPU and ~0.2 s of V8's helper threads compiling the code, at the main thread's priority
  // (measured with a 4 MB document).
  async prepare() {
    for (const openapi of ['3.1.0', '3.0.3']) await parseSpecification(JSON.stringify({ openapi, info: { title: 'Prepare', version: '1' }, paths: {} }));
  },
});
