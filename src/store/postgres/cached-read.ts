import type { ListQuery, ListResult, ReadTransaction, StoredRecord } from '../types.js';
import type { CacheView } from './snapshot-cache.js';

/** A read the cache could not answer: the transaction runs again on a connection (store.ts). */
export class CacheMiss extends Error {
  constructor() {
    super('Not in the snapshot cache');
  }
}

/**
 * A read transaction answered from the snapshot cache alone, under a snapshot that the database just
 * printed and the cache holds answers for. The first read it has no answer for rejects with CacheMiss and
 * marks the transaction `missed`, so that the store runs it again in a real transaction (whatever `fn` did
 * with the rejection).
 */
export class CachedRead implements ReadTransaction {
  missed = false;

  constructor(private readonly view: CacheView) {}

  get(table: string, id: string): Promise<StoredRecord | undefined> {
    const kept = this.view.get(table, id);
    return kept.found ? Promise.resolve(kept.value) : this.miss();
  }

  getMany(table: string, ids: readonly string[]): Promise<(StoredRecord | undefined)[]> {
    const records: (StoredRecord | undefined)[] = [];
    for (const id of ids) {
      const kept = this.view.get(table, id);
      if (!kept.found) return this.miss();
      records.push(kept.value);
    }
    return Promise.resolve(records);
  }

  list(table: string, query: ListQuery): Promise<ListResult> {
    const kept = this.view.list(table, query);
    return kept ? Promise.resolve(kept) : this.miss();
  }

  private miss(): Promise<never> {
    this.missed = true;
    return Promise.reject(new CacheMiss());
  }
}
