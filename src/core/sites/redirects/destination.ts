import type { Context } from '../../context.js';
import { readPage, readPageByPath, loadRevision } from '../../content/revision.js';
import { badRequest } from '../../errors.js';
import { TABLES, type SiteRecord, type SiteRedirectDestination, type SpaceRecord } from '../../records.js';
import { uriComponent } from '../../well-formed.js';
import { loadSection, loadSiteSpace, referenced } from '../access.js';
import { loadStructure, type PlacedSiteSpace, type SiteStructure } from '../structure.js';
import { sectionSegments, siteSpaceAddress, siteUrl, underAddress } from '../urls.js';
import type { DestinationInputValue } from './schemas.js';
import type { RedirectMatch } from './stored.js';

/**
 * Where site redirects lead: a destination a request gives, checked against the site (400 naming the field
 * when it names nothing there) and stored as the public API's SiteRedirectDestination; and the URL a stored
 * one leads to now, on the site's published URLs (undefined when what it named is gone).
 */

/** The current revision of the space a site space shows. */
async function revisionOf(ctx: Context, spaceId: string) {
  const space = (await ctx.tx.get(TABLES.spaces, spaceId)) as SpaceRecord | undefined;
  return space && loadRevision(ctx.tx, space.revision);
}

/** Checks a destination against the site; a page named by space and path becomes the page of the site space showing that space. */
export async function checkDestination(ctx: Context, site: SiteRecord, destination: DestinationInputValue, field = 'destination'): Promise<SiteRedirectDestination> {
  switch (destination.kind) {
    case 'external':
      return destination;
    case 'site-section':
      await referenced(`${field}.siteSectionId`, () => loadSection(ctx, site, destination.siteSectionId));
      return destination;
    case 'site-space':
      await referenced(`${field}.siteSpaceId`, () => loadSiteSpace(ctx, site, destination.siteSpaceId));
      return destination;
    case 'site-page': {
      const siteSpace = await referenced(`${field}.siteSpaceId`, () => loadSiteSpace(ctx, site, destination.siteSpaceId));
      const revision = await revisionOf(ctx, siteSpace.spaceId);
      if (!revision || !(await readPage(ctx.tx, revision, destination.pageId))) throw badRequest(`${field}.pageId: no page ${destination.pageId} in the space of site space ${siteSpace.id}`);
      return destination;
    }
    case 'path': {
      const placed = (await loadStructure(ctx.tx, site)).siteSpaces.find((item) => item.record.spaceId === destination.spaceId);
      if (!placed) throw badRequest(`${field}.spaceId: site ${site.id} does not show space ${destination.spaceId}`);
      const revision = await revisionOf(ctx, destination.spaceId);
      const page = revision && (await readPageByPath(ctx.tx, revision, destination.path.replace(/^\/+|\/+$/g, '')));
      if (!page) throw badRequest(`${field}.path: no page at ${destination.path} in space ${destination.spaceId}`);
      return { kind: 'site-page', siteSpaceId: placed.record.id, pageId: page.id };
    }
  }
}

/** A URL under the site's URL. */
const under = (base: string, segments: readonly string[]) => base + segments.map((segment) => `/${uriComponent(segment)}`).join('');

/** The URLs of a site space of a structure, under the site's URL. */
const addressOf = (base: string, structure: SiteStructure, placed: PlacedSiteSpace) => siteSpaceAddress((segments) => under(base, segments), structure, placed);

/** The URL a destination leads to now; undefined when the section, site space or page it names is gone. */
export async function destinationUrl(ctx: Context, site: SiteRecord, destination: SiteRedirectDestination): Promise<string | undefined> {
  if (destination.kind === 'external') return destination.url;
  const structure = await loadStructure(ctx.tx, site);
  const base = siteUrl(ctx, site);
  if (destination.kind === 'site-section') {
    const node = structure.sections.find((item) => item.section.id === destination.siteSectionId);
    return node && under(base, sectionSegments(structure, node.section));
  }
  const placed = structure.siteSpaces.find((item) => item.record.id === destination.siteSpaceId);
  if (!placed) return undefined;
  const address = addressOf(base, structure, placed);
  if (destination.kind === 'site-space') return address.url;
  const revision = await revisionOf(ctx, placed.record.spaceId);
  const page = revision && (await readPage(ctx.tx, revision, destination.pageId));
  return page && underAddress(address, page.path.split('/'));
}

/** Where a path that matched a redirect leads: its destination, with the rest its wildcard matched when it captures it. */
export async function matchTarget(ctx: Context, site: SiteRecord, match: RedirectMatch): Promise<string | undefined> {
  const url = await destinationUrl(ctx, site, match.redirect.destination);
  if (url === undefined || !match.redirect.captureWildcard || match.rest === '') return url;
  const target = new URL(url);
  const rest = match.rest.split('/').map(uriComponent).join('/');
  target.pathname = match.below ? `${target.pathname.replace(/\/+$/, '')}/${rest.replace(/^\/+/, '')}` : `${target.pathname}${rest}`;
  return target.href;
}
