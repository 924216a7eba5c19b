import type { Store } from '../store/types.js';
import { TABLES, type LeaseRecord } from './records.js';

/**
 * Leases: background work that one process at a time may do, whatever number of processes share the
 * store (the trash sweep). A lease is a record naming its holder until a deadline; taking it is a write
 * transaction, so two processes never both hold it, and one that dies only holds it until the deadline.
 */

/** Takes (or renews) the lease `name` for `holder` until `now + ttlMs`; false when another holder has it. */
export function takeLease(store: Store, name: string, holder: string, now: Date, ttlMs: number): Promise<boolean> {
  return store.write(async (tx) => {
    const lease = (await tx.get(TABLES.leases, name)) as LeaseRecord | undefined;
    if (lease && lease.holder !== holder && Date.parse(lease.until) > now.getTime()) return false;
    await tx.put(TABLES.leases, { id: name, holder, until: new Date(now.getTime() + ttlMs).toISOString() } satisfies LeaseRecord);
    return true;
  });
}

/** Gives the lease up, if `holder` still has it. */
export async function releaseLease(store: Store, name: string, holder: string): Promise<void> {
  await store.write(async (tx) => {
    const lease = (await tx.get(TABLES.leases, name)) as LeaseRecord | undefined;
    if (lease?.holder === holder) await tx.delete(TABLES.leases, name);
  });
}
