import * as v from 'valibot';
import { listQuery, mapPage, pageOf } from '../../pagination.js';
import { readOperation } from '../../operation.js';
import { requireSites } from '../../permissions.js';
import { INDEXES, TABLES, type SiteRecord, type SiteSpaceRecord } from '../../records.js';
import { Id, QueryBoolean } from '../../schemas.js';
import { requireSite } from '../access.js';
import { sized } from '../schemas.js';
import { presentSite } from './present.js';
import { SiteList, SiteSchema } from './schemas.js';

/**
 * Lists the sites of an organization, oldest first. `space` keeps the sites that have that space on
 * them (at the root or in a section), `title` the sites whose title contains it (case-insensitive),
 * `published` the published (true) or unpublished (false) ones.
 */
export const listSites = readOperation({
  name: 'listSites',
  summary: 'List the sites of an organization',
  params: { organizationId: Id },
  query: {
    ...listQuery,
    space: v.optional(Id),
    title: v.optional(sized(0, 128)),
    published: v.optional(QueryBoolean),
  },
  response: SiteList,
  async run(ctx, input) {
    const { organizationId, space, title, published } = input;
    await requireSites(ctx, organizationId, 'view', 'list its sites');
    const onSpace =
      space === undefined
        ? undefined
        : new Set(
            ((await ctx.tx.list(TABLES.siteSpaces, { index: INDEXES.siteSpacesBySpace, value: space })).items as SiteSpaceRecord[]).map(
              (record) => record.siteId,
            ),
          );
    const needle = title?.toLowerCase();
    const where = (record: unknown) => {
      const site = record as SiteRecord;
      if (onSpace && !onSpace.has(site.id)) return false;
      if (needle && !site.title.toLowerCase().includes(needle)) return false;
      return published === undefined || site.published === published;
    };
    const page = await pageOf(ctx.tx, TABLES.sites, { index: INDEXES.sitesByOrganization, value: organizationId, where }, input);
    return mapPage(page, (site) => presentSite(ctx, site as SiteRecord));
  },
});

/** Gets a site. */
export const getSite = readOperation({
  name: 'getSite',
  summary: 'Get a site',
  params: { organizationId: Id, siteId: Id },
  response: SiteSchema,
  async run(ctx, { organizationId, siteId }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'view', 'read its sites');
    return presentSite(ctx, site);
  },
});
