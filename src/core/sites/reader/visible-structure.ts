import type { Context } from '../../context.js';
import { TABLES, type SiteRecord, type SiteSpaceRecord, type SpaceRecord } from '../../records.js';
import { conditionHolds, type VisitorClaims } from '../adaptive/evaluate.js';
import { loadStructure, type SectionNode, type SiteStructure } from '../structure.js';
import { publishedLinks, sectionSegments, siteSpaceAddress, type SiteSpaceAddress } from '../urls.js';
import type { EmptyReason, NavLink, TabEntry } from './view.js';

/**
 * A site as one visitor sees it: the site spaces whose space is readable (not deleted, not private) and
 * whose condition holds for the visitor's claims, the sections whose condition holds and that keep at least
 * one such site space, and the groups that keep a section. URLs are the ones the API gives out
 * (urls.ts), so that every `urls.published` leads here.
 */

/** A site space a visitor may read, with its space. */
export interface VisibleSiteSpace {
  readonly record: SiteSpaceRecord;
  readonly space: SpaceRecord;
  readonly isDefault: boolean;
  readonly url: string;
  /** Its URLs, and the page segments its shortest URL cannot carry (urls.ts). */
  readonly address: SiteSpaceAddress;
}

/** A section a visitor may read, with its readable site spaces. */
export interface VisibleSection {
  readonly node: SectionNode;
  readonly siteSpaces: readonly VisibleSiteSpace[];
  readonly url: string;
}

/** Where a path of a site leads: a section (absent for a site without sections), a site space, and the rest of the path. */
export interface Place {
  readonly section: VisibleSection | undefined;
  readonly level: readonly VisibleSiteSpace[];
  readonly siteSpace: VisibleSiteSpace;
  readonly rest: readonly string[];
}

/** A site's structure as one visitor sees it. */
export interface VisibleStructure {
  readonly structure: SiteStructure;
  readonly sections: readonly VisibleSection[];
  readonly root: readonly VisibleSiteSpace[];
  readonly url: string;
  /** Which site spaces of the site lead where, first to last in published order. */
  readonly all: readonly VisibleSiteSpace[];
  /** Why the visitor can read nothing on the site; undefined when there is a site space to read. */
  readonly empty: Exclude<EmptyReason, 'no-pages'> | undefined;
}

const holds = (condition: string | undefined, claims: VisitorClaims) => condition === undefined || conditionHolds(condition, claims);

/** Whether a space can be read on a site: it is there and neither deleted nor private. */
const readable = (space: SpaceRecord | undefined): space is SpaceRecord => space !== undefined && space.deletedAt === undefined && space.visibility !== 'private';

/** Reads a site's structure for a visitor. */
export async function visibleStructure(ctx: Context, site: SiteRecord, claims: VisitorClaims): Promise<VisibleStructure> {
  const structure = await loadStructure(ctx.tx, site);
  const links = publishedLinks(ctx, site);
  const url = (segments: readonly string[]) => links(segments)!;
  const spaces = new Map<string, SpaceRecord | undefined>();
  for (const placed of structure.siteSpaces) {
    if (!spaces.has(placed.record.spaceId)) spaces.set(placed.record.spaceId, (await ctx.tx.get(TABLES.spaces, placed.record.spaceId)) as SpaceRecord | undefined);
  }
  const all: VisibleSiteSpace[] = [];
  for (const placed of structure.siteSpaces) {
    const space = spaces.get(placed.record.spaceId);
    if (!readable(space) || !holds(placed.record.condition, claims)) continue;
    if (placed.node && !holds(placed.node.section.condition, claims)) continue;
    // Addresses come from the whole structure, not the visitor's part of it: a link is the same for everyone.
    const address = siteSpaceAddress(url, structure, placed);
    all.push({ record: placed.record, space, isDefault: placed.isDefault, url: address.url, address });
  }
  const of = (sectionId: string | undefined) => all.filter((item) => item.record.sectionId === sectionId);
  const sections = structure.sections
    .map((node) => ({ node, siteSpaces: of(node.section.id), url: url(sectionSegments(structure, node.section)) }))
    .filter((section) => section.siteSpaces.length > 0);
  const root = of(undefined);
  const reachable = structure.sections.length > 0 ? sections.length > 0 : root.length > 0;
  const anyReadable = structure.siteSpaces.some((placed) => readable(spaces.get(placed.record.spaceId)));
  const empty = reachable ? undefined : structure.siteSpaces.length === 0 ? 'no-spaces' : anyReadable ? 'hidden-spaces' : 'private-spaces';
  return { structure, sections, root, url: url([]), all, empty };
}

