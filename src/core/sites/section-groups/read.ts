import { listQuery, mapPage, pageOfArray } from '../../pagination.js';
import { readOperation } from '../../operation.js';
import { Id } from '../../schemas.js';
import { requireSite } from '../access.js';
import { sitePresenter } from '../presenter.js';
import { GroupList } from './schemas.js';

/** Lists a site's section groups in their order on the top level, each with its sections in order. */
export const listSiteSectionGroups = readOperation({
  name: 'listSiteSectionGroups',
  summary: 'List the section groups of a site',
  params: { organizationId: Id, siteId: Id },
  query: listQuery,
  response: GroupList,
  async run(ctx, input) {
    const { site, member } = await requireSite(ctx, input.organizationId, input.siteId, 'view', 'read its sites');
    const presenter = await sitePresenter(ctx, site, member);
    const groups = presenter.structure.top.flatMap((entry) => (entry.kind === 'group' ? [entry] : []));
    const page = pageOfArray(groups, (entry) => [entry.group.orderKey, entry.group.id], input);
    return mapPage(page, (entry) => presenter.group(entry.group, entry.sections));
  },
});
