import type { Context } from '../../context.js';
import { loadRevision } from '../../content/revision.js';
import type { SpaceRecord } from '../../records.js';
import { withSearchIndex } from '../../search/build.js';
import { markedExcerpt } from '../../search/highlight.js';
import { queryWords } from '../../search/words.js';
import type { SiteSpaceAddress } from '../urls.js';
import { navigationOf } from './navigation.js';
import type { ReaderHit } from './view.js';
import type { VisibleSiteSpace, VisibleStructure } from './visible-structure.js';

/**
 * The reader's search: every site space of the site a visitor may read (visible-structure.ts: visibility
 * and adaptive conditions as for its pages), each with its space's search index, the hits ranked together
 * (more of the words, then more of them in a title or heading, then a higher score) and labelled with their
 * section (and site space, where its level has several). Pages marked noIndex are left out. A space shown in
 * several site spaces is searched once, where it comes first. Each hit's sections carry their excerpt with
 * the words that matched marked (search/highlight.ts).
 */

/** How many hits a search page shows. */
export const SEARCH_LIMIT = 20;

/** A site space searched: its space, its URLs, and the label its hits carry. */
export interface SearchScope {
  readonly space: SpaceRecord;
  readonly address: SiteSpaceAddress;
  readonly label?: string;
}

/** The site spaces a visitor searches on a site, the current one first, each labelled. */
export function scopesOf(visible: VisibleStructure, current: VisibleSiteSpace | undefined): SearchScope[] {
  const labelOf = (item: VisibleSiteSpace): string | undefined => {
    const section = visible.sections.find((candidate) => candidate.siteSpaces.includes(item));
    const parts = [...(section ? [section.node.section.title] : []), ...((section?.siteSpaces ?? visible.root).length > 1 ? [item.space.title] : [])];
    return parts.length === 0 ? undefined : parts.join(' › ');
  };
  const ordered = current ? [current, ...visible.all.filter((item) => item !== current)] : visible.all;
  return ordered.map((item) => ({ space: item.space, address: item.address, ...(labelOf(item) !== undefined && { label: labelOf(item) }) }));
}

/** Searches the scopes for a query: the best SEARCH_LIMIT hits of all, and how many pages match in all. */
export async function searchScopes(ctx: Context, organizationId: string, scopes: readonly SearchScope[], query: string): Promise<{ hits: ReaderHit[]; count: number }> {
  const words = queryWords(query.slice(0, 512));
  if (words.length === 0) return { hits: [], count: 0 };
  const found: { hit: ReaderHit; matched: number; prominent: number; score: number }[] = [];
  const searched = new Set<string>();
  let count = 0;
  for (const scope of scopes) {
    if (searched.has(scope.space.id)) continue;
    searched.add(scope.space.id);
    const revision = await loadRevision(ctx.tx, scope.space.revision);
    const navigation = await navigationOf(ctx, revision, scope.address);
    // Pages marked noIndex are in the space's index but not in the site's search: ask for enough to leave them out.
    const wanted = SEARCH_LIMIT + navigation.unsearchable.size;
    const result = await withSearchIndex(ctx, { revision, organizationId }, (index) => index.search(words, 0, wanted));
    const kept = result.hits.filter((hit) => navigation.urls.has(hit.id) && !navigation.unsearchable.has(hit.id));
    count += result.count - (result.hits.length - kept.length);
    const terms = new Set(result.terms);
    for (const hit of kept) {
      const url = navigation.urls.get(hit.id)!;
      const sections = hit.sections.map((section) => ({
        title: section.anchor === null ? hit.title : section.heading,
        url: section.anchor === null ? url : `${url}#${encodeURIComponent(section.anchor)}`,
        body: section.excerpt,
        marked: markedExcerpt(section.excerpt, terms),
      }));
      const shown: ReaderHit = { title: hit.title, markedTitle: markedExcerpt(hit.title, terms), url, sections, ...(scope.label !== undefined && { section: scope.label }) };
      found.push({ hit: shown, matched: hit.matched, prominent: hit.prominent, score: hit.score });
    }
  }
  // A stable sort: equal hits keep the order of their scopes (the current site space first).
  found.sort((a, b) => b.matched - a.matched || b.prominent - a.prominent || b.score - a.score);
  return { hits: found.slice(0, SEARCH_LIMIT).map((item) => item.hit), count };
}
