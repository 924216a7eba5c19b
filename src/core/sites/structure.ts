import type { ReadTransaction, Scalar } from '../../store/types.js';
import { listSiblings, type SiblingGroup, type SiblingTable } from '../ordering/siblings.js';
import { INDEXES, TABLES, type SiteRecord, type SiteSectionGroupRecord, type SiteSectionRecord, type SiteSpaceRecord } from '../records.js';

/**
 * The structure of a site, ordered by the ordering module (ordering/siblings.ts):
 * - the top level holds the ungrouped sections and the section groups, siblings of one another;
 * - a group holds its sections;
 * - a level of site spaces is the site's root (a site without sections) or one section.
 * Each level that has site spaces has exactly one default: the one its pointer names (the site's
 * `defaultSiteSpaceId` for the root, a section's `defaultSiteSpaceId`) when it is still there, else the
 * first. The default section is chosen the same way among all sections in published order.
 */

/** The kind of a section in position references. */
export const SECTION_KIND = 'site-section';
/** The kind of a section group in position references. */
export const GROUP_KIND = 'site-section-group';
/** The kind of a site space in position references. */
export const SITE_SPACE_KIND = 'site-space';

const SECTIONS: SiblingTable = { kind: SECTION_KIND, table: TABLES.siteSections, index: INDEXES.siteSectionsByParent };
const GROUPS: SiblingTable = { kind: GROUP_KIND, table: TABLES.siteSectionGroups, index: INDEXES.siteSectionGroupsByParent };
const SITE_SPACES: SiblingTable = { kind: SITE_SPACE_KIND, table: TABLES.siteSpaces, index: INDEXES.siteSpacesByParent };

/** The parent key of a site's top level (its ungrouped sections and its groups), and of its root site spaces. */
export const siteParentKey = (siteId: string) => `site:${siteId}`;
/** The parent key of the sections of a group. */
export const groupParentKey = (groupId: string) => `group:${groupId}`;
/** The parent key of the site spaces of a section. */
export const sectionParentKey = (sectionId: string) => `section:${sectionId}`;

/** The top level of a site's sections: ungrouped sections and section groups. */
export function topLevel(siteId: string): SiblingGroup {
  return { tables: [SECTIONS, GROUPS], key: siteParentKey(siteId), label: `the top level of site ${siteId}` };
}

/** The sections of a group. */
export function groupLevel(groupId: string): SiblingGroup {
  return { tables: [SECTIONS], key: groupParentKey(groupId), label: `section group ${groupId}` };
}

/** The siblings of a section: its group's sections, or the top level. */
export function sectionLevel(section: SiteSectionRecord): SiblingGroup {
  return section.sectionGroupId === undefined ? topLevel(section.siteId) : groupLevel(section.sectionGroupId);
}

/** A level of site spaces: a section's (`sectionId`), or the root of a site without sections. */
export function siteSpaceLevel(siteId: string, sectionId: string | undefined): SiblingGroup {
  return sectionId === undefined
    ? { tables: [SITE_SPACES], key: siteParentKey(siteId), label: `the root of site ${siteId}` }
    : { tables: [SITE_SPACES], key: sectionParentKey(sectionId), label: `section ${sectionId}` };
}

/** A section with its site spaces in order, its default and its place in published order. */
export interface SectionNode {
  readonly section: SiteSectionRecord;
  readonly siteSpaces: readonly SiteSpaceRecord[];
  readonly defaultSiteSpaceId: string | undefined;
  /** The sort key of its place in published order (its group's place first, when it is in one). */
  readonly sortKey: readonly Scalar[];
}

/** An entry of the top level: an ungrouped section, or a group with its sections. */
export type TopEntry =
  | { readonly kind: 'section'; readonly node: SectionNode }
  | { readonly kind: 'group'; readonly group: SiteSectionGroupRecord; readonly sections: readonly SectionNode[] };

/** A site space in published order, with its section (absent at the root) and whether it is its level's default. */
export interface PlacedSiteSpace {
  readonly record: SiteSpaceRecord;
  readonly node: SectionNode | undefined;
  readonly isDefault: boolean;
  readonly sortKey: readonly Scalar[];
}

