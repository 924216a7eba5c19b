import * as v from 'valibot';
import type { StoredRecord } from '../../../store/types.js';
import type { Context, WriteContext } from '../../context.js';
import { conflict, notFound } from '../../errors.js';
import { readOperation, writeOperation } from '../../operation.js';
import { listQuery, pageOf } from '../../pagination.js';
import { INDEXES, TABLES, type SiteRecord, type SiteRedirectRecord } from '../../records.js';
import { Id, QueryBoolean } from '../../schemas.js';
import { ShareKey } from '../../spaces/schemas.js';
import { uriComponent } from '../../well-formed.js';
import { locksSite, requireSite } from '../access.js';
import { checkDestination, matchTarget } from './destination.js';
import { DestinationInput, DestinationSchema, decodedSource, presentRedirect, SiteRedirectList, SiteRedirectSchema, SourcePath } from './schemas.js';
import { listKeyOf, matchRedirect, redirectFrom, redirectRecord } from './stored.js';

/**
 * A site's redirects (the public API's `…/redirects`): members with a role read them, admins change them,
 * as they change the site's other settings. The reader follows the live ones (reader/read-published.ts).
 */

const params = { organizationId: Id, siteId: Id };

const DOING = 'change its redirects';

/** A redirect of the site named in the path (404). */
async function loadRedirect(ctx: Context, site: SiteRecord, id: string): Promise<SiteRedirectRecord> {
  const redirect = (await ctx.tx.get(TABLES.siteRedirects, id)) as SiteRedirectRecord | undefined;
  if (!redirect || redirect.siteId !== site.id) throw notFound(`No redirect ${id} in site ${site.id}`);
  return redirect;
}

/** Refuses (409) a source that another redirect of the site, live or draft as this one, already has. */
export async function assertSourceFree(ctx: Context, site: SiteRecord, draft: boolean, source: string, id?: string): Promise<void> {
  const other = await redirectFrom(ctx.tx, site.id, draft, source);
  if (other && other.id !== id) throw conflict(`source: ${draft ? 'a draft' : 'a live'} redirect of site ${site.id} is already from ${source} (${other.id})`);
}

/** The orders a list can take: newest created or updated first, or by source. */
const ORDERS = {
  createdAt: { index: INDEXES.siteRedirectsByCreated, order: 'desc' },
  updatedAt: { index: INDEXES.siteRedirectsByTouched, order: 'desc' },
  source: { index: INDEXES.siteRedirectsBySourceOrder, order: 'asc' },
} as const;

/** Lists a site's live (or, with `draft=true`, draft) redirects; `search` keeps those whose source holds it (any case). */
export const listSiteRedirects = readOperation({
  name: 'listSiteRedirects',
  summary: 'List the redirects of a site',
  params,
  query: {
    ...listQuery,
    search: v.optional(v.pipe(v.string(), v.maxLength(512, 'must be at most 512 characters'))),
    draft: v.optional(QueryBoolean, false),
    orderBy: v.optional(v.picklist(['createdAt', 'updatedAt', 'source']), 'createdAt'),
  },
  response: SiteRedirectList,
  async run(ctx, { organizationId, siteId, search, draft, orderBy, ...page }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'view', 'read its redirects');
    const wanted = search?.toLowerCase();
    // As given or percent-decoded: `/caf%C3%A9` is found by `café` too.
    const holds = (source: string) => source.toLowerCase().includes(wanted!) || decodedSource(source).toLowerCase().includes(wanted!);
    const where = wanted ? (record: StoredRecord) => holds((record as SiteRedirectRecord).source) : undefined;
    const { index, order } = ORDERS[orderBy];
    const listed = await pageOf(ctx.tx, TABLES.siteRedirects, { index, value: listKeyOf(site.id, draft), order, ...(where && { where }) }, page);
    return { ...listed, items: (listed.items as SiteRedirectRecord[]).map(presentRedirect) };
  },
});

/** The options of a redirect a request may give. */
const options = {
  captureWildcard: v.optional(v.boolean()),
  draft: v.optional(v.boolean()),
  permanent: v.optional(v.boolean()),
};

