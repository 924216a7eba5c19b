import type { Context } from '../../context.js';
import { emojiCharacters } from './emoji.js';
import type { PageEntry, PageNode } from '../../content/model.js';
import { readPageTree } from '../../content/revision.js';
import { isOpenableUrl } from '../../content/openable-url.js';
import type { RevisionRecord } from '../../records.js';
import { underAddress, type SiteSpaceAddress } from '../urls.js';
import type { NavNode } from './view.js';

/**
 * The navigation of a site space: its revision's page tree as readers see it, with published URLs. Made
 * once per revision and site space URLs (ctx.derived: a revision never changes), since a space of a
 * thousand pages would otherwise be read and walked on every request.
 */

/** A page readers can open at its own URL: a document or a computed page. */
export type ReadablePage = PageEntry & { readonly type: 'document' | 'computed' };

/** The navigation of one revision under one URL. */
export interface Navigation {
  /** The tree, hidden pages left out. */
  readonly tree: readonly NavNode[];
  /** Pages by path (hidden ones too: they are reachable at their URL). */
  readonly byPath: ReadonlyMap<string, PageEntry>;
  /** Pages by id (hidden ones too). */
  readonly byId: ReadonlyMap<string, PageEntry>;
  /** The published URL of every readable page, by id. */
  readonly urls: ReadonlyMap<string, string>;
  /** The readable pages in tree order, hidden ones left out: what previous and next walk. */
  readonly order: readonly ReadablePage[];
  /** Where each readable page is in `order` (-1 for hidden ones). */
  readonly position: ReadonlyMap<string, number>;
  /** Where each link page leads (hidden ones too); absent when it leads nowhere a reader may go. */
  readonly linkTargets: ReadonlyMap<string, string>;
  /** The pages marked noIndex: left out of the site's search. */
  readonly unsearchable: ReadonlySet<string>;
  /** The first readable page: what the site space's own URL shows. */
  readonly first: ReadablePage | undefined;
  readonly revisionId: string;
  /** What it was made under (its site space's URLs): what a body whose links it resolves is cached under. */
  readonly key: string;
}

const readable = (page: PageEntry): page is ReadablePage => page.type === 'document' || page.type === 'computed';

/** One string for a site space's URLs: navigations (and the bodies whose links they resolve) are cached under it. */
export const addressKey = (address: SiteSpaceAddress) => [address.url, ...[...address.taken].sort().flat()].join('\u0000');

/** The published URL of a page under its site space's URLs (urls.ts: another when a section or a site space has its first segment). */
export const pageUrl = (address: SiteSpaceAddress, page: Pick<PageEntry, 'path'>) => underAddress(address, page.path.split('/'));

function build(revisionId: string, pages: readonly PageNode[], all: ReadonlyMap<string, PageNode>, address: SiteSpaceAddress): Navigation {
  const byPath = new Map<string, PageEntry>();
  const urls = new Map<string, string>();
  for (const page of all.values()) {
    byPath.set(page.path, page);
    if (readable(page)) urls.set(page.id, pageUrl(address, page));
  }
  const order: ReadablePage[] = [];
  const linkUrl = (page: PageEntry): string | undefined => {
    const target = page.target;
    if (!target) return undefined;
    if (target.kind === 'page') return urls.get(target.page);
    return isOpenableUrl(target.url) ? target.url : undefined;
  };
  const walk = (nodes: readonly PageNode[]): NavNode[] =>
    nodes.flatMap((page): NavNode[] => {
      if (page.hidden) return [];
      if (readable(page)) order.push(page);
      const url = page.type === 'link' ? linkUrl(page) : urls.get(page.id);
      return [
        {
          id: page.id,
          type: page.type === 'computed' ? 'document' : page.type,
          title: page.title,
          ...(page.emoji !== undefined && { emoji: emojiCharacters(page.emoji) }),
          ...(url !== undefined && { url }),
          ...(page.type === 'link' && page.target?.kind === 'url' && { external: true }),
          pages: page.type === 'computed' ? [] : walk(page.pages),
        },
      ];
    });
  const tree = walk(pages);
  const linkTargets = new Map<string, string>();
  for (const page of all.values()) {
    const url = page.type === 'link' ? linkUrl(page) : undefined;
    if (url !== undefined) linkTargets.set(page.id, url);
  }
  const unsearchable = new Set([...all.values()].filter((page) => page.noIndex).map((page) => page.id));
  return { tree, byPath, byId: all, urls, order, linkTargets, unsearchable, position: new Map(order.map((page, at) => [page.id, at])), first: order[0], revisionId, key: addressKey(address) };
}

/** The navigation of a revision under a site space's URLs. */
export function navigationOf(ctx: Context, revision: RevisionRecord, address: SiteSpaceAddress): Promise<Navigation> {
  return ctx.derived.get(
    `reader-navigation\u0000${addressKey(address)}`,
    revision.id,
    async () => {
      const tree = await readPageTree(ctx.tx, revision);
      return build(revision.id, tree.pages, tree.byId, address);
    },
    () => revision.content.pages.size,
  );
}
