import type { Context } from '../../context.js';
import type { PageNode } from '../../content/model.js';
import { loadRevision, readPageTree } from '../../content/revision.js';
import type { RevisionRecord, SiteRecord } from '../../records.js';
import { settingsOf, loadCustomization } from '../customization/customizations.js';
import { markdownUrlOf } from './ai-paths.js';
import type { SiteSpaceAddress } from '../urls.js';
import { addressKey, pageUrl, type ReadablePage } from './navigation.js';
import type { VisibleSection, VisibleSiteSpace, VisibleStructure } from './visible-structure.js';

/**
 * A published site's pages as AI tools list them (llms.txt, llms-full.txt, the site's MCP server): for each
 * site space a visitor may read, its readable pages in tree order, hidden ones included (they are readable
 * at their URL, and the hosted platform lists them too), in groups: the pages outside any page group first,
 * then each page group of the top level. Link pages and groups themselves are no pages to read.
 */

/** A page in the index. */
export interface IndexedPage {
  readonly title: string;
  readonly description?: string;
  readonly url: string;
  readonly markdownUrl: string;
  /** The page, for reading its Markdown. */
  readonly entry: ReadablePage;
}

/** A heading of the index and its pages. */
export interface IndexGroup {
  readonly title: string;
  readonly pages: readonly IndexedPage[];
}

/** A site space in the index. */
export interface IndexedSiteSpace {
  /** Its section's title, and its own when its level has several. */
  readonly title: string;
  readonly url: string;
  /** Its URLs, under which its pages' URLs are made (urls.ts). */
  readonly address: SiteSpaceAddress;
  readonly organizationId: string;
  readonly revision: RevisionRecord;
  readonly groups: readonly IndexGroup[];
}

/** The index of a site, or of one of its sections. */
export interface SiteIndex {
  readonly title: string;
  /** The URL of the site, or of the section. */
  readonly url: string;
  readonly siteSpaces: readonly IndexedSiteSpace[];
}

/** How many entries of a revision's page tree are read between two pauses. */
const TREE_PAUSE_EVERY = 500;

const readable = (page: PageNode): page is PageNode & ReadablePage => page.type === 'document' || page.type === 'computed';

/** The groups of a revision's pages under a site space's URLs, made once per revision and URLs (ctx.derived). */
function groupsOf(ctx: Context, revision: RevisionRecord, address: SiteSpaceAddress): Promise<{ untitled: IndexedPage[]; groups: { title: string; pages: IndexedPage[] }[] }> {
  return ctx.derived.get(
    `site-index\u0000${addressKey(address)}`,
    revision.id,
    async () => {
      // Read in slices: a site of thousands of pages would hold the event loop for tens of milliseconds.
      const tree = await readPageTree(ctx.tx, revision, TREE_PAUSE_EVERY);
      const untitled: IndexedPage[] = [];
      const groups: { title: string; pages: IndexedPage[] }[] = [];
      const walk = (nodes: readonly PageNode[], into: IndexedPage[]) => {
        for (const node of nodes) {
          if (readable(node)) {
            const url = pageUrl(address, node);
            into.push({ title: node.title, ...(node.description !== undefined && node.description !== '' && { description: node.description }), url, markdownUrl: markdownUrlOf(url), entry: node });
          }
          if (node.type !== 'computed' && node.type !== 'link') walk(node.pages, into);
        }
      };
      for (const node of tree.pages) {
        if (node.type !== 'group') walk([node], untitled);
        else {
          const group = { title: node.title, pages: [] as IndexedPage[] };
          walk(node.pages, group.pages);
          groups.push(group);
        }
      }
      return { untitled, groups };
    },
    () => revision.content.pages.size,
  );
}

/** The heading of a site space: its section's title and its own (when its level has several), else its space's title. */
function headingOf(section: VisibleSection | undefined, level: readonly VisibleSiteSpace[], siteSpace: VisibleSiteSpace): string {
  const parts = [...(section ? [section.node.section.title] : []), ...(level.length > 1 || !section ? [siteSpace.space.title] : [])];
  return parts.join(' › ');
}

/** The index of what a visitor reads of a site (`visible`), or of one of its sections. */
export async function siteIndexOf(ctx: Context, site: SiteRecord, visible: VisibleStructure, section?: VisibleSection): Promise<SiteIndex> {
  const title = settingsOf(await loadCustomization(ctx, site)).title ?? site.title;
  const scopes = section ? [section] : visible.sections.length > 0 ? visible.sections : [undefined];
  const siteSpaces: IndexedSiteSpace[] = [];
  for (const scope of scopes) {
    const level = scope ? scope.siteSpaces : visible.root;
    for (const siteSpace of level) {
      const revision = await loadRevision(ctx.tx, siteSpace.space.revision);
      const { untitled, groups } = await groupsOf(ctx, revision, siteSpace.address);
      const heading = headingOf(scope, level, siteSpace);
      const all = [...(untitled.length > 0 ? [{ title: heading, pages: untitled }] : []), ...groups.map((group) => ({ title: `${heading} › ${group.title}`, pages: group.pages }))];
      siteSpaces.push({ title: heading, url: siteSpace.url, address: siteSpace.address, organizationId: site.organizationId, revision, groups: all });
    }
  }
  return { title: section ? `${title} › ${section.node.section.title}` : title, url: section ? section.url : visible.url, siteSpaces };
}
