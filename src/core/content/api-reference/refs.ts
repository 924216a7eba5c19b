/**
 * Local `$ref`s of an OpenAPI document (`#/components/schemas/Pet`): followed within the document only,
 * since a version holds one self-contained document (parse.ts refuses external ones).
 */

/** How many `$ref`s in a row are followed before giving up (a `$ref` to a `$ref` to ...). */
const MAX_REF_CHAIN = 16;

/** What a value is once its `$ref`s are followed: the object, the `$ref`s passed on the way, and the name of the first. */
export interface Resolved {
  readonly value: Record<string, any> | undefined;
  /** The `$ref` texts followed, in order (empty when the value was not a reference). */
  readonly refs: readonly string[];
  /** The last part of the first `$ref` (`Pet`), when there was one. */
  readonly name?: string;
}

/** A pointer's part with its percent-escapes decoded (as a URI fragment writes them), or as it is when they are malformed. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The value at a JSON pointer of the document (`#/a/b~1c`), or undefined. */
function pointed(document: Record<string, any>, ref: string): unknown {
  if (ref === '#') return document;
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    // Most pointers hold no escapes: those are read as they are, without the work of decoding.
    const unescaped = raw.includes('~') ? raw.replace(/~1/g, '/').replace(/~0/g, '~') : raw;
    const key = unescaped.includes('%') ? decoded(unescaped) : unescaped;
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** Whether a value is a JSON object (not an array). */
export const isObject = (value: unknown): value is Record<string, any> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Follows a value's local `$ref`s to the object they name; a missing target or a chain too long gives undefined. */
export function resolve(document: Record<string, any>, value: unknown): Resolved {
  const refs: string[] = [];
  let at = value;
  while (isObject(at) && typeof at.$ref === 'string') {
    if (refs.length >= MAX_REF_CHAIN || refs.includes(at.$ref)) return { value: undefined, refs, name: nameOf(refs[0]) };
    refs.push(at.$ref);
    at = pointed(document, at.$ref);
  }
  return { value: isObject(at) ? at : undefined, refs, ...(refs.length > 0 && { name: nameOf(refs[0]) }) };
}

/** The last part of a `$ref` (`#/components/schemas/Pet` → `Pet`). */
export function nameOf(ref: string | undefined): string | undefined {
  if (ref === undefined) return undefined;
  const last = ref.split('/').pop() ?? '';
  return last.replace(/~1/g, '/').replace(/~0/g, '~') || undefined;
}
