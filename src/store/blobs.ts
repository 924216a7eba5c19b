/**
 * The blob store: where file bytes (uploads, generated PDFs, OpenAPI documents) live, outside the records.
 * Blobs are content-addressed: the key of some bytes is their SHA-256 in lower-case hex, so storing the
 * same bytes twice keeps one copy and a key can never name other bytes. Injected through
 * `createPlatform({ blobs })`: the memory store pairs with `createMemoryBlobStore()` (core/blobs.ts), the
 * bundled server with a folder beside its JSON file (blob-folder.ts), the PostgreSQL store with a table
 * (postgres/blobs.ts).
 *
 * Each blob carries the time it was last stored or touched (`storedAt`), from the blob store's clock. The
 * blob collection (core/blob-collection/) removes only blobs stored before its grace period, and only
 * through `delete(key, storedBefore)`, which a concurrent `put` or `touch` of the same key defeats: bytes
 * put for a record that is not committed yet are never removed under it.
 */
export interface BlobStore {
  /**
   * Stores bytes and resolves to their key once they are durable. Storing bytes already there writes
   * nothing but moves their `storedAt` to now.
   */
  put(bytes: Uint8Array): Promise<string>;
  /**
   * The bytes stored under a key, or undefined when there are none: a copy the caller owns (it may hand
   * them to a job, which moves them to another thread).
   */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Moves a blob's `storedAt` to now, as a put of its bytes would; false when there is no such blob. */
  touch(key: string): Promise<boolean>;
  /** Every blob, by ascending key: its key, size and `storedAt`. Blobs put or removed meanwhile may or may not be listed. */
  list(): AsyncIterable<BlobInfo>;
  /**
   * Removes a blob if it was last stored or touched before `storedBefore`, atomically with respect to
   * `put` and `touch` of the same key; resolves to whether it removed it.
   */
  delete(key: string, storedBefore: Date): Promise<boolean>;
}

/** What `BlobStore.list` says of one blob. */
export interface BlobInfo {
  readonly key: string;
  /** Its size in bytes. */
  readonly size: number;
  /** When it was last stored or touched. */
  readonly storedAt: Date;
}

/** Options of the blob stores. */
export interface BlobStoreOptions {
  /** The clock that stamps `storedAt`; default the system clock. Tests share theirs with the platform's. */
  now?: () => Date;
}

/** The system clock, the blob stores' default. */
export const systemNow = (): Date => new Date();

/** The later of a blob's `storedAt` and now: a clock that steps back never makes bytes look older. */
export const later = (storedAt: Date | undefined, now: Date): Date => (storedAt && storedAt.getTime() > now.getTime() ? storedAt : now);

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
