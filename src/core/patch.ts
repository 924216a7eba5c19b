import type { StoredRecord } from '../store/types.js';

/** A PATCH value that removes a field (e.g. `defaultLevel: "inherit"` drops a space's own level). */
export const REMOVE = Symbol('remove');

/**
 * A record with a PATCH body's changes applied: an undefined value leaves its field alone, REMOVE
 * deletes it. Returns `record` itself when nothing differs, so callers write (and move `updatedAt`)
 * only on a real change.
 */
export function applyPatch<T extends StoredRecord>(record: T, changes: Record<string, unknown>): T {
  const next: Record<string, unknown> = { ...record };
  for (const [field, value] of Object.entries(changes)) {
    if (value === REMOVE) delete next[field];
    else if (value !== undefined) next[field] = value;
  }
  const changed = Object.keys({ ...next, ...record }).some((field) => next[field] !== record[field]);
  return changed ? (next as T) : record;
}
