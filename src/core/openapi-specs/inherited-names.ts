/**
 * Whether a document's references name what every object inherits (`__proto__`, `constructor`,
 * `toString`, ...). The validator's reference check (@seriousme/openapi-schema-validator, resolve.js) looks
 * names up in plain objects: `"$ref": "__proto__"` resolved to Object.prototype, and a later reference
 * through it wrote its target into Object.prototype, changing every object of the thread that runs the job
 * (a pool thread, shared by every user's jobs, or the main thread with inline workers). Such a document is
 * refused before the check runs. No document needs these names: a schema called `constructor` is the only
 * loss, and it may be named otherwise.
 */

/** The keywords whose values the reference check looks up or resolves. */
const POINTER_WORDS = new Set(['$ref', '$id', '$anchor', '$dynamicRef', '$dynamicAnchor']);

/** Whether a reference or anchor, split at `#` and `/` (JSON Pointer's escapes undone), names an inherited member. */
function namesInherited(value: string): boolean {
  return value.split(/[#/]/).some((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~') in Object.prototype);
}

/** Whether any pointer keyword of `value`, at any depth, names an inherited member (see the module comment). */
export function referencesInheritedNames(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    // A value that is not a string is read as one where the check builds a reference from it.
    if (POINTER_WORDS.has(key) && item !== null && item !== undefined && namesInherited(String(item))) return true;
    if (referencesInheritedNames(item)) return true;
  }
  return false;
}
