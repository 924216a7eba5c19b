import type { Context } from '../context.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import { loadInOrganization } from '../lookup.js';
import { assertSiteAllowed, organizationAccess, type SiteAction } from '../permissions.js';
import { TABLES, type MemberRecord, type SiteRecord, type SiteSectionGroupRecord, type SiteSectionRecord, type SiteSpaceRecord } from '../records.js';
import type { ScopeLock } from '../../store/types.js';
import { exclusive, holdExclusive, siteScope } from '../scopes.js';

/** A site the caller reached, with its membership of the site's organization. */
export interface SiteAccess {
  readonly site: SiteRecord;
  readonly member: MemberRecord;
}

/**
 * The scope a change to a site holds (requireSite, for any action but `view`), as a write operation that
 * changes one declares it (Operation.locks): PostgreSQL then takes it before the first read, and no first
 * attempt runs again for the lock requireSite asks for after the token's reads.
 */
export const locksSite = ({ siteId }: { readonly siteId: string }): readonly ScopeLock[] => [exclusive(siteScope(siteId))];

/**
 * Loads a site of an organization for the caller and checks the site rule `action`: 404 when the
 * caller is not a member or the organization has no such site, then 403 when its role is too low.
 */
export async function requireSite(ctx: Context, organizationId: string, siteId: string, action: SiteAction, doing: string): Promise<SiteAccess> {
  // A change to a site queues behind the others: paths, redirect sources and places must stay unique in it.
  if (action !== 'view') await holdExclusive(ctx.tx, siteScope(siteId));
  // Read with the membership (one round trip of a networked store); a missing site is news only to a member.
  const loading = loadInOrganization<SiteRecord>(ctx, TABLES.sites, organizationId, siteId, 'site');
  loading.catch(() => undefined);
  const { member } = await organizationAccess(ctx, organizationId);
  const site = await loading;
  assertSiteAllowed(member, action, doing);
  return { site, member };
}

/** A part of a site (section, group, site space) by id: 404 naming it when the site has none. */
async function partOf<T extends { readonly siteId: string }>(ctx: Context, table: string, site: SiteRecord, id: string, what: string): Promise<T> {
  const record = (await ctx.tx.get(table, id)) as (T & { id: string }) | undefined;
  if (!record || record.siteId !== site.id) throw notFound(`No ${what} ${id} in site ${site.id}`);
  return record;
}

/** A section of the site named in the path (404). */
export const loadSection = (ctx: Context, site: SiteRecord, id: string) => partOf<SiteSectionRecord>(ctx, TABLES.siteSections, site, id, 'section');
/** A section group of the site named in the path (404). */
export const loadGroup = (ctx: Context, site: SiteRecord, id: string) =>
  partOf<SiteSectionGroupRecord>(ctx, TABLES.siteSectionGroups, site, id, 'section group');
/** A site space of the site named in the path (404). */
export const loadSiteSpace = (ctx: Context, site: SiteRecord, id: string) => partOf<SiteSpaceRecord>(ctx, TABLES.siteSpaces, site, id, 'site space');

/** A part of the site that a body field names: a 400 naming the field when the site has none. */
export async function referenced<T>(field: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw badRequest(`${field}: ${error.message}`);
    throw error;
  }
}