/** The site space a level shows at its own URL: its default when the visitor may read it, else its first. */
const levelDefault = (level: readonly VisibleSiteSpace[]) => level.find((item) => item.isDefault) ?? level[0];

/**
 * Every way a path can be read, the one the reader answers first: its first segment names a section (else
 * the default section), the next one a site space of that section's level (else its default); the rest is a
 * page path. The others read a segment that names a section or a site space as the first segment of a page
 * path instead: where a URL made before a section or a site space took that segment leads (urls.ts). Empty
 * when the visitor can read nothing there.
 */
export function placesOf(visible: VisibleStructure, segments: readonly string[]): Place[] {
  const places: Place[] = [];
  const inLevel = (section: VisibleSection | undefined, level: readonly VisibleSiteSpace[], rest: readonly string[]) => {
    const named = rest.length > 0 ? level.find((item) => item.record.path === rest[0]) : undefined;
    if (named) places.push({ section, level, siteSpace: named, rest: rest.slice(1) });
    const fallback = levelDefault(level);
    if (fallback) places.push({ section, level, siteSpace: fallback, rest });
  };
  if (visible.structure.sections.length === 0) {
    inLevel(undefined, visible.root, segments);
    return places;
  }
  const named = segments.length > 0 ? visible.sections.find((item) => item.node.section.path === segments[0]) : undefined;
  if (named) inLevel(named, named.siteSpaces, segments.slice(1));
  const fallback = visible.sections.find((item) => item.node.section.id === visible.structure.defaultSectionId) ?? visible.sections[0];
  if (fallback) inLevel(fallback, fallback.siteSpaces, segments);
  return places;
}

/** Where a path leads (the first way placesOf reads it); undefined when the visitor can read nothing there. */
export const placeOf = (visible: VisibleStructure, segments: readonly string[]): Place | undefined => placesOf(visible, segments)[0];

/** The tabs of a site for a place: its visible sections and groups, the place's own marked. */
export function tabsOf(visible: VisibleStructure, place: Place | undefined): TabEntry[] {
  const link = (section: VisibleSection): NavLink => ({
    title: section.node.section.title,
    url: section.url,
    current: section === place?.section,
    ...(section.node.section.icon !== undefined && { icon: section.node.section.icon }),
  });
  const byId = new Map(visible.sections.map((section) => [section.node.section.id, section]));
  const tabs: TabEntry[] = [];
  for (const entry of visible.structure.top) {
    if (entry.kind === 'section') {
      const section = byId.get(entry.node.section.id);
      if (section) tabs.push({ kind: 'section', ...link(section) });
      continue;
    }
    const sections = entry.sections.flatMap((node) => (byId.has(node.section.id) ? [link(byId.get(node.section.id)!)] : []));
    if (sections.length === 0) continue;
    tabs.push({ kind: 'group', title: entry.group.title, current: sections.some((item) => item.current), sections, ...(entry.group.icon !== undefined && { icon: entry.group.icon }) });
  }
  return tabs;
}

/** The switcher between the site spaces of a place's level, when it has more than one. */
export function variantsOf(place: Place | undefined): NavLink[] {
  if (!place || place.level.length < 2) return [];
  return place.level.map((item) => ({ title: item.space.title, url: item.url, current: item.record.id === place.siteSpace.record.id }));
}
