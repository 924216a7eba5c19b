import { badRequest } from '../../errors.js';
import { DEFAULT_LIMIT, decodeCursor, encodeCursor, type Page, type PageRequest } from '../../pagination.js';

/**
 * One page of a list that is already sorted by a unique string key, with the project's cursors (the key
 * of the last item): a binary search finds where a cursor resumes, so no list is sorted per request.
 */
export function pageOfSorted<T>(items: readonly T[], keyOf: (item: T) => string, request: PageRequest): Page<T> {
  const limit = request.limit ?? DEFAULT_LIMIT;
  let start = 0;
  if (request.page !== undefined) {
    const cursor = decodeCursor(request.page);
    const after = cursor[0];
    if (cursor.length !== 1 || typeof after !== 'string') throw badRequest('page: is not a cursor this API returned');
    // The first item whose key is above the cursor's: items added or removed since then do not matter.
    let high = items.length;
    while (start < high) {
      const middle = (start + high) >>> 1;
      if (keyOf(items[middle]) <= after) start = middle + 1;
      else high = middle;
    }
  }
  const slice = items.slice(start, start + limit);
  const page: Page<T> = { items: slice, count: items.length };
  if (start + limit < items.length) page.next = { page: encodeCursor([keyOf(slice[slice.length - 1])]) };
  return page;
}
