import { writeOperation } from '../../operation.js';
import { TABLES } from '../../records.js';
import { Id } from '../../schemas.js';
import { loadSection, locksSite, requireSite } from '../access.js';
import { pointDefaultSection } from '../defaults.js';
import { levelOf, loadStructure } from '../structure.js';

/**
 * Deletes a section with its site spaces (the spaces stay). When it was the default section, the first
 * remaining section (in published order) becomes the default.
 */
export const deleteSiteSection = writeOperation({
  name: 'deleteSiteSection',
  summary: 'Delete a section of a site',
  params: { organizationId: Id, siteId: Id, siteSectionId: Id },
  response: null,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, siteSectionId }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'structure', 'change its structure');
    const section = await loadSection(ctx, site, siteSectionId);
    const structure = await loadStructure(ctx.tx, site);
    for (const siteSpace of levelOf(structure, section.id)) await ctx.tx.delete(TABLES.siteSpaces, siteSpace.id);
    await ctx.tx.delete(TABLES.siteSections, section.id);
    if (structure.defaultSectionId === section.id) {
      const next = structure.sections.find((node) => node.section.id !== section.id);
      await pointDefaultSection(ctx, site.id, next?.section.id);
    }
  },
});
