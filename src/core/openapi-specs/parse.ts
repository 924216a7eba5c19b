import { parseDocument } from 'yaml';
import { joinBytes } from '../fetch-bytes.js';
import { canonicalJsonBytes } from './canonical-json.js';
import { referencesInheritedNames } from './inherited-names.js';
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
  /** The last document it validated, which it keeps (for its resolveRefs()) until the next: see releaseDocument. */
  specification?: unknown;
}

let validator: Promise<SchemaValidator> | undefined;

/**
 * The validator of OpenAPI 2.0, 3.0, 3.1 and 3.2 documents against their official JSON Schemas (and of
 * their internal `$ref`s), made once: it compiles each version's schema on first use. Imported lazily
 * because the package reads those schemas from disk, which only processing needs.
 */
export function schemaValidator(): Promise<SchemaValidator> {
  validator ??= import('@seriousme/openapi-schema-validator').then(({ Validator }) => new Validator());
  return validator;
}

/**
 * Lets go of the document the validator keeps after a check: a document of megabytes is tens of megabytes of
 * objects, which a warm worker thread would otherwise hold, idle, until its next job. Safe with checks in
 * flight: a check reads the field only within its own synchronous part.
 */
function releaseDocument(checker: SchemaValidator): void {
  checker.specification = undefined;
}

/** A source text read as data, and whether it was strict JSON (else YAML). */
interface ReadText {
  readonly value: unknown;
  readonly json: boolean;
}

/** Parses JSON, or else YAML (one document); undefined when the text is neither. */
function parseText(text: string): ReadText | undefined {
  const source = text.replace(/^\uFEFF/, '');
  if (/^\s*[[{]/.test(source)) {
    try {
      return { value: JSON.parse(source), json: true };
    } catch {
      // Not strict JSON: a YAML flow mapping may still read it.
    }
  }
  const document = parseDocument(source, { prettyErrors: false, uniqueKeys: true, logLevel: 'error' });
  if (document.errors.length > 0) return undefined;
  return { value: document.toJS({ maxAliasCount: MAX_YAML_ALIASES }), json: false };
}

/** Whether a value read from JSON holds a number past a double's range (`1e999` reads as Infinity). */
function hasNonFiniteNumber(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (value === null || typeof value !== 'object') return false;
  for (const key in value) if (hasNonFiniteNumber((value as Record<string, unknown>)[key])) return true;
  return false;
}

/** The hex SHA-256 of bytes, through Web Crypto (present in every runtime the core supports). */
async function sha256(bytes: Uint8Array): Promise<string> {
  const hash = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
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
    const read = parseText(text);
    const parsed = read?.value;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
    // What is checked is exactly what is stored: read back from its JSON. A value JSON.parse gave is that
    // already, unless it holds a number past a double's range; reading it again would make a second copy of
    // the document, garbage for the job's heap (see canonical-json.ts for why that matters).
    const json = JSON.stringify(parsed);
    const document = (read!.json && !hasNonFiniteNumber(parsed) ? parsed : JSON.parse(json)) as Record<string, unknown>;
    if (referencesInheritedNames(document)) return undefined;
    const result = await checker.validate(document).finally(() => releaseDocument(checker));
    if (!result.valid) return undefined;
    const bytes = new TextEncoder().encode(json);
    return { json: bytes, digest: await sha256(canonicalJsonBytes(document, bytes.byteLength)) };
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
