import * as v from 'valibot';
import { listSiblings } from '../../ordering/siblings.js';
import { writeOperation } from '../../operation.js';
import { REMOVE, applyPatch } from '../../patch.js';
import { TABLES, type SiteSpaceRecord } from '../../records.js';
import { Id } from '../../schemas.js';
import { loadSiteSpace, locksSite, requireSite } from '../access.js';
import { assertSiteCondition } from '../adaptive/site-conditions.js';
import { assertPathFree } from '../paths.js';
import { presentSiteSpaceTo } from '../presenter.js';
import { Condition, SegmentPath } from '../schemas.js';
import { siteSpaceLevel } from '../structure.js';
import { SiteSpaceSchema } from './schemas.js';

/**
 * Updates a site space. `path` is unique among the site spaces of its level (409); `condition` must
 * name only claims of the site's adaptive schema (400), and null removes it. Absent fields stay.
 */
export const updateSiteSpace = writeOperation({
  name: 'updateSiteSpace',
  summary: 'Update a site space',
  params: { organizationId: Id, siteId: Id, siteSpaceId: Id },
  body: {
    path: v.optional(SegmentPath),
    condition: v.optional(v.nullable(Condition)),
  },
  response: SiteSpaceSchema,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, siteSpaceId, path, condition }) {
    const { site, member } = await requireSite(ctx, organizationId, siteId, 'structure', 'change its structure');
    const siteSpace = await loadSiteSpace(ctx, site, siteSpaceId);
    if (path !== undefined) {
      const level = siteSpaceLevel(site.id, siteSpace.sectionId);
      const siblings = (await listSiblings(ctx.tx, level)).map((sibling) => sibling.record as unknown as SiteSpaceRecord);
      assertPathFree(path, siblings, siteSpace.id, level.label);
    }
    if (typeof condition === 'string') assertSiteCondition(site, condition);
    const updated = applyPatch(siteSpace, { path, condition: condition === null ? REMOVE : condition });
    if (updated !== siteSpace) await ctx.tx.put(TABLES.siteSpaces, updated);
    return presentSiteSpaceTo(ctx, site, member, siteSpace.id);
  },
});
