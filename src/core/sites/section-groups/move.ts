import * as v from 'valibot';
import { writeOperation } from '../../operation.js';
import { TABLES } from '../../records.js';
import { Id } from '../../schemas.js';
import { loadGroup, locksSite, requireSite } from '../access.js';
import { positionOf, reorder } from '../positions.js';
import { GROUP_KIND, topLevel } from '../structure.js';
import { presentGroupTo } from '../presenter.js';
import { GroupSchema, TopLevelPointer } from './schemas.js';

/**
 * Moves a section group among the site's top level (its ungrouped sections and its groups, named by
 * `{type: 'site-section' | 'site-section-group', id}`). Without `position` it goes to the end.
 */
export const moveSiteSectionGroup = writeOperation({
  name: 'moveSiteSectionGroup',
  summary: 'Move a section group of a site',
  params: { organizationId: Id, siteId: Id, siteSectionGroupId: Id },
  body: { position: v.optional(v.object({ before: v.optional(TopLevelPointer), after: v.optional(TopLevelPointer) })) },
  response: GroupSchema,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, siteSectionGroupId, position }) {
    const { site, member } = await requireSite(ctx, organizationId, siteId, 'structure', 'change its structure');
    const group = await loadGroup(ctx, site, siteSectionGroupId);
    await reorder(ctx, TABLES.siteSectionGroups, group, topLevel(site.id), GROUP_KIND, positionOf(position, 'id'));
    return presentGroupTo(ctx, site, member, group.id);
  },
});
