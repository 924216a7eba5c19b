import { sha256Hex } from '../blobs.js';
import { badRequest } from '../errors.js';
import { decodeCursor, encodeCursor, type Page, type PageRequest } from '../pagination.js';
import type { Words } from './words.js';

/**
 * Paging ranked search results. A cursor is an offset in the ranked list, tied to what produced that list:
 * the query's words and the revisions searched (and, for an organization, which spaces the caller can
 * read). When any of them changed, the offset would point into another list, so the cursor is refused
 * with a 400 asking to search again, rather than silently skipping or repeating hits.
 */

/** The fingerprint of a result list: its query's words and the (space, revision) pairs it searched. */
export async function resultsDigest(words: Words, searched: readonly (readonly [spaceId: string, revisionId: string])[]): Promise<string> {
  const sorted = [...searched].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return (await sha256Hex(new TextEncoder().encode(JSON.stringify([words, sorted])))).slice(0, 22);
}

/** The offset a request's cursor points at (0 without one); 400 for a cursor of another list. */
export function offsetOf(request: PageRequest, digest: string): number {
  if (request.page === undefined) return 0;
  const key = decodeCursor(request.page);
  const [made, offset] = key;
  if (key.length !== 2 || typeof made !== 'string' || typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 1) {
    throw badRequest('page: is not a cursor this API returned');
  }
  if (made !== digest) {
    throw badRequest('page: the results changed since this cursor was made (other words, edited content or other spaces): search again without page');
  }
  return offset;
}

/** The page of a ranked list of `count` items that starts at `offset`: `next` continues after it while items remain. */
export function pageAt<T>(count: number, offset: number, limit: number, digest: string, items: T[]): Page<T> {
  const page: Page<T> = { items, count };
  if (offset + limit < count) page.next = { page: encodeCursor([digest, offset + limit]) };
  return page;
}
