import type { Context } from '../../context.js';
import { movedFrom } from '../../content/moved-pages.js';
import { loadRevision } from '../../content/revision.js';
import type { SiteRecord } from '../../records.js';
import { matchTarget } from '../redirects/destination.js';
import { matchRedirect } from '../redirects/stored.js';
import { navigationOf, type Navigation } from './navigation.js';
import type { Place } from './visible-structure.js';

/**
 * Where the reader sends a visitor of a path that has nothing at it, before answering 404: a page the path
 * names when a segment of it that a section or a site space took is read as the page's (a URL made before
 * they took it: urls.ts), else the site's live redirect from that path (sites/redirects/), else the page
 * that moved away from it in its site space (content/moved-pages.ts). Only such paths are redirected, so a
 * redirect never hides a page.
 */

/** A redirect the reader answers. */
export interface Elsewhere {
  readonly status: 307 | 308;
  readonly location: string;
}

/** Public traffic: the sites (and spaces) anyone may read. */
const isPublic = (visibility: string) => visibility === 'public' || visibility === 'unlisted';

/**
 * The status of a redirect, as the public API's SiteRedirect says it serves them: a permanent one is a 308
 * for public traffic and a 307 elsewhere (share links, visitor tokens: who may read may change); others, 307.
 */
const statusOf = (permanent: boolean, visibility: string): Elsewhere['status'] => (permanent && isPublic(visibility) ? 308 : 307);

/** Where a live redirect of a site sends the visitor of a path of it (decoded segments). */
export async function siteRedirectOf(ctx: Context, site: SiteRecord, segments: readonly string[]): Promise<Elsewhere | undefined> {
  const match = await matchRedirect(ctx.tx, site.id, `/${segments.join('/')}`);
  const location = match && (await matchTarget(ctx, site, match));
  return location === undefined ? undefined : { status: statusOf(match!.redirect.permanent, site.visibility), location };
}

/** Where the page that last moved away from a path of a space is now, on this navigation of it: a permanent redirect. */
export async function movedPageOf(ctx: Context, spaceId: string, path: string, navigation: Navigation, visibility: string): Promise<Elsewhere | undefined> {
  const pageId = await movedFrom(ctx.tx, spaceId, path);
  const location = pageId === undefined ? undefined : navigation.urls.get(pageId);
  return location === undefined ? undefined : { status: statusOf(true, visibility), location };
}

/**
 * The published URL of a page that another way of reading the path names (visible-structure.ts placesOf,
 * after the first): a permanent redirect, since that URL is where the page is read now.
 */
export async function shadowedPageOf(ctx: Context, others: readonly Place[], visibility: string): Promise<Elsewhere | undefined> {
  for (const place of others) {
    if (place.rest.length === 0) continue;
    const navigation = await navigationOf(ctx, await loadRevision(ctx.tx, place.siteSpace.space.revision), place.siteSpace.address);
    const page = navigation.byPath.get(place.rest.join('/'));
    const location = page && navigation.urls.get(page.id);
    if (location !== undefined) return { status: statusOf(true, visibility), location };
  }
  return undefined;
}
