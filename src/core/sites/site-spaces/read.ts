import * as v from 'valibot';
import { listQuery, mapPage, pageOfArray } from '../../pagination.js';
import { readOperation } from '../../operation.js';
import { Id, QueryBoolean } from '../../schemas.js';
import { ShareKey } from '../../spaces/schemas.js';
import { requireSite } from '../access.js';
import { sitePresenter } from '../presenter.js';
import { SiteSpaceList } from './schemas.js';

/**
 * Lists a site's site spaces in published order (the root's, or section by section). `default=true`
 * keeps the default of each level (the site's one default when it has no sections), `default=false`
 * the others. `shareKey` goes into the published URLs of a share-link site.
 */
export const listSiteSpaces = readOperation({
  name: 'listSiteSpaces',
  summary: 'List the site spaces of a site',
  params: { organizationId: Id, siteId: Id },
  query: { ...listQuery, shareKey: v.optional(ShareKey), default: v.optional(QueryBoolean) },
  response: SiteSpaceList,
  async run(ctx, input) {
    const { site, member } = await requireSite(ctx, input.organizationId, input.siteId, 'view', 'read its sites');
    const presenter = await sitePresenter(ctx, site, member, input.shareKey);
    const kept = presenter.structure.siteSpaces.filter((placed) => input.default === undefined || placed.isDefault === input.default);
    const page = pageOfArray(kept, (placed) => placed.sortKey, input);
    return mapPage(page, presenter.siteSpace);
  },
});
