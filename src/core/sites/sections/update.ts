import * as v from 'valibot';
import { badRequest } from '../../errors.js';
import { writeOperation } from '../../operation.js';
import { REMOVE, applyPatch } from '../../patch.js';
import { TABLES } from '../../records.js';
import { Id } from '../../schemas.js';
import { loadSection, locksSite, requireSite } from '../access.js';
import { assertSiteCondition } from '../adaptive/site-conditions.js';
import { assertPathFree } from '../paths.js';
import { presentSectionTo } from '../presenter.js';
import { Condition, IconName, SectionDescription, SegmentPath, SiteTitle } from '../schemas.js';
import { sectionsOf } from './insert.js';
import { SectionSchema } from './schemas.js';

/**
 * Updates a section. Absent fields stay as they are; `condition`, `icon` and `description` take null to
 * remove them. `path` is unique among the site's sections (409); `defaultSiteSpace` must be one of the
 * section's site spaces (400); `condition` must name only claims of the site's adaptive schema (400).
 */
export const updateSiteSection = writeOperation({
  name: 'updateSiteSection',
  summary: 'Update a section of a site',
  params: { organizationId: Id, siteId: Id, siteSectionId: Id },
  body: {
    title: v.optional(SiteTitle),
    path: v.optional(SegmentPath),
    defaultSiteSpace: v.optional(Id),
    condition: v.optional(v.nullable(Condition)),
    icon: v.optional(v.nullable(IconName)),
    description: v.optional(v.nullable(SectionDescription)),
  },
  response: SectionSchema,
  locks: locksSite,
  async run(ctx, input) {
    const { organizationId, siteId, siteSectionId, path, defaultSiteSpace, condition, icon, description } = input;
    const { site, member } = await requireSite(ctx, organizationId, siteId, 'structure', 'change its structure');
    const section = await loadSection(ctx, site, siteSectionId);
    if (path !== undefined) assertPathFree(path, await sectionsOf(ctx, site.id), section.id, `site ${site.id}`);
    if (defaultSiteSpace !== undefined) {
      const siteSpace = await ctx.tx.get(TABLES.siteSpaces, defaultSiteSpace);
      if (!siteSpace || siteSpace.sectionId !== section.id) throw badRequest(`defaultSiteSpace: no site space ${defaultSiteSpace} in section ${section.id}`);
    }
    if (typeof condition === 'string') assertSiteCondition(site, condition);
    const updated = applyPatch(section, {
      title: input.title,
      // A title of its own: no longer the title of a space.
      titleOfSpace: input.title === undefined ? undefined : REMOVE,
      path,
      defaultSiteSpaceId: defaultSiteSpace,
      condition: condition === null ? REMOVE : condition,
      icon: icon === null ? REMOVE : icon,
      description: description === null ? REMOVE : description,
    });
    if (updated !== section) await ctx.tx.put(TABLES.siteSections, updated);
    return presentSectionTo(ctx, site, member, section.id);
  },
});
