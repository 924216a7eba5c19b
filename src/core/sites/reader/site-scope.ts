import type { Context } from '../../context.js';
import { loadRevision } from '../../content/revision.js';
import type { SiteRecord } from '../../records.js';
import { admit, findSite } from './admission.js';
import { navigationOf } from './navigation.js';
import type { Admitted, ReaderAnswer, ReaderRequest, SiteRef } from './view.js';
import { placeOf, visibleStructure, type VisibleSection, type VisibleStructure } from './visible-structure.js';

/**
 * The site, or the section of it, that a request to one of the reader's own paths for AI tools (ai-paths.ts)
 * names, for a visitor the site admits: its URL with that last segment taken off is the site's URL or a
 * section's. A path where the site has a page is the page's, not ours.
 */

/** A site (or one of its sections) as a visitor the site admitted reads it. */
export interface SiteScope {
  readonly site: SiteRecord;
  readonly visible: VisibleStructure;
  /** The section the request names; absent for the whole site. */
  readonly section?: VisibleSection;
  readonly admitted: Admitted;
  /** The path the site's cookies are scoped to. */
  readonly cookiePath: string;
}

/**
 * The scope a request names, or: the answer for a visitor the site does not admit (`missing`, or
 * `unauthorized` for a visitor-auth site without a valid token); `undefined` when the path is no scope's
 * (a page's, or nothing), for the reader to read as a page.
 */
export async function siteScopeOf(ctx: Context, request: ReaderRequest): Promise<SiteScope | Extract<ReaderAnswer, { kind: 'missing' }> | { kind: 'unauthorized'; site: SiteRecord } | undefined> {
  if ('spaceId' in request.site) return undefined;
  const site = await findSite(ctx, request.site as SiteRef);
  if (!site) return { kind: 'missing' };
  const admission = await admit(ctx, site, request);
  if (admission.kind === 'missing') return admission;
  if (admission.kind === 'unauthorized') return { kind: 'unauthorized', site };
  const visible = await visibleStructure(ctx, site, admission.claims);
  const prefix = request.segments.slice(0, -1);
  if (prefix.length > 1) return undefined;
  const section = prefix.length === 1 ? visible.sections.find((item) => item.node.section.path === prefix[0]) : undefined;
  if (prefix.length === 1 && !section) return undefined;
  const place = placeOf(visible, request.segments);
  if (place && place.rest.length > 0) {
    const navigation = await navigationOf(ctx, await loadRevision(ctx.tx, place.siteSpace.space.revision), place.siteSpace.address);
    if (navigation.byPath.has(place.rest.join('/'))) return undefined;
  }
  return { site, visible, ...(section && { section }), admitted: admission.admitted, cookiePath: new URL(visible.url).pathname.replace(/\/+$/, '') || '/' };
}