/** Creates a redirect from a source the site has no redirect from yet (409 otherwise), live unless `draft`. */
export const createSiteRedirect = writeOperation({
  name: 'createSiteRedirect',
  summary: 'Create a redirect of a site',
  params,
  body: { source: SourcePath, destination: DestinationInput, ...options },
  response: SiteRedirectSchema,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, source, destination, captureWildcard = false, draft = false, permanent = false }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'admin', DOING);
    const checked = await checkDestination(ctx, site, destination);
    await assertSourceFree(ctx, site, draft, source);
    const record = redirectRecord({ id: ctx.ids.id(), siteId: site.id, organizationId: site.organizationId, source, draft, captureWildcard, permanent, destination: checked, createdAt: ctx.now });
    await ctx.tx.insert(TABLES.siteRedirects, record);
    return presentRedirect(record);
  },
});

/** Stores a changed redirect, updated now, when anything changed. */
export async function saveRedirect(ctx: WriteContext, was: SiteRedirectRecord, changes: Partial<Pick<SiteRedirectRecord, 'source' | 'draft' | 'captureWildcard' | 'permanent' | 'destination'>>): Promise<SiteRedirectRecord> {
  const next = { ...was, ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) };
  if (JSON.stringify(redirectRecord(next)) === JSON.stringify(was)) return was;
  const updated = redirectRecord({ ...next, updatedAt: ctx.now });
  await ctx.tx.put(TABLES.siteRedirects, updated);
  return updated;
}

/** Changes a redirect's source, destination or options; a draft one goes live with `draft: false`. */
export const updateSiteRedirect = writeOperation({
  name: 'updateSiteRedirect',
  summary: 'Update a redirect of a site',
  params: { ...params, siteRedirectId: Id },
  body: { source: v.optional(SourcePath), destination: v.optional(DestinationSchema), ...options },
  response: SiteRedirectSchema,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, siteRedirectId, source, destination, captureWildcard, draft, permanent }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'admin', DOING);
    const was = await loadRedirect(ctx, site, siteRedirectId);
    const checked = destination && (await checkDestination(ctx, site, destination));
    await assertSourceFree(ctx, site, draft ?? was.draft, source ?? was.source, was.id);
    return presentRedirect(await saveRedirect(ctx, was, { source, destination: checked, captureWildcard, draft, permanent }));
  },
});

/** Deletes a redirect. */
export const deleteSiteRedirect = writeOperation({
  name: 'deleteSiteRedirect',
  summary: 'Delete a redirect of a site',
  params: { ...params, siteRedirectId: Id },
  response: null,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, siteRedirectId }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'admin', DOING);
    await loadRedirect(ctx, site, siteRedirectId);
    await ctx.tx.delete(TABLES.siteRedirects, siteRedirectId);
  },
});

/** The answer of a redirect lookup: the live redirect, and where it leads now. */
const ResolvedRedirectSchema = v.object({ redirect: SiteRedirectSchema, target: v.string() });

/**
 * Finds where a path of a site leads, as the reader does: the live redirect from that very path, else the
 * live wildcard redirect that matches it (longest prefix first), with the URL it leads to now (`?share=`
 * added for a share-link site when `shareKey` is given). 404 when none matches, or what it names is gone.
 */
export const getSiteRedirectBySource = readOperation({
  name: 'getSiteRedirectBySource',
  summary: 'Find the redirect of a path of a site',
  params,
  query: { source: SourcePath, shareKey: v.optional(ShareKey) },
  response: ResolvedRedirectSchema,
  async run(ctx, { organizationId, siteId, source, shareKey }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'view', 'read its redirects');
    const match = await matchRedirect(ctx.tx, site.id, decodedSource(source));
    const target = match && (await matchTarget(ctx, site, match));
    if (!match || target === undefined) throw notFound(`No live redirect of site ${site.id} from ${source}`);
    const shared = shareKey !== undefined && site.visibility === 'share-link' && match.redirect.destination.kind !== 'external';
    return { redirect: presentRedirect(match.redirect), target: shared ? `${target}${target.includes('?') ? '&' : '?'}share=${uriComponent(shareKey)}` : target };
  },
});
