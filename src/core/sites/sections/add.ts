import * as v from 'valibot';
import { writeOperation } from '../../operation.js';
import { Id } from '../../schemas.js';
import { locksSite, requireSite } from '../access.js';
import { DEFAULT_SECTION_TITLE, presentSectionTo } from '../presenter.js';
import { sized } from '../schemas.js';
import { insertSiteSpace, spaceForSite } from '../site-spaces/place.js';
import { loadStructure } from '../structure.js';
import { gatherRootIntoSection, insertSection } from './insert.js';
import { SectionSchema } from './schemas.js';

/**
 * Adds a section at the end of a site's top level with one site space, the space `spaceId`, as its
 * first (and default) site space. `title` defaults to the space's title. When the site has site spaces
 * at its root and no section yet, those first become a section of their own (gatherRootIntoSection).
 */
export const addSectionToSite = writeOperation({
  name: 'addSectionToSite',
  summary: 'Add a section to a site',
  params: { organizationId: Id, siteId: Id },
  body: {
    spaceId: Id,
    title: v.optional(sized(2, 64)),
  },
  response: SectionSchema,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, spaceId, title }) {
    const { site, member } = await requireSite(ctx, organizationId, siteId, 'structure', 'change its structure');
    const space = await spaceForSite(ctx, organizationId, member, spaceId, 'spaceId');
    const structure = await loadStructure(ctx.tx, site);
    if (structure.sections.length === 0 && structure.rootSiteSpaces.length > 0) await gatherRootIntoSection(ctx, structure);
    const fromSpace = title === undefined && space.title.trim().length >= 2;
    const section = fromSpace ? await insertSection(ctx, site, space.title, space.id) : await insertSection(ctx, site, title ?? DEFAULT_SECTION_TITLE);
    await insertSiteSpace(ctx, site, section.id, space);
    return presentSectionTo(ctx, site, member, section.id);
  },
});
