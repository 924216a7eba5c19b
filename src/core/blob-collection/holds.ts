import type { ReadTransaction, WriteTransaction } from '../../store/types.js';
import { INDEXES, TABLES, type BlobHoldRecord } from '../records.js';

/**
 * Holds: bytes that no record references but that must stay in the blob store until a time, a PDF whose
 * download URL works until then. The blob collection keeps held bytes and ends holds past their time.
 */

/** Keeps the blob `key` at least until `until` (ISO 8601); a hold that already lasts longer is left as it is. */
export async function holdBlob(tx: WriteTransaction, key: string, kind: BlobHoldRecord['kind'], until: string): Promise<void> {
  const held = (await tx.get(TABLES.blobHolds, key)) as BlobHoldRecord | undefined;
  if (held && held.until >= until) return;
  await tx.put(TABLES.blobHolds, { id: key, kind, until } satisfies BlobHoldRecord);
}

/** Whether a hold keeps its blob at `now`. Inclusive: at its very `until` it still holds. */
export const holds = (hold: BlobHoldRecord | undefined, now: string): boolean => hold !== undefined && hold.until >= now;

/** The holds of a kind past their time at `now`, soonest first, at most `limit`, after the hold `after`. */
export async function endedHolds(tx: ReadTransaction, kind: BlobHoldRecord['kind'], now: string, limit: number, after?: BlobHoldRecord): Promise<BlobHoldRecord[]> {
  const { items } = await tx.list(TABLES.blobHolds, { index: INDEXES.blobHoldsByKind, value: kind, limit, ...(after && { after: [after.until, after.id] }) });
  // Listed by `until`: the first hold still running ends the list.
  const ended: BlobHoldRecord[] = [];
  for (const hold of items as BlobHoldRecord[]) {
    if (holds(hold, now)) break;
    ended.push(hold);
  }
  return ended;
}

/** Removes the holds among `keys` that are past their time at `now` (one renewed meanwhile stays); returns how many. */
export async function endHolds(tx: WriteTransaction, keys: readonly string[], now: string): Promise<number> {
  let ended = 0;
  for (const key of keys) {
    const hold = (await tx.get(TABLES.blobHolds, key)) as BlobHoldRecord | undefined;
    if (hold && !holds(hold, now)) ended += Number(await tx.delete(TABLES.blobHolds, key));
  }
  return ended;
}
