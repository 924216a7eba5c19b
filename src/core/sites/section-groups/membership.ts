import type { WriteContext } from '../../context.js';
import { keyAtEnd, keyRightAfter } from '../../ordering/siblings.js';
import { TABLES, type SiteSectionGroupRecord, type SiteSectionRecord } from '../../records.js';
import { GROUP_KIND, groupLevel, groupParentKey, siteParentKey, topLevel } from '../structure.js';

/**
 * A section is in at most one group: putting it in a group takes it out of any other. These helpers
 * write a section's group and its place, reading it afresh so that callers may pass an older copy.
 */

async function fresh(ctx: WriteContext, section: SiteSectionRecord): Promise<SiteSectionRecord> {
  return ((await ctx.tx.get(TABLES.siteSections, section.id)) as SiteSectionRecord | undefined) ?? section;
}

/** Puts a section at the end of a group (out of its top-level place or its previous group). */
export async function putInGroup(ctx: WriteContext, section: SiteSectionRecord, group: SiteSectionGroupRecord): Promise<void> {
  const current = await fresh(ctx, section);
  const moved: SiteSectionRecord = {
    ...current,
    sectionGroupId: group.id,
    parentKey: groupParentKey(group.id),
    orderKey: await keyAtEnd(ctx.tx, groupLevel(group.id)),
  };
  await ctx.tx.put(TABLES.siteSections, moved);
}

/** Takes a section out of its group to the top level of its site, at `orderKey` (default: right after the group). */
export async function takeOutOfGroup(ctx: WriteContext, section: SiteSectionRecord, group: SiteSectionGroupRecord, orderKey?: string): Promise<void> {
  const { sectionGroupId: _group, ...rest } = await fresh(ctx, section);
  const moved: SiteSectionRecord = {
    ...rest,
    parentKey: siteParentKey(section.siteId),
    orderKey: orderKey ?? (await keyRightAfter(ctx.tx, topLevel(section.siteId), { kind: GROUP_KIND, id: group.id })),
  };
  await ctx.tx.put(TABLES.siteSections, moved);
}
