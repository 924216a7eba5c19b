import type * as v from 'valibot';
import type { Context } from '../../context.js';
import { INDEXES, TABLES, type SiteRecord, type SiteSpaceRecord } from '../../records.js';
import { defaultSiteUrl, publishedLinks } from '../urls.js';
import type { SITE_FEATURES, SiteSchema } from './schemas.js';

/** The site object of responses. */
export type SiteOutput = v.InferInput<typeof SiteSchema>;

type Feature = (typeof SITE_FEATURES)[number];

/**
 * The features a site uses, in the public API's order. Every feature is available on every type of
 * site here (there is no billing), so each is listed with the site's own type as its plan, never frozen.
 */
function featuresOf(site: SiteRecord, hasSections: boolean, multivariant: boolean): Feature[] {
  const uses: [Feature, boolean][] = [
    ['sites-adaptive-content', site.adaptiveContent],
    ['sites-custom-domain', site.hostname !== undefined],
    ['sites-custom-subdirectory', site.proxy !== undefined],
    ['sites-multivariant-site', multivariant],
    ['sites-sections', hasSections],
    ['sites-share-links', site.visibility === 'share-link'],
    ['sites-visitor-authentication', site.visibility === 'visitor-auth'],
  ];
  return uses.filter(([, used]) => used).map(([feature]) => feature);
}

/**
 * The site object, with its counts read now: `siteSpaces` counts every site space of the site; the site
 * is multivariant when one level (the root or a section) holds more than one site space. `ads` is the
 * public API's first state (nothing submitted); a site can be submitted once it is published and public.
 */
export async function presentSite(ctx: Context, site: SiteRecord, shareKey?: string): Promise<SiteOutput> {
  const { items, count } = await ctx.tx.list(TABLES.siteSpaces, { index: INDEXES.siteSpacesBySite, value: site.id });
  const perLevel = new Map<string, number>();
  for (const record of items as SiteSpaceRecord[]) perLevel.set(record.parentKey, (perLevel.get(record.parentKey) ?? 0) + 1);
  const sections = await ctx.tx.list(TABLES.siteSections, { index: INDEXES.siteSectionsBySite, value: site.id, limit: 0 });
  const published = publishedLinks(ctx, site, shareKey)([]);
  return {
    object: 'site',
    id: site.id,
    type: site.type as SiteOutput['type'],
    title: site.title,
    ...(site.hostname !== undefined && { hostname: site.hostname }),
    ...(site.basename !== undefined && { basename: site.basename }),
    ...(site.proxy !== undefined && { proxy: { origin: site.proxy, target: defaultSiteUrl(ctx, site) } }),
    visibility: site.visibility,
    published: site.published,
    siteSpaces: count,
    createdAt: site.createdAt,
    adaptiveContent: { enabled: site.adaptiveContent },
    ads: { status: 'pending', submittable: site.published && site.visibility === 'public' },
    features: featuresOf(site, sections.count > 0, [...perLevel.values()].some((n) => n > 1)).map((id) => ({ id, plan: site.type as SiteOutput['type'], frozen: false })),
    urls: {
      location: ctx.urls.api(`/orgs/${site.organizationId}/sites/${site.id}`),
      app: ctx.urls.app(`/o/${site.organizationId}/sites/${site.id}`),
      ...(published !== undefined && { published }),
    },
  };
}
