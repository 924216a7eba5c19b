/**
 * The blob store: where file bytes (uploads, generated PDFs) live, outside the records. Blobs are
 * content-addressed: the key of some bytes is their SHA-256 in lower-case hex, so storing the same bytes
 * twice keeps one copy and a key can never name other bytes. Injected through `createPlatform({ blobs })`:
 * the memory store pairs with `createMemoryBlobStore()` (core/blobs.ts), the bundled server with a folder
 * beside its JSON file (blob-folder.ts), the PostgreSQL store with a table (postgres/blobs.ts).
 */
export interface BlobStore {
  /** Stores bytes and resolves to their key once they are durable; storing bytes already there is a no-op. */
  put(bytes: Uint8Array): Promise<string>;
  /**
   * The bytes stored under a key, or undefined when there are none: a copy the caller owns (it may hand
   * them to a job, which moves them to another thread).
   */
  get(key: string): Promise<Uint8Array | undefined>;
}

/** Whether a string has the shape of a blob key (64 lower-case hex digits). */
export const isBlobKey = (key: string): boolean => /^[0-9a-f]{64}$/.test(key);

/** Lower-case hex of some bytes. */
export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  return Array.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The SHA-256 of some bytes in lower-case hex: the blob key of those bytes. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return toHex(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
}

