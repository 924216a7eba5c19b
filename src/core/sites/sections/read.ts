import * as v from 'valibot';
import { listQuery, mapPage, pageOfArray } from '../../pagination.js';
import { readOperation } from '../../operation.js';
import { Id } from '../../schemas.js';
import { ShareKey } from '../../spaces/schemas.js';
import { requireSite } from '../access.js';
import { sitePresenter } from '../presenter.js';
import { SectionList } from './schemas.js';

/**
 * Lists a site's sections in published order (a group's sections at the group's place), each with its
 * site spaces in order. `shareKey` goes into the published URLs of a share-link site.
 */
export const listSiteSections = readOperation({
  name: 'listSiteSections',
  summary: 'List the sections of a site',
  params: { organizationId: Id, siteId: Id },
  query: { ...listQuery, shareKey: v.optional(ShareKey) },
  response: SectionList,
  async run(ctx, input) {
    const { site, member } = await requireSite(ctx, input.organizationId, input.siteId, 'view', 'read its sites');
    const presenter = await sitePresenter(ctx, site, member, input.shareKey);
    const page = pageOfArray(presenter.structure.sections, (node) => node.sortKey, input);
    return mapPage(page, presenter.section);
  },
});
