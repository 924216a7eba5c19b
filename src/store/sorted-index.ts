import type { IndexDefinition, Scalar, SortKey, StoredRecord } from './types.js';

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

/** The position of a record in an index, or undefined when the record is not in it. */
export function sortKeyOf(def: IndexDefinition, record: StoredRecord): SortKey | undefined {
  const key: Scalar[] = [];
  for (const field of def.order) {
    const value = record[field];
    if (value === undefined) return undefined;
    key.push(value as Scalar);
  }
  key.push(record.id);
  return key;
}

/** The group a record belongs to in an index, or undefined when it is in none. */
export function groupOf(def: IndexDefinition, record: StoredRecord): Scalar | undefined {
  const value = record[def.by];
  return value === undefined ? undefined : (value as Scalar);
}

const names = new WeakMap<IndexDefinition, string>();

/** A stable name for an index definition, to find its built copy; computed once per definition object. */
export function indexName(def: IndexDefinition): string {
  let name = names.get(def);
  if (name === undefined) names.set(def, (name = `${def.by}|${def.order.join(',')}`));
  return name;
}

interface Entry {
  key: SortKey;
  id: string;
}

/**
 * One built index: per group, the entries sorted by key. Insert and remove are a binary search and a
 * splice; a page is a binary search and a slice.
 */
export class SortedIndex {
  private readonly groups = new Map<Scalar, Entry[]>();

  constructor(readonly def: IndexDefinition) {}

  /** Adds a record (no-op when it is not indexable). */
  add(record: StoredRecord): void {
    const group = groupOf(this.def, record);
    const key = sortKeyOf(this.def, record);
    if (group === undefined || key === undefined) return;
    let entries = this.groups.get(group);
    if (!entries) this.groups.set(group, (entries = []));
    const at = lowerBound(entries, key);
    entries.splice(at, 0, { key, id: record.id });
  }

  /** Removes a record as it was stored (no-op when it was not indexed). */
  remove(record: StoredRecord): void {
    const group = groupOf(this.def, record);
    const key = sortKeyOf(this.def, record);
    if (group === undefined || key === undefined) return;
    const entries = this.groups.get(group);
    if (!entries) return;
    const at = lowerBound(entries, key);
    if (at < entries.length && entries[at].id === record.id) entries.splice(at, 1);
    if (entries.length === 0) this.groups.delete(group);
  }

  /** The ids of a group in listing order, starting strictly after `after`. */
  *ids(group: Scalar, order: 'asc' | 'desc', after?: SortKey): Generator<string> {
    const entries = this.groups.get(group);
    if (!entries) return;
    if (order === 'asc') {
      const start = after ? upperBound(entries, after) : 0;
      for (let i = start; i < entries.length; i++) yield entries[i].id;
    } else {
      const start = after ? lowerBound(entries, after) - 1 : entries.length - 1;
      for (let i = start; i >= 0; i--) yield entries[i].id;
    }
  }

  /** How many records a group holds. */
  size(group: Scalar): number {
    return this.groups.get(group)?.length ?? 0;
  }
}

/** The first position whose key is >= key. */
function lowerBound(entries: Entry[], key: SortKey): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(entries[mid].key, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first position whose key is > key. */
function upperBound(entries: Entry[], key: SortKey): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(entries[mid].key, key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
