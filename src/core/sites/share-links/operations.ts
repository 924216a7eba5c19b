import * as v from 'valibot';
import type { Context } from '../../context.js';
import { badRequest, notFound } from '../../errors.js';
import { readOperation, writeOperation } from '../../operation.js';
import { listQuery, pageOfArray } from '../../pagination.js';
import { INDEXES, TABLES, type SiteRecord, type SiteShareLinkRecord } from '../../records.js';
import { Id } from '../../schemas.js';
import { locksSite, requireSite } from '../access.js';
import { shareLinkKey } from '../reader/site-keys.js';
import { presentShareLink, ShareLinkList, ShareLinkName, ShareLinkSchema } from './schemas.js';

/**
 * A site's share links (the public API's `…/share-links`): each names one key that opens the site while it
 * is `share-link` and the link is active. Admins manage them (the public API's `site:auth` scopes): a key
 * opens the site, so only those who may change who reads it see one.
 */

const DOING = 'manage its share links';

const params = { organizationId: Id, siteId: Id };

/** A share link of the site named in the path (404). */
async function loadShareLink(ctx: Context, site: SiteRecord, id: string): Promise<SiteShareLinkRecord> {
  const link = (await ctx.tx.get(TABLES.siteShareLinks, id)) as SiteShareLinkRecord | undefined;
  if (!link || link.siteId !== site.id) throw notFound(`No share link ${id} in site ${site.id}`);
  return link;
}

/** Lists a site's share links, oldest first; `search` keeps those whose name holds it (any case) or whose key is it. */
export const listSiteShareLinks = readOperation({
  name: 'listSiteShareLinks',
  summary: 'List the share links of a site',
  params,
  query: { ...listQuery, search: v.optional(v.pipe(v.string(), v.maxLength(200, 'must be at most 200 characters'))) },
  response: ShareLinkList,
  async run(ctx, { organizationId, siteId, search, ...page }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'admin', DOING);
    const { items } = await ctx.tx.list(TABLES.siteShareLinks, { index: INDEXES.siteShareLinksBySite, value: site.id });
    let links = items as SiteShareLinkRecord[];
    if (search) {
      const wanted = search.toLowerCase();
      const found: SiteShareLinkRecord[] = [];
      for (const link of links) if (link.name?.toLowerCase().includes(wanted) || (await shareLinkKey(ctx, link)) === search) found.push(link);
      links = found;
    }
    const listed = pageOfArray(links, (link) => [link.createdAt, link.id], page);
    return { ...listed, items: await Promise.all(listed.items.map((link) => presentShareLink(ctx, site, link))) };
  },
});

/** Creates a named share link, active, with a new key. */
export const createSiteShareLink = writeOperation({
  name: 'createSiteShareLink',
  summary: 'Create a share link of a site',
  params,
  body: { name: ShareLinkName },
  response: ShareLinkSchema,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, name }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'admin', DOING);
    const link: SiteShareLinkRecord = { id: ctx.ids.id(), siteId: site.id, organizationId: site.organizationId, name, active: true, createdAt: ctx.now };
    await ctx.tx.insert(TABLES.siteShareLinks, link);
    return presentShareLink(ctx, site, link);
  },
});

/** Renames a share link, or turns it off (`active: false`) and on again without changing its key. */
export const updateSiteShareLink = writeOperation({
  name: 'updateSiteShareLink',
  summary: 'Update a share link of a site',
  params: { ...params, shareLinkId: Id },
  body: { active: v.optional(v.boolean()), name: v.optional(ShareLinkName) },
  response: ShareLinkSchema,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, shareLinkId, active, name }) {
    if (active === undefined && name === undefined) throw badRequest('body: give active, name or both');
    const { site } = await requireSite(ctx, organizationId, siteId, 'admin', DOING);
    const link = await loadShareLink(ctx, site, shareLinkId);
    const updated: SiteShareLinkRecord = { ...link, ...(active !== undefined && { active }), ...(name !== undefined && { name }) };
    await ctx.tx.put(TABLES.siteShareLinks, updated);
    return presentShareLink(ctx, site, updated);
  },
});

/** Deletes a share link: its key no longer opens the site; the site's other links still do. */
export const deleteSiteShareLink = writeOperation({
  name: 'deleteSiteShareLink',
  summary: 'Delete a share link of a site',
  params: { ...params, shareLinkId: Id },
  response: null,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, shareLinkId }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'admin', DOING);
    await loadShareLink(ctx, site, shareLinkId);
    await ctx.tx.delete(TABLES.siteShareLinks, shareLinkId);
  },
});
