import type { BlobStore } from '../blobs.js';
import type { Clock } from '../clock.js';
import { releaseLease, takeLease } from '../leases.js';
import type { BlobHoldRecord } from '../records.js';
import type { Store } from '../../store/types.js';
import { endedHolds, endHolds } from './holds.js';
import { referencedBlobs } from './references.js';

/**
 * The blob collection: removes the bytes that nothing in the store references any more (files of a batch
 * that failed, of a purged space; PDFs whose URLs have expired; documents of purged OpenAPI versions).
 *
 * Bytes are written to the blob store before the record that references them commits (a batch stores
 * its files, then writes its revision; a PDF is rendered and stored, then its hold is written), and a
 * collection cannot see a record that is not committed. So it never removes bytes stored (or touched)
 * within the grace period before it started: that covers every upload in flight, as long as no upload
 * takes longer than the grace period between storing its bytes and committing its record. The removal
 * itself is `BlobStore.delete(key, storedBefore)`, which an upload of the same bytes meanwhile defeats.
 * Everything else it decides on one state of the store (references.ts).
 */

/**
 * How long bytes stay after they were last stored, referenced or not: one day. Far longer than any upload
 * in flight (a batch's files by URL are fetched one after the other, 30 s each at most; an import is a
 * job of 60 s at most), with room for a process that stalls; unreferenced bytes cost only their disk for
 * that day.
 */
export const BLOB_GRACE_MS = 24 * 60 * 60 * 1000;

/** The lease of the collection: one process at a time collects, whatever number share the store. */
const COLLECTION_LEASE = 'blob-collection';
const COLLECTION_LEASE_MS = 10 * 60 * 1000;

/** How many holds one write transaction ends. */
const HOLD_BATCH = 100;

/** One blob a collection removed (or, in a dry run, would remove). */
export interface CollectedBlob {
  readonly key: string;
  readonly size: number;
  /** When it was last stored or touched. */
  readonly storedAt: string;
  /** `expired`: a PDF whose URLs have all expired; `unreferenced`: bytes no record references. */
  readonly reason: 'expired' | 'unreferenced';
}

/** What a collection did. */
export interface BlobCollectionReport {
  /** Whether it only reported what it would remove. */
  readonly dryRun: boolean;
  readonly startedAt: string;
  /** Only bytes last stored before this time could go: the start less the grace period. */
  readonly storedBefore: string;
  /** How many blobs the blob store held when it started. */
  readonly blobs: number;
  /** The blobs it removed (would remove), by key. */
  readonly removed: readonly CollectedBlob[];
  /** How many bytes those hold. */
  readonly removedBytes: number;
  /** How many holds past their time it ended (would end). */
  readonly endedHolds: number;
}

/** What a collection works with. */
export interface CollectionPorts {
  readonly store: Store;
  readonly blobs: BlobStore;
  readonly clock: Clock;
  /** Who collects: the holder of the lease (one platform instance). */
  readonly holder: string;
}

/**
 * Collects the blob store once. Resolves to null when another process is collecting (the lease is
 * held); a dry run takes no lease and changes nothing.
 */
export async function collectBlobs(ports: CollectionPorts, options: { dryRun?: boolean; graceMs?: number } = {}): Promise<BlobCollectionReport | null> {
  const { store, blobs, clock, holder } = ports;
  const dryRun = options.dryRun === true;
  const renew = () => takeLease(store, COLLECTION_LEASE, holder, clock.now(), COLLECTION_LEASE_MS);
  if (!dryRun && !(await renew())) return null;
  try {
    const started = clock.now();
    const now = started.toISOString();
    const storedBefore = new Date(started.getTime() - (options.graceMs ?? BLOB_GRACE_MS));
    const candidates = new Map<string, { size: number; storedAt: Date }>();
    let count = 0;
    for await (const blob of blobs.list()) {
      count++;
      if (blob.storedAt.getTime() < storedBefore.getTime()) candidates.set(blob.key, blob);
    }
    const { referenced, expired, ended } = await store.read(async (tx) => {
      const keys = new Set(candidates.keys());
      const endedAll: BlobHoldRecord[] = [];
      for (let batch: BlobHoldRecord[]; (batch = await endedHolds(tx, 'pdf', now, HOLD_BATCH, endedAll.at(-1))).length > 0; ) endedAll.push(...batch);
      return { referenced: await referencedBlobs(tx, keys, now), expired: new Set(endedAll.map((hold) => hold.id)), ended: endedAll.map((hold) => hold.id) };
    });
    if (!dryRun) await renew();
    const removed: CollectedBlob[] = [];
    let checked = 0;
    for (const [key, blob] of candidates) {
      // A long collection keeps its lease.
      if (!dryRun && ++checked % 1000 === 0) await renew();
      if (referenced.has(key)) continue;
      if (!dryRun && !(await blobs.delete(key, storedBefore))) continue;
      removed.push({ key, size: blob.size, storedAt: blob.storedAt.toISOString(), reason: expired.has(key) ? 'expired' : 'unreferenced' });
    }
    let endedCount = ended.length;
    if (!dryRun) {
      endedCount = 0;
      for (let start = 0; start < ended.length; start += HOLD_BATCH) {
        const keys = ended.slice(start, start + HOLD_BATCH);
        endedCount += await store.write((tx) => endHolds(tx, keys, now));
      }
    }
    return {
      dryRun,
      startedAt: now,
      storedBefore: storedBefore.toISOString(),
      blobs: count,
      removed,
      removedBytes: removed.reduce((sum, blob) => sum + blob.size, 0),
      endedHolds: endedCount,
    };
  } finally {
    if (!dryRun) await releaseLease(store, COLLECTION_LEASE, holder);
  }
}
