import type * as v from 'valibot';
import type { Context } from '../context.js';
import { spacePermissions } from '../permissions.js';
import { TABLES, type MemberRecord, type SiteRecord, type SiteSectionGroupRecord, type SpaceRecord } from '../records.js';
import { contentLevels } from '../spaces/levels.js';
import { presentSpace } from '../spaces/present.js';
import type { GroupSchema } from './section-groups/schemas.js';
import type { SectionSchema } from './sections/schemas.js';
import type { SiteSpaceSchema } from './site-spaces/schemas.js';
import { loadStructure, type PlacedSiteSpace, type SectionNode, type SiteStructure } from './structure.js';
import { publishedLinks, sectionSegments, siteSpaceSegments } from './urls.js';

/** The site space object of responses. */
export type SiteSpaceOutput = v.InferInput<typeof SiteSpaceSchema>;
/** The section object of responses. */
export type SectionOutput = v.InferInput<typeof SectionSchema>;
/** The section group object of responses. */
export type GroupOutput = v.InferInput<typeof GroupSchema>;

/** The title of a section added without one whose space's title is too short, or shown instead of a hidden space's title. */
export const DEFAULT_SECTION_TITLE = 'Untitled';

/** Presents the parts of one site as one caller sees them, from one reading of the site's structure. */
export interface SitePresenter {
  readonly structure: SiteStructure;
  siteSpace(placed: PlacedSiteSpace): Promise<SiteSpaceOutput>;
  section(node: SectionNode): Promise<SectionOutput>;
  group(group: SiteSectionGroupRecord, sections: readonly SectionNode[]): Promise<GroupOutput>;
  /** The site space with this id, placed (it must be on the site). */
  placed(siteSpaceId: string): PlacedSiteSpace;
  /** The section with this id (it must be on the site). */
  node(sectionId: string): SectionNode;
}

/**
 * A presenter of a site's parts for a member; build it after the operation's last write. The space of a
 * site space is the space object as the caller sees it: for a space the member may not view, its id and
 * nothing that describes it (spaces/present.ts), and no title on the site space or on a section whose title
 * was taken from it. `shareKey` goes into the published URLs.
 */
export async function sitePresenter(ctx: Context, site: SiteRecord, member: MemberRecord, shareKey?: string): Promise<SitePresenter> {
  const structure = await loadStructure(ctx.tx, site);
  const levels = await contentLevels(ctx, site.organizationId, member);
  const links = publishedLinks(ctx, site, shareKey);
  const urls = (segments: string[]) => {
    const published = links(segments);
    return published === undefined ? {} : { published };
  };

  const spaceOf = async (spaceId: string) => (await ctx.tx.get(TABLES.spaces, spaceId)) as SpaceRecord | undefined;
  const hidden = (space: SpaceRecord) => !spacePermissions(levels.space(space), space.editMode).view;

  const siteSpace = async ({ record, node, isDefault }: PlacedSiteSpace): Promise<SiteSpaceOutput> => {
    const space = await spaceOf(record.spaceId);
    // Purging a space removes its site spaces in the same transaction (spaces/owned.ts).
    if (!space) throw new Error(`Site space ${record.id} names space ${record.spaceId}, which is gone`);
    const presented = await presentSpace(ctx, space, levels, { shareKey });
    return {
      object: 'site-space',
      id: record.id,
      path: record.path,
      ...(record.sectionId !== undefined && { section: record.sectionId }),
      space: presented,
      // The space's title, or none for a space the caller may not view.
      title: presented.title,
      default: isDefault,
      ...(record.condition !== undefined && { condition: record.condition }),
      urls: urls([...siteSpaceSegments(structure, { record, node, isDefault }).segments]),
    };
  };

  /**
   * A section's title, unless it is a hidden space's: the space it was taken from (gone counts as hidden),
   * or the title of a space on the section the caller may not view (sections added before titleOfSpace).
   */
  const sectionTitle = async ({ section: record, siteSpaces }: SectionNode): Promise<string> => {
    if (record.titleOfSpace !== undefined) {
      const from = await spaceOf(record.titleOfSpace);
      if (!from || hidden(from)) return DEFAULT_SECTION_TITLE;
    }
    for (const item of siteSpaces) {
      const space = await spaceOf(item.spaceId);
      if (space && space.title === record.title && hidden(space)) return DEFAULT_SECTION_TITLE;
    }
    return record.title;
  };

  const byId = new Map(structure.siteSpaces.map((placed) => [placed.record.id, placed]));
  const section = async (node: SectionNode): Promise<SectionOutput> => {
    const { section: record } = node;
    const siteSpaces: SiteSpaceOutput[] = [];
    for (const item of node.siteSpaces) siteSpaces.push(await siteSpace(byId.get(item.id)!));
    return {
      object: 'site-section',
      id: record.id,
      title: await sectionTitle(node),
      ...(record.description !== undefined && { description: record.description }),
      default: record.id === structure.defaultSectionId,
      path: record.path,
      ...(record.condition !== undefined && { condition: record.condition }),
      ...(record.sectionGroupId !== undefined && { sectionGroup: record.sectionGroupId }),
      ...(record.icon !== undefined && { icon: record.icon }),
      siteSpaces,
      urls: urls(sectionSegments(structure, node.section)),
    };
  };

  const group = async (record: SiteSectionGroupRecord, nodes: readonly SectionNode[]): Promise<GroupOutput> => {
    const sections: SectionOutput[] = [];
    for (const node of nodes) sections.push(await section(node));
    return { object: 'site-section-group', id: record.id, title: record.title, ...(record.icon !== undefined && { icon: record.icon }), sections };
  };

  return {
    structure,
    siteSpace,
    section,
    group,
    placed: (siteSpaceId) => byId.get(siteSpaceId)!,
    node: (sectionId) => structure.sections.find((node) => node.section.id === sectionId)!,
  };
}

/** The section with this id as a member sees it, read after the operation's writes. */
export async function presentSectionTo(ctx: Context, site: SiteRecord, member: MemberRecord, sectionId: string): Promise<SectionOutput> {
  const presenter = await sitePresenter(ctx, site, member);
  return presenter.section(presenter.node(sectionId));
}

/** The site space with this id as a member sees it, read after the operation's writes. */
export async function presentSiteSpaceTo(ctx: Context, site: SiteRecord, member: MemberRecord, siteSpaceId: string): Promise<SiteSpaceOutput> {
  const presenter = await sitePresenter(ctx, site, member);
  return presenter.siteSpace(presenter.placed(siteSpaceId));
}

/** The section group with this id as a member sees it, read after the operation's writes. */
export async function presentGroupTo(ctx: Context, site: SiteRecord, member: MemberRecord, groupId: string): Promise<GroupOutput> {
  const presenter = await sitePresenter(ctx, site, member);
  const entry = presenter.structure.top.find((item) => item.kind === 'group' && item.group.id === groupId);
  if (!entry || entry.kind !== 'group') throw new Error(`Section group ${groupId} is not on site ${site.id}`);
  return presenter.group(entry.group, entry.sections);
}
