import type { LockMode } from '../types.js';

/** Sends one statement of a transaction's connection, in order with the others. */
type Send = (sql: string, values: unknown[]) => Promise<unknown>;

/**
 * The scopes a write transaction holds (Store.lock): PostgreSQL advisory locks on the session, keyed by the
 * scope's 64-bit hash (hashtextextended). A lock is taken before the transaction's snapshot, so that what it
 * reads is at least as new as every earlier holder's commit: under REPEATABLE READ a snapshot taken before
 * the wait would not see them. They are session locks, not transaction locks, because they come before the
 * BEGIN; `release` lets them go after the COMMIT or ROLLBACK. One object lives across the attempts of one
 * write: the scopes an attempt took, or asked for too late, are taken first by the next.
 */
export class LockedScopes {
  /** The scopes held on the session now, in their strongest mode. */
  private readonly held = new Map<string, LockMode>();
  /** The scopes to take before the next attempt's snapshot. */
  private wanted = new Map<string, LockMode>();

  /** Whether `scope` is held in `mode` or a stronger one. */
  holds(scope: string, mode: LockMode): boolean {
    const held = this.held.get(scope);
    return held === 'exclusive' || held === mode;
  }

  /** Whether any scope is held (and must be released when the attempt ends). */
  get holding(): boolean {
    return this.held.size > 0;
  }

  /** Takes a scope on the session now; resolves once it is held. */
  async take(scope: string, mode: LockMode, send: Send): Promise<void> {
    this.held.set(scope, mode === 'exclusive' || this.held.get(scope) === 'exclusive' ? 'exclusive' : 'shared');
    await send(mode === 'exclusive' ? 'SELECT pg_advisory_lock(hashtextextended($1, 0))' : 'SELECT pg_advisory_lock_shared(hashtextextended($1, 0))', [scope]);
  }

  /**
   * Sends the statements that take the wanted scopes, in the order of their names (two writers that want
   * the same two never wait for each other crosswise); the caller sends its BEGIN right behind them.
   */
  takeWanted(send: Send): Promise<unknown> {
    const wanted = [...this.wanted].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this.wanted = new Map();
    return Promise.all(wanted.map(([scope, mode]) => this.take(scope, mode, send)));
  }

  /** Asks the next attempt to take `scope` before its snapshot. */
  want(scope: string, mode: LockMode): void {
    if (this.wanted.get(scope) !== 'exclusive') this.wanted.set(scope, mode);
  }

  /**
   * Lets every held scope go (after the COMMIT or ROLLBACK), remembering them for the next attempt, if
   * there is one. A connection whose release fails is dropped, which releases them too.
   */
  async release(send: Send): Promise<void> {
    if (this.held.size === 0) return;
    for (const [scope, mode] of this.held) this.want(scope, mode);
    this.held.clear();
    await send('SELECT pg_advisory_unlock_all()', []);
  }
}

/**
 * Thrown by `lock` after the transaction's snapshot was taken: what it read may be older than the holder
 * before it wrote, so the attempt ends and the next takes the scope before its snapshot. A retry, not a
 * failure: the core keeps it cheap by locking first.
 */
export class RestartWithLocks extends Error {
  constructor(
    readonly scope: string,
    readonly mode: LockMode,
  ) {
    super(`The scope ${scope} was locked after the transaction's snapshot; it runs again with the scope locked first`);
    this.name = 'RestartWithLocks';
  }
}