/** A site's whole structure, read once. */
export interface SiteStructure {
  readonly site: SiteRecord;
  readonly top: readonly TopEntry[];
  /** Every section, in published order. */
  readonly sections: readonly SectionNode[];
  /** The site spaces of the root level (a site without sections has only these). */
  readonly rootSiteSpaces: readonly SiteSpaceRecord[];
  readonly rootDefaultId: string | undefined;
  readonly defaultSectionId: string | undefined;
  /** Every site space, in published order. */
  readonly siteSpaces: readonly PlacedSiteSpace[];
}

/** The default of a level: the pointer when it names one of `items`, else the first. */
export function defaultOf(items: readonly { id: string }[], pointer: string | undefined): string | undefined {
  return pointer !== undefined && items.some((item) => item.id === pointer) ? pointer : items[0]?.id;
}

async function siblingsOf<T>(tx: ReadTransaction, group: SiblingGroup): Promise<{ kind: string; record: T }[]> {
  return (await listSiblings(tx, group)).map((sibling) => ({ kind: sibling.kind, record: sibling.record as unknown as T }));
}

/** Reads a site's structure. */
export async function loadStructure(tx: ReadTransaction, site: SiteRecord): Promise<SiteStructure> {
  const nodeOf = async (section: SiteSectionRecord, prefix: readonly Scalar[]): Promise<SectionNode> => {
    const siteSpaces = (await siblingsOf<SiteSpaceRecord>(tx, siteSpaceLevel(site.id, section.id))).map((sibling) => sibling.record);
    return {
      section,
      siteSpaces,
      defaultSiteSpaceId: defaultOf(siteSpaces, section.defaultSiteSpaceId),
      sortKey: [...prefix, section.orderKey, section.id],
    };
  };
  // Every level read in as few turns as the tree is deep (the top, the groups' sections, every section's site
  // spaces): each turn's reads are one round trip of a networked store, where one a section held a site's
  // lock through 20-30 round trips for a move.
  const [topSiblings, rootSiblings] = await Promise.all([
    siblingsOf<SiteSectionRecord & SiteSectionGroupRecord>(tx, topLevel(site.id)),
    siblingsOf<SiteSpaceRecord>(tx, siteSpaceLevel(site.id, undefined)),
  ]);
  const top: TopEntry[] = await Promise.all(
    topSiblings.map(async ({ kind, record }): Promise<TopEntry> => {
      if (kind === SECTION_KIND) return { kind: 'section', node: await nodeOf(record, []) };
      const members = await siblingsOf<SiteSectionRecord>(tx, groupLevel(record.id));
      return { kind: 'group', group: record, sections: await Promise.all(members.map((member) => nodeOf(member.record, [record.orderKey, record.id]))) };
    }),
  );
  const sections = top.flatMap((entry) => (entry.kind === 'section' ? [entry.node] : entry.sections));
  const rootSiteSpaces = rootSiblings.map((sibling) => sibling.record);
  const rootDefaultId = defaultOf(rootSiteSpaces, site.defaultSiteSpaceId);
  const siteSpaces: PlacedSiteSpace[] = [
    ...rootSiteSpaces.map((record) => ({ record, node: undefined, isDefault: record.id === rootDefaultId, sortKey: [record.orderKey, record.id] })),
    ...sections.flatMap((node) =>
      node.siteSpaces.map((record) => ({
        record,
        node,
        isDefault: record.id === node.defaultSiteSpaceId,
        sortKey: [...node.sortKey, record.orderKey, record.id],
      })),
    ),
  ];
  return {
    site,
    top,
    sections,
    rootSiteSpaces,
    rootDefaultId,
    defaultSectionId: defaultOf(
      sections.map((node) => node.section),
      site.defaultSectionId,
    ),
    siteSpaces,
  };
}

/** The site spaces of a level (a section, or the root) in order. */
export function levelOf(structure: SiteStructure, sectionId: string | undefined): readonly SiteSpaceRecord[] {
  if (sectionId === undefined) return structure.rootSiteSpaces;
  return structure.sections.find((node) => node.section.id === sectionId)?.siteSpaces ?? [];
}

/** The default site space of a level. */
export function levelDefault(structure: SiteStructure, sectionId: string | undefined): string | undefined {
  if (sectionId === undefined) return structure.rootDefaultId;
  return structure.sections.find((node) => node.section.id === sectionId)?.defaultSiteSpaceId;
}
