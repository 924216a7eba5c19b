import { compareKeys } from '../order.js';
import { sortKeyOf } from '../sorted-index.js';
import type { ListQuery, ListResult, StoredRecord } from '../types.js';

/** A filtered list's answer from every record it lists, in order: the filter, then the cursor and the limit. */
export function pageFiltered(records: readonly StoredRecord[], query: ListQuery): ListResult {
  const matching = records.filter(query.where!);
  const direction = query.order === 'desc' ? -1 : 1;
  const after = query.after;
  const rest = after ? matching.filter((record) => direction * compareKeys(sortKeyOf(query.index, record)!, after) > 0) : matching;
  return { items: rest.slice(0, query.limit ?? rest.length), count: matching.length };
}
