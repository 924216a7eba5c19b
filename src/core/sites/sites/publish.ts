import { writeOperation } from '../../operation.js';
import { TABLES, type SiteRecord } from '../../records.js';
import { Id } from '../../schemas.js';
import { locksSite, requireSite } from '../access.js';
import { presentSite } from './present.js';
import { SiteSchema } from './schemas.js';

/** Defines the operation that sets a site's `published` (the public API's publishSite and unpublishSite). */
function publishing(name: string, summary: string, published: boolean) {
  return writeOperation({
    name,
    summary,
    params: { organizationId: Id, siteId: Id },
    response: SiteSchema,
    locks: locksSite,
    async run(ctx, { organizationId, siteId }) {
      const { site } = await requireSite(ctx, organizationId, siteId, 'admin', published ? 'publish it' : 'unpublish it');
      if (site.published === published) return presentSite(ctx, site);
      const updated: SiteRecord = { ...site, published };
      await ctx.tx.put(TABLES.sites, updated);
      return presentSite(ctx, updated);
    },
  });
}

/** Publishes a site: it becomes readable by the audience its visibility names. Admins only; publishing twice changes nothing. */
export const publishSite = publishing('publishSite', 'Publish a site', true);

/** Unpublishes a site. Admins only; unpublishing twice changes nothing. */
export const unpublishSite = publishing('unpublishSite', 'Unpublish a site', false);
