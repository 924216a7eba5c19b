import type { Context } from '../../context.js';
import { TABLES, type SiteRecord, type SiteSpaceRecord, type SpaceRecord } from '../../records.js';
import { conditionHolds, type VisitorClaims } from '../adaptive/evaluate.js';
import { loadStructure, type SectionNode, type SiteStructure } from '../structure.js';
import { publishedLinks, sectionSegments, siteSpaceSegments } from '../urls.js';
import type { NavLink, TabEntry } from './view.js';

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
}

const holds = (condition: string | undefined, claims: VisitorClaims) => condition === undefined || conditionHolds(condition, claims);

/** Whether a space can be read on a site: it is there and neither deleted nor private. */
const readable = (space: SpaceRecord | undefined): space is SpaceRecord => space !== undefined && space.deletedAt === undefined && space.visibility !== 'private';

/** Reads a site's structure for a visitor. */
export async function visibleStructure(ctx: Context, site: SiteRecord, claims: VisitorClaims): Promise<VisibleStructure> {
  const structure = await loadStructure(ctx.tx, site);
  const links = publishedLinks(ctx, site);
  const url = (segments: string[]) => links(segments)!;
  const spaces = new Map<string, SpaceRecord | undefined>();
  for (const placed of structure.siteSpaces) {
    if (!spaces.has(placed.record.spaceId)) spaces.set(placed.record.spaceId, (await ctx.tx.get(TABLES.spaces, placed.record.spaceId)) as SpaceRecord | undefined);
  }
  const all: VisibleSiteSpace[] = [];
  for (const placed of structure.siteSpaces) {
    const space = spaces.get(placed.record.spaceId);
    if (!readable(space) || !holds(placed.record.condition, claims)) continue;
    if (placed.node && !holds(placed.node.section.condition, claims)) continue;
    const segments = siteSpaceSegments(structure.defaultSectionId, placed.node?.section, placed.record, placed.isDefault);
    all.push({ record: placed.record, space, isDefault: placed.isDefault, url: url(segments) });
  }
  const of = (sectionId: string | undefined) => all.filter((item) => item.record.sectionId === sectionId);
  const sections = structure.sections
    .map((node) => ({ node, siteSpaces: of(node.section.id), url: url(sectionSegments(structure.defaultSectionId, node.section)) }))
    .filter((section) => section.siteSpaces.length > 0);
  return { structure, sections, root: of(undefined), url: url([]), all };
}

/** The site space a level shows at its own URL: its default when the visitor may read it, else its first. */
const levelDefault = (level: readonly VisibleSiteSpace[]) => level.find((item) => item.isDefault) ?? level[0];

/**
 * Where a path leads: its first segment names a section (else the default section), the next one a site
 * space of that section's level (else its default); the rest is a page path. Undefined when the visitor
 * can read nothing there.
 */
export function placeOf(visible: VisibleStructure, segments: readonly string[]): Place | undefined {
  let rest = segments;
  let section: VisibleSection | undefined;
  let level = visible.root;
  if (visible.structure.sections.length > 0) {
    section = visible.sections.find((item) => item.node.section.path === rest[0]);
    if (section) rest = rest.slice(1);
    else section = visible.sections.find((item) => item.node.section.id === visible.structure.defaultSectionId) ?? visible.sections[0];
    if (!section) return undefined;
    level = section.siteSpaces;
  }
  let siteSpace = level.find((item) => item.record.path === rest[0]);
  if (siteSpace) rest = rest.slice(1);
  else siteSpace = levelDefault(level);
  if (!siteSpace) return undefined;
  return { section, level, siteSpace, rest };
}

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
