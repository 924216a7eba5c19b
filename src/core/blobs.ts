import { later, sha256Hex, systemNow, type BlobInfo, type BlobStore, type BlobStoreOptions } from '../store/blobs.js';

export { isBlobKey, sha256Hex, toHex, type BlobInfo, type BlobStore, type BlobStoreOptions } from '../store/blobs.js';

/** A blob store in memory: for tests, the memory store, and embedding apps that keep nothing on disk. */
export function createMemoryBlobStore(options: BlobStoreOptions = {}): BlobStore {
  const now = options.now ?? systemNow;
  const blobs = new Map<string, { bytes: Uint8Array; storedAt: Date }>();
  return {
    async put(bytes) {
      const key = await sha256Hex(bytes);
      const existing = blobs.get(key);
      blobs.set(key, { bytes: existing?.bytes ?? bytes.slice(), storedAt: later(existing?.storedAt, now()) });
      return key;
    },
    async get(key) {
      return blobs.get(key)?.bytes.slice();
    },
    async touch(key) {
      const existing = blobs.get(key);
      if (existing) existing.storedAt = later(existing.storedAt, now());
      return existing !== undefined;
    },
    async *list(): AsyncGenerator<BlobInfo> {
      for (const key of [...blobs.keys()].sort()) {
        const blob = blobs.get(key);
        if (blob) yield { key, size: blob.bytes.length, storedAt: blob.storedAt };
      }
    },
    async delete(key, storedBefore) {
      const blob = blobs.get(key);
      if (!blob || blob.storedAt.getTime() >= storedBefore.getTime()) return false;
      return blobs.delete(key);
    },
  };
}
