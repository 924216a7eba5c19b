import * as v from 'valibot';
import { writeOperation } from '../../operation.js';
import { TABLES } from '../../records.js';
import { Id } from '../../schemas.js';
import { loadSiteSpace, locksSite, requireSite } from '../access.js';
import { pointLevelDefault } from '../defaults.js';
import { positionOf, reorder } from '../positions.js';
import { presentSiteSpaceTo } from '../presenter.js';
import { SITE_SPACE_KIND, levelDefault, loadStructure, siteSpaceLevel } from '../structure.js';
import { SiteSpacePointer, SiteSpaceSchema } from './schemas.js';

/** Moves a site space among the site spaces of its level (its section, or the root). Without `position` it goes to the end. */
export const moveSiteSpace = writeOperation({
  name: 'moveSiteSpace',
  summary: 'Move a site space',
  params: { organizationId: Id, siteId: Id, siteSpaceId: Id },
  body: { position: v.optional(v.object({ before: v.optional(SiteSpacePointer), after: v.optional(SiteSpacePointer) })) },
  response: SiteSpaceSchema,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, siteSpaceId, position }) {
    const { site, member } = await requireSite(ctx, organizationId, siteId, 'structure', 'change its structure');
    const siteSpace = await loadSiteSpace(ctx, site, siteSpaceId);
    // A default that left with its space (purged, or transferred to another organization) leaves a stale
    // pointer, read as "the first": pin that one before the move, which must not change the default.
    await pointLevelDefault(ctx, site.id, siteSpace.sectionId, levelDefault(await loadStructure(ctx.tx, site), siteSpace.sectionId));
    const level = siteSpaceLevel(site.id, siteSpace.sectionId);
    await reorder(ctx, TABLES.siteSpaces, siteSpace, level, SITE_SPACE_KIND, positionOf(position, 'siteSpace'));
    return presentSiteSpaceTo(ctx, site, member, siteSpace.id);
  },
});
