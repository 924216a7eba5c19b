import * as v from 'valibot';
import { writeOperation } from '../../operation.js';
import { REMOVE, applyPatch } from '../../patch.js';
import { TABLES } from '../../records.js';
import { Id } from '../../schemas.js';
import { loadGroup, locksSite, requireSite } from '../access.js';
import { GroupTitle, IconName } from '../schemas.js';
import { presentGroupTo } from '../presenter.js';
import { GroupSchema } from './schemas.js';

/** Updates a section group's title and icon; absent fields stay, `icon: null` removes the icon. */
export const updateSiteSectionGroup = writeOperation({
  name: 'updateSiteSectionGroup',
  summary: 'Update a section group of a site',
  params: { organizationId: Id, siteId: Id, siteSectionGroupId: Id },
  body: {
    title: v.optional(GroupTitle),
    icon: v.optional(v.nullable(IconName)),
  },
  response: GroupSchema,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, siteSectionGroupId, title, icon }) {
    const { site, member } = await requireSite(ctx, organizationId, siteId, 'structure', 'change its structure');
    const group = await loadGroup(ctx, site, siteSectionGroupId);
    const updated = applyPatch(group, { title, icon: icon === null ? REMOVE : icon });
    if (updated !== group) await ctx.tx.put(TABLES.siteSectionGroups, updated);
    return presentGroupTo(ctx, site, member, group.id);
  },
});
