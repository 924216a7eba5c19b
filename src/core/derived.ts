/**
 * Data derived from an immutable revision (its links report, its search index, a PDF export): computed
 * once per revision and kept while it is used, never per request. A revision never changes, so an entry
 * never goes stale; the cache only bounds memory, evicting the least recently used entries. Entries weigh
 * the pages they cover (a search index of 10,000 pages weighs 10,000, a PDF's blob key 1), because that is
 * what their memory follows: a realistic search index takes ~5 KB a page, a links index less. It lives as
 * long as its platform (one per `createPlatform`), in memory only: after a restart each value is
 * computed again.
 */
export interface DerivedCache {
  /**
   * The value of `kind` for a revision, computed by `compute` on a miss. Concurrent misses share one
   * computation; a failed computation is not kept. `weigh` says what the value weighs (default 1).
   */
  get<T>(kind: string, revisionId: string, compute: () => Promise<T>, weigh?: (value: T) => number): Promise<T>;
  /** The value of `kind` for a revision if it is cached (and computed), without computing it. */
  peek<T>(kind: string, revisionId: string): T | undefined;
  /** Forgets a value, e.g. one handed over to a child revision that updated it in place. */
  delete(kind: string, revisionId: string): void;
}

/** How many pages' worth of derived values a platform keeps by default (~500 MB of search indexes at most). */
export const DEFAULT_DERIVED_CAPACITY = 100_000;

interface Entry {
  readonly promise: Promise<unknown>;
  value?: unknown;
  settled: boolean;
  weight: number;
}

/** A derived-data cache holding values that weigh at most `capacity` in all (least recently used evicted first). */
export function createDerivedCache(capacity = DEFAULT_DERIVED_CAPACITY): DerivedCache {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, Entry>();
  let total = 0;
  const keyOf = (kind: string, revisionId: string) => `${kind}\u0000${revisionId}`;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    total -= entry.weight;
  };
  const evict = () => {
    for (const key of entries.keys()) {
      if (total <= capacity) break;
      remove(key);
    }
  };
  const touch = (key: string, entry: Entry) => {
    entries.delete(key);
    entries.set(key, entry);
  };
  return {
    get<T>(kind: string, revisionId: string, compute: () => Promise<T>, weigh?: (value: T) => number): Promise<T> {
      const key = keyOf(kind, revisionId);
      const cached = entries.get(key);
      if (cached) {
        touch(key, cached);
        return cached.promise as Promise<T>;
      }
      // A computation in flight weighs 1 until it settles and says what it weighs.
      const entry: Entry = { settled: false, promise: Promise.resolve(), weight: 1 };
      const promise = compute().then(
        (value) => {
          entry.value = value;
          entry.settled = true;
          if (entries.get(key) === entry) {
            const weight = Math.max(1, weigh ? weigh(value) : 1);
            total += weight - entry.weight;
            entry.weight = weight;
            evict();
          }
          return value;
        },
        (error: unknown) => {
          if (entries.get(key) === entry) remove(key);
          throw error;
        },
      );
      (entry as { promise: Promise<unknown> }).promise = promise;
      entries.set(key, entry);
      total += entry.weight;
      evict();
      return promise;
    },
    peek<T>(kind: string, revisionId: string): T | undefined {
      const entry = entries.get(keyOf(kind, revisionId));
      return entry?.settled ? (entry.value as T) : undefined;
    },
    delete(kind, revisionId) {
      remove(keyOf(kind, revisionId));
    },
  };
}
