import * as v from 'valibot';
import { badRequest } from '../../errors.js';
import { keyAtEnd } from '../../ordering/siblings.js';
import { writeOperation } from '../../operation.js';
import { TABLES, type SiteSectionGroupRecord, type SiteSectionRecord } from '../../records.js';
import { Id } from '../../schemas.js';
import { loadSection, locksSite, referenced, requireSite } from '../access.js';
import { GroupTitle, IconName } from '../schemas.js';
import { topLevel } from '../structure.js';
import { putInGroup } from './membership.js';
import { presentGroupTo } from '../presenter.js';
import { GroupSchema } from './schemas.js';

/**
 * Adds a section group at the end of a site's top level. `sections` (distinct sections of the site)
 * move into it in the order given, out of their top-level place or their previous group.
 */
export const addSectionGroupToSite = writeOperation({
  name: 'addSectionGroupToSite',
  summary: 'Add a section group to a site',
  params: { organizationId: Id, siteId: Id },
  body: {
    title: GroupTitle,
    icon: v.optional(v.nullable(IconName)),
    sections: v.optional(v.pipe(v.array(Id), v.maxLength(1000, 'must have at most 1000 entries'))),
  },
  response: GroupSchema,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, title, icon, sections = [] }) {
    const { site, member } = await requireSite(ctx, organizationId, siteId, 'structure', 'change its structure');
    const members: SiteSectionRecord[] = [];
    for (const [i, sectionId] of sections.entries()) {
      if (sections.indexOf(sectionId) !== i) throw badRequest(`sections.${i}: section ${sectionId} is listed twice`);
      members.push(await referenced(`sections.${i}`, () => loadSection(ctx, site, sectionId)));
    }
    const group: SiteSectionGroupRecord = {
      id: ctx.ids.id(),
      siteId: site.id,
      organizationId,
      title,
      ...(typeof icon === 'string' && { icon }),
      parentKey: topLevel(site.id).key,
      orderKey: await keyAtEnd(ctx.tx, topLevel(site.id)),
      createdAt: ctx.now,
    };
    await ctx.tx.insert(TABLES.siteSectionGroups, group);
    for (const section of members) await putInGroup(ctx, section, group);
    return presentGroupTo(ctx, site, member, group.id);
  },
});
