import type { WriteTransaction } from '../../store/types.js';
import { INDEXES, TABLES, type SpaceRecord } from '../records.js';
import { purgeSpace } from './owned.js';

/**
 * The trash: a deleted space can be restored for 7 days, then it and everything that belongs to it
 * is removed for good. The boundary is in `restorable` alone.
 */

/** How long a deleted space can be restored: 7 days, in milliseconds. */
export const RESTORE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Whether a space deleted at `deletedAt` can still be restored at `now`. Inclusive: at exactly 7 days
 * (604,800,000 ms) after the delete it still can; one millisecond later it is gone for good.
 */
export function restorable(deletedAt: string, now: string | Date): boolean {
  const nowMs = typeof now === 'string' ? Date.parse(now) : now.getTime();
  return nowMs - Date.parse(deletedAt) <= RESTORE_WINDOW_MS;
}

/** Whether a space is deleted and past its restore window at `now`: to be treated as gone, and purged. */
export function expired(space: SpaceRecord, now: string | Date): boolean {
  return space.deletedAt !== undefined && !restorable(space.deletedAt, now);
}

/**
 * The sweep: purges up to `limit` spaces whose restore window is over at `now`, oldest delete first,
 * and returns how many it purged (fewer than `limit`: nothing is left to purge).
 */
export async function purgeExpiredSpaces(tx: WriteTransaction, now: string, limit: number): Promise<number> {
  const { items } = await tx.list(TABLES.spaces, { index: INDEXES.spacesInTrash, value: true, limit });
  let purged = 0;
  for (const space of items as SpaceRecord[]) {
    // The trash is in delete order: the first space still restorable ends the sweep.
    if (!expired(space, now)) break;
    await purgeSpace(tx, space.id);
    purged++;
  }
  return purged;
}
