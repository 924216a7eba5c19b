/**
 * Data derived from an immutable revision (its links report, its search index): computed once per
 * revision and kept while it is used, never per request. A revision never changes, so an entry never goes
 * stale; the cache only bounds memory, evicting the least recently used entries. It lives as long as its
 * platform (one per `createPlatform`), in memory only: after a restart each value is computed again.
 */
export interface DerivedCache {
  /**
   * The value of `kind` for a revision, computed by `compute` on a miss. Concurrent misses share one
   * computation; a failed computation is not kept.
   */
  get<T>(kind: string, revisionId: string, compute: () => Promise<T>): Promise<T>;
  /** The value of `kind` for a revision if it is cached (and computed), without computing it. */
  peek<T>(kind: string, revisionId: string): T | undefined;
  /** Forgets a value, e.g. one handed over to a child revision that updated it in place. */
  delete(kind: string, revisionId: string): void;
}

/** How many derived values a platform keeps by default (a few spaces' live and change-request revisions). */
export const DEFAULT_DERIVED_ENTRIES = 64;

interface Entry {
  readonly promise: Promise<unknown>;
  value?: unknown;
  settled: boolean;
}

/** A derived-data cache holding at most `maxEntries` values (least recently used evicted first). */
export function createDerivedCache(maxEntries = DEFAULT_DERIVED_ENTRIES): DerivedCache {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, Entry>();
  const keyOf = (kind: string, revisionId: string) => `${kind}\u0000${revisionId}`;
  const touch = (key: string, entry: Entry) => {
    entries.delete(key);
    entries.set(key, entry);
    while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
  };
  return {
    get<T>(kind: string, revisionId: string, compute: () => Promise<T>): Promise<T> {
      const key = keyOf(kind, revisionId);
      const cached = entries.get(key);
      if (cached) {
        touch(key, cached);
        return cached.promise as Promise<T>;
      }
      const entry: Entry = { settled: false, promise: Promise.resolve() };
      const promise = compute().then(
        (value) => {
          entry.value = value;
          entry.settled = true;
          return value;
        },
        (error: unknown) => {
          if (entries.get(key) === entry) entries.delete(key);
          throw error;
        },
      );
      (entry as { promise: Promise<unknown> }).promise = promise;
      touch(key, entry);
      return promise;
    },
    peek<T>(kind: string, revisionId: string): T | undefined {
      const entry = entries.get(keyOf(kind, revisionId));
      return entry?.settled ? (entry.value as T) : undefined;
    },
    delete(kind, revisionId) {
      entries.delete(keyOf(kind, revisionId));
    },
  };
}
