import type { ReadTransaction } from '../store/types.js';

const memos = new WeakMap<ReadTransaction, Map<string, Promise<unknown>>>();

/**
 * Computes a value once per transaction and key: a page of 1,000 members asks for the same
 * organization-wide count 1,000 times. Only for values the transaction does not change after
 * they are first read (operations present their results after their last write).
 */
export function oncePerTransaction<T>(tx: ReadTransaction, key: string, compute: () => Promise<T>): Promise<T> {
  let memo = memos.get(tx);
  if (!memo) memos.set(tx, (memo = new Map()));
  let value = memo.get(key) as Promise<T> | undefined;
  if (!value) memo.set(key, (value = compute()));
  return value;
}
