import type { Context } from './context.js';
import { notFound } from './errors.js';

/**
 * Loads a record of `table` that belongs to an organization (its `organizationId`), or 404 with
 * `No <what> <id> in organization <organizationId>`: a record of another organization is as missing
 * as one that does not exist.
 */
export async function loadInOrganization<T extends { readonly organizationId: string }>(
  ctx: Context,
  table: string,
  organizationId: string,
  id: string,
  what: string,
): Promise<T> {
  const record = (await ctx.tx.get(table, id)) as (T & { readonly id: string }) | undefined;
  if (!record || record.organizationId !== organizationId) throw notFound(`No ${what} ${id} in organization ${organizationId}`);
  return record;
}
