import type { Context } from '../../context.js';
import { INDEXES, TABLES, type SiteRecord, type SiteSpaceRecord, type SpaceRecord } from '../../records.js';
import { NO_CLAIMS } from '../adaptive/evaluate.js';
import { admit } from './admission.js';
import type { SiteSpaceAddress } from '../urls.js';
import type { ReaderRequest } from './view.js';
import { visibleStructure } from './visible-structure.js';

/**
 * Where a visitor reads a space that is on published sites. Such a space is read on its sites only, under
 * their rules: a site's visibility and the adaptive conditions of its sections and site spaces guard the
 * space's own URL (`/s/<spaceId>`) too, or a visitor left out of a section could read its space there.
 */

/** Where a space is read: at `address` on a site that shows it to the visitor; on no site (`hidden`); or alone (`alone`: on no published site). */
export type SpaceOnSites = { readonly kind: 'shown'; readonly address: SiteSpaceAddress } | { readonly kind: 'hidden' } | { readonly kind: 'alone' };

/**
 * The URL of a space on the first published site that shows it to this visitor (oldest site space first):
 * a site that admits the visitor and where a site space of the space, and its section, hold for the visitor's
 * claims. A space in several sections or site spaces is shown when any of them is. A visitor-auth site that
 * asks for a token counts with no claims, so that its sign-in page is where the space leads.
 */
export async function spaceOnSites(ctx: Context, space: SpaceRecord, request: ReaderRequest): Promise<SpaceOnSites> {
  const { items } = await ctx.tx.list(TABLES.siteSpaces, { index: INDEXES.siteSpacesBySpace, value: space.id });
  const seen = new Set<string>();
  let published = false;
  for (const record of items as SiteSpaceRecord[]) {
    if (seen.has(record.siteId)) continue;
    seen.add(record.siteId);
    const site = (await ctx.tx.get(TABLES.sites, record.siteId)) as SiteRecord | undefined;
    if (!site?.published) continue;
    published = true;
    const admission = await admit(ctx, site, request);
    if (admission.kind === 'missing') continue;
    const claims = admission.kind === 'admitted' ? admission.claims : NO_CLAIMS;
    const placed = (await visibleStructure(ctx, site, claims)).all.find((item) => item.space.id === space.id);
    if (placed) return { kind: 'shown', address: placed.address };
  }
  return published ? { kind: 'hidden' } : { kind: 'alone' };
}

/**
 * The query that carries a visitor's credentials, claims and search from a space's own URL to its place on
 * a site (`?share=…&jwt_token=…&visitor.<claim>=…&q=…`), or '' when there are none: without them, the site
 * would not show the visitor what the space's URL just found they may read. A visitor token is carried only
 * when it came in the query: one from a cookie would otherwise land in the address bar, history and logs.
 */
export function carriedQuery(request: ReaderRequest & { query?: string }): string {
  const params = new URLSearchParams();
  if (request.share !== undefined) params.set('share', request.share);
  if (request.visitorToken !== undefined && request.visitorTokenInQuery === true) params.set('jwt_token', request.visitorToken);
  for (const [name, value] of Object.entries(request.unsigned)) params.set(`visitor.${name}`, String(value));
  if (request.query !== undefined) params.set('q', request.query);
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}
