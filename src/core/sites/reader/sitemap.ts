import * as v from 'valibot';
import { loadRevision } from '../../content/revision.js';
import { readOperation } from '../../operation.js';
import { NO_CLAIMS } from '../adaptive/evaluate.js';
import { findSite } from './admission.js';
import { LLMS_FULL_SEGMENT, LLMS_SEGMENT } from './ai-paths.js';
import { navigationOf } from './navigation.js';
import type { ReaderAnswer, SiteRef } from './view.js';
import { visibleStructure } from './visible-structure.js';

/**
 * What a published site tells search engines: a public site lists its pages in `sitemap.xml` (every page
 * of every site space a visitor without claims reads, but hidden ones and those marked noIndex or
 * noRobotsIndex) and points at it from `robots.txt`; an unlisted, share-link or visitor-auth site asks
 * not to be crawled at all.
 */

/** The site a request names (view.ts SiteRef). */
export const SiteName = v.custom<SiteRef>((value) => typeof value === 'object' && value !== null);

/** The robots.txt of a published site. */
export const readPublishedRobots = readOperation({
  name: 'readPublishedRobots',
  summary: 'Read the robots.txt of a published site',
  body: { site: SiteName },
  response: v.custom<ReaderAnswer>(() => true),
  async run(ctx, { site: name }): Promise<ReaderAnswer> {
    const site = await findSite(ctx, name);
    if (!site || !site.published) return { kind: 'missing' };
    if (site.visibility !== 'public') return { kind: 'robots' };
    const url = (await visibleStructure(ctx, site, NO_CLAIMS)).url;
    return { kind: 'robots', sitemap: `${url}/sitemap.xml`, llms: [`${url}/${LLMS_SEGMENT}`, `${url}/${LLMS_FULL_SEGMENT}`] };
  },
});

/** The sitemap.xml of a published public site. */
export const readPublishedSitemap = readOperation({
  name: 'readPublishedSitemap',
  summary: 'Read the sitemap of a published site',
  body: { site: SiteName },
  response: v.custom<ReaderAnswer>(() => true),
  async run(ctx, { site: name }): Promise<ReaderAnswer> {
    const site = await findSite(ctx, name);
    if (!site || !site.published || site.visibility !== 'public') return { kind: 'missing' };
    const urls: string[] = [];
    for (const siteSpace of (await visibleStructure(ctx, site, NO_CLAIMS)).all) {
      const navigation = await navigationOf(ctx, await loadRevision(ctx.tx, siteSpace.space.revision), siteSpace.address);
      for (const page of navigation.order) if (!page.noIndex && !page.noRobotsIndex) urls.push(navigation.urls.get(page.id)!);
    }
    return { kind: 'sitemap', urls };
  },
});
