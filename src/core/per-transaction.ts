import type { Context } from './context.js';

/** A memo level: each part of a key selects the next level, the last one the value. */
export type Memo = Map<unknown, unknown>;

/**
 * Where an operation's context keeps its memo. A context is made for one run of an operation's transaction,
 * so its memo lives and dies with the transaction. (A WeakMap from transactions to memos cost a GET of one
 * member ~6 µs of CPU, about 15%: each request's memo, held by an old table's entry, outlived young
 * collections and was promoted, and the collections took twice as long.)
 */
export const MEMO = Symbol('memo');

/** A context with its memo: a RunContext has the slot from the start (adding a property later changes an object's shape). */
export type Memoized = Context & { [MEMO]?: Memo };

/**
 * Computes a value (not undefined: a promise, an object) once per transaction and key: a page of 1,000 members asks for the same
 * organization-wide count 1,000 times. Only for values the transaction does not change after
 * they are first read (operations present their results after their last write). The key is given in
 * parts (`'content-count', organizationId, role`), each a level of maps: joining them into one string made
 * a new string to hash on every call, a sixth of the time of presenting a page of members.
 */
export function oncePerTransaction<T>(ctx: Context, key: readonly unknown[], compute: () => T): T {
  let memo = (ctx as Memoized)[MEMO];
  if (!memo) {
    memo = new Map();
    // Elsewhere (a test's plain object) not enumerable: a context spread into another must not take it along.
    if (MEMO in ctx) (ctx as Memoized)[MEMO] = memo;
    else Object.defineProperty(ctx, MEMO, { value: memo });
  }
  const last = key.length - 1;
  for (let i = 0; i < last; i++) {
    let next = memo.get(key[i]) as Memo | undefined;
    if (!next) memo.set(key[i], (next = new Map()));
    memo = next;
  }
  let value = memo.get(key[last]) as T | undefined;
  if (value === undefined) memo.set(key[last], (value = compute()));
  return value;
}
