import type { WriteContext } from '../../context.js';
import { writeOperation } from '../../operation.js';
import { INDEXES, TABLES, type OrganizationRecord, type SiteRecord } from '../../records.js';
import { Id } from '../../schemas.js';
import { locksSite, requireSite } from '../access.js';

/** The tables of a site's parts, each listed by an index on `siteId`. */
const PARTS = [
  [TABLES.siteSpaces, INDEXES.siteSpacesBySite],
  [TABLES.siteSections, INDEXES.siteSectionsBySite],
  [TABLES.siteSectionGroups, INDEXES.siteSectionGroupsBySite],
  [TABLES.siteShareLinks, INDEXES.siteShareLinksBySite],
  [TABLES.siteRedirects, INDEXES.siteRedirectsBySite],
] as const;

/** Removes a site and its parts for good; an organization whose `defaultContent` was the site loses it. */
async function removeSite(ctx: WriteContext, site: SiteRecord) {
  for (const [table, index] of PARTS) {
    const { items } = await ctx.tx.list(table, { index, value: site.id });
    for (const record of items) await ctx.tx.delete(table, record.id);
  }
  await ctx.tx.delete(TABLES.siteCustomizations, site.id);
  await ctx.tx.delete(TABLES.sites, site.id);
  const organization = (await ctx.tx.get(TABLES.organizations, site.organizationId)) as OrganizationRecord;
  if (organization.defaultContent?.site === site.id) {
    const { defaultContent: _removed, ...rest } = organization;
    await ctx.tx.put(TABLES.organizations, rest);
  }
}

/**
 * Deletes a site with its sections, section groups, site spaces, share links, redirects, customization
 * and adaptive schema (the spaces themselves stay); admins only.
 */
export const deleteSite = writeOperation({
  name: 'deleteSite',
  summary: 'Delete a site',
  params: { organizationId: Id, siteId: Id },
  response: null,
  locks: locksSite,
  async run(ctx, { organizationId, siteId }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'admin', 'delete it');
    await removeSite(ctx, site);
  },
});
