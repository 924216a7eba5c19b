import type { Context } from '../context.js';
import type { SiteRecord } from '../records.js';
import type { PlacedSiteSpace, SiteStructure } from './structure.js';
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

/**
 * The URL scheme of a site's places, made so that nothing shadows anything else. A request's path is read
 * left to right (reader/visible-structure.ts placesOf): a first segment that is a section's path names that
 * section (else the default section), then a segment that is a site space's path of its level names that
 * site space (else the level's default), and the rest is a page's path. The default section and the default
 * site space of a level leave their segment out, so a page's path could begin with a segment a section or a
 * site space has (a section "Guides" and a page group "Guides" in the default section), and a site space of
 * the default section could have a section's path. Such a place's URL spells out the segment it would leave
 * out, which then reads as it should: sections' paths are unique on a site and site spaces' paths in their
 * level, and none of them (nor a page's slug) is one of the reader's own names (paths.ts).
 */

/** The path of a section and of a site space, as the scheme reads them. */
type Named = { readonly id: string; readonly path: string };

/** The segments a section adds to the site's URL: none for the site's default section. */
export const sectionSegments = (structure: Pick<SiteStructure, 'defaultSectionId'>, section: Named): string[] =>
  section.id === structure.defaultSectionId ? [] : [section.path];

/** Where a site space sits in its site's URLs, as segments under the site's URL. */
export interface SiteSpaceSegments {
  /** The shortest segments that reach it. */
  readonly segments: readonly string[];
  /** The segments that reach it before a page path beginning with a segment a section or a site space has, by that segment. */
  readonly taken: ReadonlyMap<string, readonly string[]>;
}

/** Where a placed site space sits in its site's URLs (see the scheme above). */
export function siteSpaceSegments(structure: SiteStructure, placed: Pick<PlacedSiteSpace, 'record' | 'node' | 'isDefault'>): SiteSpaceSegments {
  const section = placed.node?.section;
  const own = placed.record.path;
  const sectionPaths = new Set(structure.sections.map((node) => node.section.path));
  const levelPaths = (placed.node?.siteSpaces ?? structure.rootSiteSpaces).map((sibling) => sibling.path);
  const sectionPart = section ? sectionSegments(structure, section) : [];
  // The segments that reach the site space with `next` after them (undefined: nothing after them).
  const reaching = (next: string | undefined): string[] => {
    const ownPart = !placed.isDefault || (next !== undefined && levelPaths.includes(next)) ? [own] : [];
    const first = ownPart[0] ?? next;
    const spelled = section && sectionPart.length === 0 && first !== undefined && sectionPaths.has(first) ? [section.path] : sectionPart;
    return [...spelled, ...ownPart];
  };
  const segments = reaching(undefined);
  const taken = new Map<string, readonly string[]>();
  for (const next of [...sectionPaths, ...levelPaths]) {
    const other = reaching(next);
    if (other.length !== segments.length) taken.set(next, other);
  }
  return { segments, taken };
}

/** A site space's URL, and the URLs its pages whose path begins with a taken segment are under instead. */
export interface SiteSpaceAddress {
  readonly url: string;
  readonly taken: ReadonlyMap<string, string>;
}

/** A site space's URLs under a site's published links. */
export function siteSpaceAddress(links: (segments: readonly string[]) => string, structure: SiteStructure, placed: PlacedSiteSpace): SiteSpaceAddress {
  const { segments, taken } = siteSpaceSegments(structure, placed);
  return { url: links(segments), taken: new Map([...taken].map(([segment, other]) => [segment, links(other)])) };
}

/** An address that is one URL alone (a space read on its own): nothing shadows its pages. */
export const plainAddress = (url: string): SiteSpaceAddress => ({ url, taken: new Map() });

/** The URL of a path (its segments, decoded) under a site space, under the other URL its first segment needs. */
export function underAddress(address: SiteSpaceAddress, segments: readonly string[]): string {
  const base = (segments.length > 0 && address.taken.get(segments[0])) || address.url;
  return base + segments.map((segment) => `/${uriComponent(segment)}`).join('');
}
