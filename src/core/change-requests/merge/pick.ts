/**
 * The three-way choice for one value (a field, a place, a body reference): a side that left the value as
 * it was in the base takes the other side's; two sides that agree are kept; two different changes are a
 * conflict, which the preferred side (`theirs`: the change request) wins.
 */

/** What a three-way choice gives: the value, which side it came from, and whether both sides disagreed. */
export interface Pick<T> {
  readonly value: T;
  /** `base` when neither side changed it, `both` when both made the same change. */
  readonly from: 'base' | 'ours' | 'theirs' | 'both';
  readonly conflict: boolean;
}

/** Deep equality of JSON values, whatever the order of object keys. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => sameValue(item, other[i]));
  }
  const left = Object.entries(a).filter(([, value]) => value !== undefined);
  const right = b as Record<string, unknown>;
  const rightSize = Object.values(right).filter((value) => value !== undefined).length;
  return left.length === rightSize && left.every(([key, value]) => sameValue(value, right[key]));
}

/** Marks a base that does not exist: the value was added on both sides. */
export const NO_BASE = Symbol('no base');

/**
 * Chooses between `ours` and `theirs` given `base` (NO_BASE: added on both sides, so only agreement is
 * not a conflict), comparing with `same`.
 */
export function pick<T>(base: T | typeof NO_BASE, ours: T, theirs: T, same: (a: T, b: T) => boolean = sameValue): Pick<T> {
  if (same(ours, theirs)) return { value: ours, from: base !== NO_BASE && same(base, ours) ? 'base' : 'both', conflict: false };
  if (base !== NO_BASE && same(base, ours)) return { value: theirs, from: 'theirs', conflict: false };
  if (base !== NO_BASE && same(base, theirs)) return { value: ours, from: 'ours', conflict: false };
  return { value: theirs, from: 'theirs', conflict: true };
}
