import type { WriteContext } from '../context.js';
import { REMOVE, applyPatch } from '../patch.js';
import { TABLES, type SiteRecord, type SiteSectionRecord } from '../records.js';

/**
 * Writes the pointers that name defaults (structure.ts). Each reads its owner afresh from the
 * transaction, so that callers holding an older copy of the site or the section do not undo it.
 */

async function point(ctx: WriteContext, table: string, ownerId: string, field: string, target: string | undefined): Promise<void> {
  const owner = (await ctx.tx.get(table, ownerId)) as SiteRecord | SiteSectionRecord | undefined;
  if (!owner) return;
  const next = applyPatch(owner, { [field]: target ?? REMOVE });
  if (next !== owner) await ctx.tx.put(table, next);
}

/** Makes a site space the default of its level (the root of a site, or a section); undefined clears it. */
export function pointLevelDefault(ctx: WriteContext, siteId: string, sectionId: string | undefined, siteSpaceId: string | undefined) {
  return sectionId === undefined
    ? point(ctx, TABLES.sites, siteId, 'defaultSiteSpaceId', siteSpaceId)
    : point(ctx, TABLES.siteSections, sectionId, 'defaultSiteSpaceId', siteSpaceId);
}

/** Makes a section the site's default section; undefined clears it. */
export function pointDefaultSection(ctx: WriteContext, siteId: string, sectionId: string | undefined) {
  return point(ctx, TABLES.sites, siteId, 'defaultSectionId', sectionId);
}
