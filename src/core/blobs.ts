import { sha256Hex, type BlobStore } from '../store/blobs.js';

export { isBlobKey, sha256Hex, toHex, type BlobStore } from '../store/blobs.js';

/** A blob store in memory: for tests, the memory store, and embedding apps that keep nothing on disk. */
export function createMemoryBlobStore(): BlobStore {
  const blobs = new Map<string, Uint8Array>();
  return {
    async put(bytes) {
      const key = await sha256Hex(bytes);
      if (!blobs.has(key)) blobs.set(key, bytes.slice());
      return key;
    },
    async get(key) {
      return blobs.get(key)?.slice();
    },
  };
}
