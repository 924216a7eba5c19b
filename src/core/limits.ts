import type { IndexDefinition } from '../store/types.js';
import type { Context } from './context.js';
import { conflict } from './errors.js';
import { groupScope, holdExclusive } from './scopes.js';

/**
 * Refuses (409) to add one more record to a group that already holds `max`. Used where a list is
 * returned without a paging envelope (SSO sign-in options, a space's custom fields), so that its
 * size stays bounded.
 */
export async function assertRoomFor(ctx: Context, table: string, index: IndexDefinition, value: string, max: number, what: string) {
  await holdExclusive(ctx.tx, groupScope(table, value));
  const { count } = await ctx.tx.list(table, { index, value, limit: 0 });
  if (count >= max) throw conflict(`An organization has at most ${max} ${what}; delete one first`);
}
