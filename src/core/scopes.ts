import type { ReadTransaction, ScopeLock, WriteTransaction } from '../store/types.js';

/**
 * The scopes write transactions lock (Store.lock) and the counters they draw numbers from
 * (Store.nextNumber), named here alone so that two operations that must queue name the same scope. A scope
 * is held to the end of the transaction; take it first, before reading what the decision depends on (a
 * PostgreSQL transaction that locks after its first read runs again, locking first).
 */

/** An organization: its members, teams and settings, and what must stay unique or bounded in it. */
export const organizationScope = (organizationId: string) => `organization:${organizationId}`;

/** A space: its live content and what merges into it. */
export const spaceScope = (spaceId: string) => `space:${spaceId}`;

/** A site: its structure (sections, site spaces), paths and redirects. */
export const siteScope = (siteId: string) => `site:${siteId}`;

/** A user: their API tokens. */
export const userScope = (userId: string) => `user:${userId}`;

/** Custom hostnames, unique across every organization and site of the installation. */
export const HOSTNAMES_SCOPE = 'hostnames';

/** The counter of a space's change-request numbers. */
export const changeRequestNumbers = (spaceId: string) => `change-requests:${spaceId}`;

/** The e-mail address of a user: one user an address. */
export const emailScope = (email: string) => `email:${email}`;

/** A group of records that is bounded in size (assertRoomFor): its table and the value that groups it. */
export const groupScope = (table: string, value: string) => `group:${table}:${value}`;

/**
 * Locks `scope` exclusively for the rest of the transaction, when `tx` writes. Checks that decide a write
 * (a name still free, a count below its bound) take it before they read; in a read transaction they decide
 * nothing, and hold nothing.
 */
export async function holdExclusive(tx: ReadTransaction, scope: string): Promise<void> {
  if ('lock' in tx) await (tx as WriteTransaction).lock(scope, 'exclusive');
}

/** An exclusive hold of `scope`, as an operation declares it (Operation.locks). */
export const exclusive = (scope: string): ScopeLock => ({ scope, mode: 'exclusive' });
