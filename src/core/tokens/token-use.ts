import { StoreClosedError, type Store } from '../../store/types.js';
import { TABLES, type TokenRecord } from '../records.js';

/**
 * How fine a token's last use is kept: it is written at most once a minute per token, so that a client
 * reading all day costs one small write a minute, not a write per read.
 */
export const LAST_USE_RESOLUTION_MS = 60_000;

/** Notes when tokens are used (TokenRecord.lastUsedAt), after the requests that used them. */
export interface TokenUse {
  /** Notes a use of `record` at `now`; writes only when its stored last use is LAST_USE_RESOLUTION_MS old, or absent. */
  touch(record: TokenRecord, now: Date): void;
  /** Resolves once the writes started so far have finished. */
  settle(): Promise<void>;
}

/**
 * Each stored token record's last use, parsed once: every request with a token asks, and Date.parse cost
 * a GET about 0.3 µs. Stored records are frozen, so a record's time never changes; a newer use is a new record.
 */
const lastUseMs = new WeakMap<TokenRecord, number>();

/** Whether a stored record's last use is recent enough at `now` to leave as it is (its time parsed once). */
function recentRecord(record: TokenRecord, now: number): boolean {
  if (record.lastUsedAt === undefined) return false;
  let at = lastUseMs.get(record);
  if (at === undefined) lastUseMs.set(record, (at = Date.parse(record.lastUsedAt)));
  return now - at < LAST_USE_RESOLUTION_MS;
}

/**
 * The last-use writes of a platform: one write transaction per token at a time, in the background (the
 * request does not wait for it). It reads the token again first: a token revoked meanwhile is not brought
 * back, and another process that noted the use already saves this one the write.
 */
export function createTokenUse(store: Store, onError: (error: unknown) => void): TokenUse {
  const pending = new Map<string, Promise<void>>();
  return {
    touch(record, now) {
      const at = now.getTime();
      if (recentRecord(record, at) || pending.has(record.id)) return;
      const write = store
        .write(async (tx) => {
          const current = (await tx.get(TABLES.tokens, record.id)) as TokenRecord | undefined;
          if (!current || recentRecord(current, at)) return;
          await tx.put(TABLES.tokens, { ...current, lastUsedAt: now.toISOString() });
        })
        .catch((error) => {
          if (!(error instanceof StoreClosedError)) onError(error);
        })
        .finally(() => pending.delete(record.id));
      pending.set(record.id, write);
    },
    async settle() {
      await Promise.all(pending.values());
    },
  };
}
