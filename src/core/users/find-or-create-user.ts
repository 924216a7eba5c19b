import type { WriteTransaction } from '../../store/types.js';
import type { Ids } from '../ids.js';
import { INDEXES, TABLES, type UserRecord } from '../records.js';
import { emailScope } from '../scopes.js';

/**
 * The user with an e-mail address (lower-cased, as addresses are stored), made with `displayName` when
 * there is none yet; `created` says which. A user is one person across organizations. Unique by address:
 * the address's scope is locked first, so two that both look for one address queue, and the second finds
 * the first's user.
 */
export async function findOrCreateUser(
  tx: WriteTransaction,
  ids: Ids,
  email: string,
  displayName: string,
  now: string,
): Promise<{ user: UserRecord; created: boolean }> {
  await tx.lock(emailScope(email), 'exclusive');
  const { items } = await tx.list(TABLES.users, { index: INDEXES.usersByEmail, value: email, limit: 1 });
  if (items[0]) return { user: items[0] as UserRecord, created: false };
  const user: UserRecord = { id: ids.id(), displayName, email, createdAt: now };
  await tx.insert(TABLES.users, user);
  return { user, created: true };
}
