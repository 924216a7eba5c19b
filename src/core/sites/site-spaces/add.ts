import * as v from 'valibot';
import { badRequest } from '../../errors.js';
import { writeOperation } from '../../operation.js';
import { Id } from '../../schemas.js';
import { loadSection, locksSite, referenced, requireSite } from '../access.js';
import { presentSiteSpaceTo } from '../presenter.js';
import { loadStructure } from '../structure.js';
import { insertSiteSpace, spaceForSite } from './place.js';
import { SiteSpaceSchema } from './schemas.js';

/**
 * Adds a space to a site at the end of a level: the section `sectionId`; without it, the default
 * section, or the root when the site has no sections. The first site space of a level is its default.
 */
export const addSpaceToSite = writeOperation({
  name: 'addSpaceToSite',
  summary: 'Add a space to a site',
  params: { organizationId: Id, siteId: Id },
  body: { spaceId: Id, sectionId: v.optional(Id) },
  response: SiteSpaceSchema,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, spaceId, sectionId }) {
    const { site, member } = await requireSite(ctx, organizationId, siteId, 'structure', 'change its structure');
    const structure = await loadStructure(ctx.tx, site);
    if (sectionId !== undefined && structure.sections.length === 0) throw badRequest(`sectionId: site ${site.id} has no sections`);
    const section = sectionId === undefined ? structure.defaultSectionId : (await referenced('sectionId', () => loadSection(ctx, site, sectionId))).id;
    const space = await spaceForSite(ctx, organizationId, member, spaceId, 'spaceId');
    const record = await insertSiteSpace(ctx, site, section, space);
    return presentSiteSpaceTo(ctx, site, member, record.id);
  },
});
