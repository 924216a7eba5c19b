import type { Scalar, SortKey } from './types.js';

/**
 * The order every store lists in, as the Store interface states it (types.ts, IndexDefinition): the
 * reference the stores and the core's cursors share.
 */

/** Orders two scalars: null, then booleans, then numbers, then strings (by code unit). */
export function compareScalars(a: Scalar, b: Scalar): number {
  if (a === b) return 0;
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  return (a as number | string) < (b as number | string) ? -1 : 1;
}

function rank(value: Scalar): number {
  if (value === null) return 0;
  switch (typeof value) {
    case 'boolean':
      return 1;
    case 'number':
      return 2;
    default:
      return 3;
  }
}

/** Orders two sort keys element by element. */
export function compareKeys(a: SortKey, b: SortKey): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareScalars(a[i], b[i]);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

