import * as v from 'valibot';
import { writeOperation } from '../../operation.js';
import { TABLES } from '../../records.js';
import { Id } from '../../schemas.js';
import { loadSection, locksSite, requireSite } from '../access.js';
import { positionOf, reorder } from '../positions.js';
import { presentSectionTo } from '../presenter.js';
import { SECTION_KIND, sectionLevel } from '../structure.js';
import { SectionPointer, SectionSchema } from './schemas.js';

/**
 * Moves a section among its siblings: the top level of the site (its ungrouped sections and its
 * groups) or, for a section in a group, the group's sections. Without `position` it goes to the end.
 */
export const moveSiteSection = writeOperation({
  name: 'moveSiteSection',
  summary: 'Move a section of a site',
  params: { organizationId: Id, siteId: Id, siteSectionId: Id },
  body: { position: v.optional(v.object({ before: v.optional(SectionPointer), after: v.optional(SectionPointer) })) },
  response: SectionSchema,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, siteSectionId, position }) {
    const { site, member } = await requireSite(ctx, organizationId, siteId, 'structure', 'change its structure');
    const section = await loadSection(ctx, site, siteSectionId);
    await reorder(ctx, TABLES.siteSections, section, sectionLevel(section), SECTION_KIND, positionOf(position, 'siteSection'));
    return presentSectionTo(ctx, site, member, section.id);
  },
});
