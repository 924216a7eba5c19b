import type { WriteContext } from '../../context.js';
import { keyAtEnd } from '../../ordering/siblings.js';
import { INDEXES, TABLES, type SiteRecord, type SiteSectionRecord } from '../../records.js';
import { pointDefaultSection, pointLevelDefault } from '../defaults.js';
import { freePath, slugOf } from '../paths.js';
import { sectionParentKey, topLevel, type SiteStructure } from '../structure.js';

/** The sections of a site, in no particular order (for their paths). */
export async function sectionsOf(ctx: WriteContext, siteId: string): Promise<SiteSectionRecord[]> {
  return (await ctx.tx.list(TABLES.siteSections, { index: INDEXES.siteSectionsBySite, value: siteId })).items as SiteSectionRecord[];
}

/**
 * Adds an empty section at the end of a site's top level, with a path made from its title that no other
 * section of the site uses. The first section of a site becomes its default section. `titleOfSpace`: the
 * space the title was taken from, so that it is not shown to members who may not view that space.
 */
export async function insertSection(ctx: WriteContext, site: SiteRecord, title: string, titleOfSpace?: string): Promise<SiteSectionRecord> {
  const existing = await sectionsOf(ctx, site.id);
  const section: SiteSectionRecord = {
    id: ctx.ids.id(),
    siteId: site.id,
    organizationId: site.organizationId,
    title,
    ...(titleOfSpace !== undefined && { titleOfSpace }),
    path: freePath(slugOf(title, 'section'), new Set(existing.map((other) => other.path))),
    parentKey: topLevel(site.id).key,
    orderKey: await keyAtEnd(ctx.tx, topLevel(site.id)),
    createdAt: ctx.now,
  };
  await ctx.tx.insert(TABLES.siteSections, section);
  if (existing.length === 0) await pointDefaultSection(ctx, site.id, section.id);
  return section;
}

/**
 * A site that has site spaces at its root and gets its first section first turns its existing content
 * into a section: one titled after the site, holding the root site spaces in their order with the same
 * default. It becomes the default section.
 */
export async function gatherRootIntoSection(ctx: WriteContext, structure: SiteStructure): Promise<void> {
  const section = await insertSection(ctx, structure.site, structure.site.title);
  for (const siteSpace of structure.rootSiteSpaces) {
    await ctx.tx.put(TABLES.siteSpaces, { ...siteSpace, sectionId: section.id, parentKey: sectionParentKey(section.id) });
  }
  await pointLevelDefault(ctx, structure.site.id, section.id, structure.rootDefaultId);
  await pointLevelDefault(ctx, structure.site.id, undefined, undefined);
}
