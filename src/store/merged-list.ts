import { type SortedIndex, compareKeys, groupOf, sortKeyOf, startsWith } from './sorted-index.js';
import type { ListQuery, ListResult, SortKey, StoredRecord } from './types.js';

/** Records that replace the indexed ones: by id, the record to see instead, or null for none. */
export type Overlay = ReadonlyMap<string, StoredRecord | null>;

const NO_OVERLAY: Overlay = new Map();

/**
 * Lists one group of a built index over `rows` (or the prefix's range of it), as if the records in
 * `overlay` replaced theirs: a write transaction's own changes, or the records a read transaction sees as
 * they were before later commits. The index's entries are walked in order, skipping replaced ids, and
 * merged with the overlay's records of the group (sorted apart), so a page costs what it returns plus the
 * overlay, not the whole group.
 */
export function listMerged(index: SortedIndex, rows: ReadonlyMap<string, StoredRecord>, query: ListQuery, overlay: Overlay = NO_OVERLAY): ListResult {
  const { value, where, limit, after, prefix } = query;
  const order = query.order ?? 'asc';
  if (overlay.size === 0 && !where && !prefix) {
    // The common case, on every read: a walk of the index, nothing to merge (and no walk of an empty group,
    // such as the teams of a member in none, which a page of members asks for each of them).
    const items: StoredRecord[] = [];
    const count = index.size(value);
    if (limit !== 0 && count > 0) {
      for (const id of index.ids(value, order, after)) {
        items.push(rows.get(id)!);
        if (limit !== undefined && items.length >= limit) break;
      }
    }
    return { items, count };
  }
  const def = index.def;
  const direction = order === 'asc' ? 1 : -1;
  const before = (a: SortKey, b: SortKey) => direction * compareKeys(a, b) < 0;
  const keyOf = (record: StoredRecord) => sortKeyOf(def, record)!;

  // The indexed records listed: the group, or the prefix's range of it (read whole: it is what is asked for).
  const range = prefix && index.rangeIds(value, prefix);
  if (range && order === 'desc') range.reverse();
  const walk = (from?: SortKey): Iterable<string> =>
    range ? (from ? range.filter((id) => before(from, keyOf(rows.get(id)!))) : range) : index.ids(value, order, from);
  const listed = (record: StoredRecord) => {
    if (groupOf(def, record) !== value) return undefined;
    const key = sortKeyOf(def, record);
    return key && (!prefix || startsWith(key, prefix)) ? key : undefined;
  };

  // The overlay's records in the list, in listing order; and how many listed records it hides.
  const extra: { key: SortKey; record: StoredRecord }[] = [];
  let hidden = 0;
  for (const [id, record] of overlay) {
    const current = rows.get(id);
    if (current && listed(current)) hidden++;
    const key = record && listed(record);
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
    if (next < extra.length) takeExtra(keyOf(record));
    if (room()) items.push(record);
  };

  if (!where) {
    for (const id of walk(after)) {
      if (!room()) break;
      if (!overlay.has(id)) take(rows.get(id)!);
    }
    takeExtra();
    return { items, count: (range ? range.length : index.size(value)) - hidden + extra.length };
  }

  // With a filter the count needs every record listed: one pass counts and pages.
  let count = extra.length;
  for (const id of walk()) {
    if (overlay.has(id)) continue;
    const record = rows.get(id)!;
    if (!where(record)) continue;
    count++;
    if (room() && (!after || before(after, keyOf(record)))) take(record);
  }
  takeExtra();
  return { items, count };
}
