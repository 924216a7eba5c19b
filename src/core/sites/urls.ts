import type { Context } from '../context.js';
import type { SiteRecord } from '../records.js';
import { uriComponent } from '../well-formed.js';

/**
 * Where a site is read. By default at `{base}/published/o/<organizationId>/<basename or site id>`; a
 * proxy origin (`example.com/docs`) or a custom hostname takes its place, the proxy first since it is
 * the more specific. The default section and the default site space of a level sit at their parent's
 * URL; the others add their path.
 */

/** The URL a site is served at when neither a proxy nor a hostname is set (also the proxy's target). */
export function defaultSiteUrl(ctx: Context, site: SiteRecord): string {
  return ctx.urls.published(`/o/${site.organizationId}/${uriComponent(site.basename ?? site.id)}`);
}

/** The URL readers reach a site at. */
export function siteUrl(ctx: Context, site: SiteRecord): string {
  if (site.proxy !== undefined) return `https://${site.proxy}`;
  if (site.hostname !== undefined) return `https://${site.hostname}`;
  return defaultSiteUrl(ctx, site);
}

/** Builds the published URLs of a site and of the places in it; undefined while the site is not published. */
export type PublishedLinks = (segments: readonly string[]) => string | undefined;

/**
 * The published links of a site. For a share-link site, `shareKey` (the secret of the link a reader
 * holds) is added to every URL as `?share=`, so the URLs work for that reader.
 */
export function publishedLinks(ctx: Context, site: SiteRecord, shareKey?: string): PublishedLinks {
  if (!site.published) return () => undefined;
  const base = siteUrl(ctx, site);
  const query = site.visibility === 'share-link' && shareKey !== undefined ? `?share=${uriComponent(shareKey)}` : '';
  return (segments) => base + segments.map((segment) => `/${uriComponent(segment)}`).join('') + query;
}

/** The segments a section adds to the site's URL: none for the site's default section. */
export const sectionSegments = (defaultSectionId: string | undefined, section: { id: string; path: string }): string[] =>
  section.id === defaultSectionId ? [] : [section.path];

/** The segments a site space adds to the site's URL: its section's, then its path unless it is its level's default. */
export const siteSpaceSegments = (
  defaultSectionId: string | undefined,
  section: { id: string; path: string } | undefined,
  siteSpace: { path: string },
  isDefault: boolean,
): string[] => [...(section ? sectionSegments(defaultSectionId, section) : []), ...(isDefault ? [] : [siteSpace.path])];
