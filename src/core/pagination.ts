import * as v from 'valibot';
import type { ListQuery, ReadTransaction, Scalar, SortKey, StoredRecord } from '../store/types.js';
import { compareKeys as compareSortKeys } from '../store/order.js';
import { base64UrlDecode, base64UrlEncode } from './base64url.js';
import { badRequest } from './errors.js';
import { queryInteger } from './schemas.js';

/** The page size when a request gives no `limit`. */
export const DEFAULT_LIMIT = 50;
/** The largest `limit` a request may ask for. */
export const MAX_LIMIT = 1000;

/** The query parameters every list accepts. */
export const listQuery = {
  page: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(2000, 'is too long'))),
  limit: v.optional(queryInteger(1, MAX_LIMIT)),
};

/** What a list request asks for. */
export interface PageRequest {
  readonly page?: string;
  readonly limit?: number;
}

/** A page of a list, as every list endpoint returns it. */
export interface Page<T> {
  items: T[];
  count: number;
  next?: { page: string };
}

/** The envelope schema of a list of `item`. */
export function listSchema<T extends v.GenericSchema>(item: T) {
  return v.object({
    items: v.array(item),
    count: v.number(),
    next: v.optional(v.object({ page: v.string() })),
  });
}

/** Encodes the sort key of the last item of a page as an opaque cursor. */
export function encodeCursor(key: SortKey): string {
  return base64UrlEncode(JSON.stringify(key));
}

/** Decodes a cursor made by encodeCursor; anything else is a 400. */
export function decodeCursor(page: string): SortKey {
  let key: unknown;
  try {
    key = JSON.parse(base64UrlDecode(page));
  } catch {
    throw badRequest('page: is not a cursor this API returned');
  }
  const scalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);
  if (!Array.isArray(key) || key.length === 0 || !key.every(scalar)) {
    throw badRequest('page: is not a cursor this API returned');
  }
  return key as Scalar[];
}

/** The sort key of a record in an index (the values of the order fields, then the id). */
function keyOf(query: Pick<ListQuery, 'index'>, record: StoredRecord): SortKey {
  return [...query.index.order.map((field) => record[field] as Scalar), record.id];
}

/**
 * Reads one page of an index group: keyset pagination on (order fields, id), so walking `next.page`
 * yields every item that existed when the walk began exactly once, even while items are added.
 */
export async function pageOf(
  tx: ReadTransaction,
  table: string,
  query: Omit<ListQuery, 'after' | 'limit'>,
  request: PageRequest,
): Promise<Page<StoredRecord>> {
  const limit = request.limit ?? DEFAULT_LIMIT;
  const after = request.page === undefined ? undefined : decodeCursor(request.page);
  const { items, count } = await tx.list(table, { ...query, after, limit: limit + 1 });
  const page = items.slice(0, limit);
  const last = page[page.length - 1];
  return items.length > limit ? { items: page, count, next: { page: encodeCursor(keyOf(query, last)) } } : { items: page, count };
}

/**
 * Pages a list computed in the core (sorted by `key` ascending, or descending with `order: 'desc'`)
 * with the same cursors as pageOf. For lists that join or filter across tables.
 */
export function pageOfArray<T>(
  all: readonly T[],
  key: (item: T) => SortKey,
  request: PageRequest,
  order: 'asc' | 'desc' = 'asc',
): Page<T> {
  const limit = request.limit ?? DEFAULT_LIMIT;
  const direction = order === 'asc' ? 1 : -1;
  const sorted = all.map((item) => ({ item, key: key(item) })).sort((a, b) => direction * compareSortKeys(a.key, b.key));
  const after = request.page === undefined ? undefined : decodeCursor(request.page);
  const rest = after ? sorted.filter((entry) => direction * compareSortKeys(entry.key, after) > 0) : sorted;
  const page = rest.slice(0, limit);
  const result: Page<T> = { items: page.map((entry) => entry.item), count: all.length };
  if (rest.length > limit) result.next = { page: encodeCursor(page[page.length - 1].key) };
  return result;
}

/** Maps the items of a page, keeping its count and cursor. */
export function mapPage<T, U>(page: Page<T>, fn: (item: T) => Promise<U> | U): Promise<Page<U>> {
  return mapPageItems(page, (items) => Promise.all(items.map(fn)));
}

/** A page with its items replaced by `fn`'s, which maps them all at once (one for each, in order). */
export async function mapPageItems<T, U>(page: Page<T>, fn: (items: readonly T[]) => Promise<U[]>): Promise<Page<U>> {
  const items = await fn(page.items);
  return page.next ? { items, count: page.count, next: page.next } : { items, count: page.count };
}

