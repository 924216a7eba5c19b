import { keyBetween } from '../../ordering/keys.js';
import { listSiblings } from '../../ordering/siblings.js';
import { writeOperation } from '../../operation.js';
import { TABLES, type SiteSectionRecord } from '../../records.js';
import { Id } from '../../schemas.js';
import { loadGroup, locksSite, requireSite } from '../access.js';
import { GROUP_KIND, groupLevel, topLevel } from '../structure.js';
import { takeOutOfGroup } from './membership.js';

/**
 * Deletes a section group. Its sections are kept: they go back to the top level of the site in the
 * group's place, in their order, so the published order of every section stays the same.
 */
export const deleteSiteSectionGroup = writeOperation({
  name: 'deleteSiteSectionGroup',
  summary: 'Delete a section group of a site',
  params: { organizationId: Id, siteId: Id, siteSectionGroupId: Id },
  response: null,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, siteSectionGroupId }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'structure', 'change its structure');
    const group = await loadGroup(ctx, site, siteSectionGroupId);
    const top = await listSiblings(ctx.tx, topLevel(site.id));
    const at = top.findIndex((sibling) => sibling.kind === GROUP_KIND && sibling.record.id === group.id);
    const upper = top[at + 1]?.record.orderKey ?? null;
    // The sections fill the group's place: keys between the group's neighbours, one after another.
    let lower = top[at - 1]?.record.orderKey ?? null;
    for (const { record } of await listSiblings(ctx.tx, groupLevel(group.id))) {
      lower = keyBetween(lower, upper);
      await takeOutOfGroup(ctx, record as unknown as SiteSectionRecord, group, lower);
    }
    await ctx.tx.delete(TABLES.siteSectionGroups, group.id);
  },
});
