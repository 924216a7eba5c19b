import { writeOperation } from '../../operation.js';
import { TABLES } from '../../records.js';
import { Id } from '../../schemas.js';
import { loadSiteSpace, locksSite, requireSite } from '../access.js';
import { pointLevelDefault } from '../defaults.js';
import { levelDefault, levelOf, loadStructure } from '../structure.js';

/**
 * Removes a space from a site (the space stays). When it was the default of its level, the first
 * remaining site space of the level becomes the default; a level left empty has none.
 */
export const deleteSiteSpace = writeOperation({
  name: 'deleteSiteSpace',
  summary: 'Remove a space from a site',
  params: { organizationId: Id, siteId: Id, siteSpaceId: Id },
  response: null,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, siteSpaceId }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'structure', 'change its structure');
    const siteSpace = await loadSiteSpace(ctx, site, siteSpaceId);
    const structure = await loadStructure(ctx.tx, site);
    await ctx.tx.delete(TABLES.siteSpaces, siteSpace.id);
    if (levelDefault(structure, siteSpace.sectionId) === siteSpace.id) {
      const next = levelOf(structure, siteSpace.sectionId).find((record) => record.id !== siteSpace.id);
      await pointLevelDefault(ctx, site.id, siteSpace.sectionId, next?.id);
    }
  },
});
