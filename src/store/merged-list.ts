import { type SortedIndex, compareKeys, groupOf, sortKeyOf } from './sorted-index.js';
import type { ListQuery, ListResult, SortKey, StoredRecord } from './types.js';

/** Records that replace the indexed ones: by id, the record to see instead, or null for none. */
export type Overlay = ReadonlyMap<string, StoredRecord | null>;

const NO_OVERLAY: Overlay = new Map();

/**
 * Lists one group of a built index over `rows`, as if the records in `overlay` replaced theirs: a write
 * transaction's own changes, or the records a read transaction sees as they were before later commits.
 * The index's entries are walked in order, skipping replaced ids, and merged with the overlay's records of
 * the group (sorted apart), so a page costs what it returns plus the overlay, not the whole group.
 */
export function listMerged(index: SortedIndex, rows: ReadonlyMap<string, StoredRecord>, query: ListQuery, overlay: Overlay = NO_OVERLAY): ListResult {
  const { value, where, limit, after } = query;
  const order = query.order ?? 'asc';
  if (overlay.size === 0 && !where) {
    // The common case, on every read: a walk of the index, nothing to merge.
    const items: StoredRecord[] = [];
    if (limit !== 0) {
      for (const id of index.ids(value, order, after)) {
        items.push(rows.get(id)!);
        if (limit !== undefined && items.length >= limit) break;
      }
    }
    return { items, count: index.size(value) };
  }
  const def = index.def;
  const direction = order === 'asc' ? 1 : -1;
  const before = (a: SortKey, b: SortKey) => direction * compareKeys(a, b) < 0;

  // The overlay's records in the group, in listing order; and how many indexed records it hides.
  const extra: { key: SortKey; record: StoredRecord }[] = [];
  let hidden = 0;
  for (const [id, record] of overlay) {
    const current = rows.get(id);
    if (current && groupOf(def, current) === value && sortKeyOf(def, current)) hidden++;
    const key = record && groupOf(def, record) === value ? sortKeyOf(def, record) : undefined;
    if (key && (!where || where(record!))) extra.push({ key, record: record! });
  }
  extra.sort((a, b) => direction * compareKeys(a.key, b.key));

  const items: StoredRecord[] = [];
  const room = () => limit === undefined || items.length < limit;
  // Overlay records up to `after` are not on this page.
  let next = 0;
  if (after) while (next < extra.length && !before(after, extra[next].key)) next++;
  /** Takes the overlay's records that sort before `key` (without one: all that are left). */
  const takeExtra = (key?: SortKey) => {
    while (next < extra.length && room() && (key === undefined || before(extra[next].key, key))) items.push(extra[next++].record);
  };
  const take = (record: StoredRecord) => {
    if (next < extra.length) takeExtra(sortKeyOf(def, record)!);
    if (room()) items.push(record);
  };

  if (!where) {
    for (const id of index.ids(value, order, after)) {
      if (!room()) break;
      if (!overlay.has(id)) take(rows.get(id)!);
    }
    takeExtra();
    return { items, count: index.size(value) - hidden + extra.length };
  }

  // With a filter the count needs every record of the group: one pass counts and pages.
  let count = extra.length;
  for (const id of index.ids(value, order)) {
    if (overlay.has(id)) continue;
    const record = rows.get(id)!;
    if (!where(record)) continue;
    count++;
    if (room() && (!after || before(after, sortKeyOf(def, record)!))) take(record);
  }
  takeExtra();
  return { items, count };
}
