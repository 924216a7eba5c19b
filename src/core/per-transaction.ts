import type { Context } from './context.js';

/** A memo level: each part of a key selects the next level, the last one the value. */
type Memo = Map<unknown, unknown>;

/**
 * Where an operation's context keeps its memo. A context is made for one run of an operation's transaction,
 * so its memo lives and dies with the transaction. (A WeakMap from transactions to memos cost a GET of one
 * member ~6 µs of CPU, about 15%: each request's memo, held by an old table's entry, outlived young
 * collections and was promoted, and the collections took twice as long.)
 */
const MEMO = Symbol('memo');

type Memoized = Context & { [MEMO]?: Memo };

/**
 * Computes a value once per transaction and key: a page of 1,000 members asks for the same
 * organization-wide count 1,000 times. Only for values the transaction does not change after
 * they are first read (operations present their results after their last write). The key is given in
 * parts (`'content-count', organizationId, role`), each a level of maps: joining them into one string made
 * a new string to hash on every call, a sixth of the time of presenting a page of members.
 */
export function oncePerTransaction<T>(ctx: Context, key: readonly unknown[], compute: () => Promise<T>): Promise<T> {
  let memo = (ctx as Memoized)[MEMO];
  // Not enumerable: a context spread into another (for another transaction) must not take it along.
  if (!memo) Object.defineProperty(ctx, MEMO, { value: (memo = new Map()) });
  const last = key.length - 1;
  for (let i = 0; i < last; i++) {
    let next = memo.get(key[i]) as Memo | undefined;
    if (!next) memo.set(key[i], (next = new Map()));
    memo = next;
  }
  let value = memo.get(key[last]) as Promise<T> | undefined;
  if (!value) memo.set(key[last], (value = compute()));
  return value;
}
