import * as v from 'valibot';
import type { Context } from '../../context.js';
import { ApiError, notFound } from '../../errors.js';
import { loadRevision } from '../../content/revision.js';
import { readOperation } from '../../operation.js';
import { withSearchIndex } from '../../search/build.js';
import { compareText, type Hit } from '../../search/search-index.js';
import { queryWords } from '../../search/words.js';
import { LLMS_FULL_SEGMENT, LLMS_SEGMENT, markdownPathOf, markdownUrlOf, shareQueryOf } from './ai-paths.js';
import { navigationOf, type ReadablePage } from './navigation.js';
import { pageMarkdown } from './page-markdown.js';
import { siteIndexOf } from './site-index.js';
import { siteScopeOf, type SiteScope } from './site-scope.js';
import type { ReaderRequest } from './view.js';
import { placeOf } from './visible-structure.js';

/**
 * What the read-only MCP server of a published site (`<site or section URL>/~mcp`) reads: search, a page's
 * Markdown, the site's structure. Each runs for the visitor the request names (its share key, its visitor
 * token, its claims), admitted as the site admits readers (site-scope.ts); what it answers is what that
 * visitor reads on the site, and the URLs it gives carry the visitor's share key (shareQueryOf).
 */

/** The reader's request to the server's URL: its last segment is `~mcp`. */
const SiteRequest = v.custom<ReaderRequest>((value) => typeof value === 'object' && value !== null);

/** What admission answers before any message is read: the server is there for this visitor, or why not. */
export type SiteMcpAdmission = { readonly kind: 'admitted' } | { readonly kind: 'missing' } | { readonly kind: 'unauthorized'; readonly realm: string } | { readonly kind: 'not-here' };

/** The scope of a request, or a 404 / 401 for a visitor the site does not admit. */
async function scopeOrThrow(ctx: Context, request: ReaderRequest): Promise<SiteScope> {
  const scope = await siteScopeOf(ctx, request);
  if (scope === undefined || ('kind' in scope && scope.kind === 'missing')) throw notFound('There is no published site here');
  if ('kind' in scope) throw new ApiError(401, 'This site needs a visitor token: send it as a bearer token');
  return scope;
}

/** Whether a site's MCP server answers a request: the site admits the visitor, and no page of the site is at its path. */
export const admitSiteMcp = readOperation({
  name: 'admitSiteMcp',
  summary: 'Admit a visitor to the MCP server of a published site',
  body: { request: SiteRequest },
  response: v.custom<SiteMcpAdmission>(() => true),
  async run(ctx, { request }): Promise<SiteMcpAdmission> {
    const scope = await siteScopeOf(ctx, request);
    if (scope === undefined) return { kind: 'not-here' };
    if ('kind' in scope) return scope.kind === 'missing' ? scope : { kind: 'unauthorized', realm: scope.site.title };
    return { kind: 'admitted' };
  },
});

/** How many hits a search answers by default, and at most. */
const DEFAULT_HITS = 10;
export const MAX_HITS = 50;

/** Searches the pages of a published site (every section, or the server's section) that the visitor reads. */
export const searchPublishedSite = readOperation({
  name: 'searchPublishedSite',
  summary: 'Search a published site',
  body: {
    request: SiteRequest,
    query: v.pipe(v.string(), v.minLength(1, 'must be 1 to 512 characters'), v.maxLength(512, 'must be 1 to 512 characters')),
    limit: v.optional(v.pipe(v.number(), v.integer('must be an integer'), v.minValue(1, `must be 1 to ${MAX_HITS}`), v.maxValue(MAX_HITS, `must be 1 to ${MAX_HITS}`))),
  },
  response: v.custom<Record<string, unknown>>(() => true),
  async run(ctx, { request, query, limit = DEFAULT_HITS }) {
    const scope = await scopeOrThrow(ctx, request);
    const share = shareQueryOf(scope.admitted.share);
    const index = await siteIndexOf(ctx, scope.site, scope.visible, scope.section);
    const words = queryWords(query);
    const found: { hit: Hit; url: string; where: string }[] = [];
    for (const siteSpace of words.length === 0 ? [] : index.siteSpaces) {
      const navigation = await navigationOf(ctx, siteSpace.revision, siteSpace.address);
      const wanted = limit + navigation.unsearchable.size;
      const { hits } = await withSearchIndex(ctx, { revision: siteSpace.revision, organizationId: siteSpace.organizationId }, (search) => search.search(words, 0, wanted));
      for (const hit of hits) {
        const url = navigation.urls.get(hit.id);
        if (url !== undefined && !navigation.unsearchable.has(hit.id)) found.push({ hit, url, where: siteSpace.title });
      }
    }
    found.sort((a, b) => b.hit.matched - a.hit.matched || b.hit.prominent - a.hit.prominent || b.hit.score - a.hit.score || compareText(a.url, b.url));
    return {
      hits: found.slice(0, limit).map(({ hit, url, where }) => ({
        title: hit.title,
        url: `${url}${share}`,
        markdownUrl: markdownUrlOf(url, share),
        section: where,
        excerpts: hit.sections.map((part) => ({
          heading: part.anchor === null ? hit.title : part.heading,
          url: part.anchor === null ? `${url}${share}` : `${url}${share}#${encodeURIComponent(part.anchor)}`,
          text: part.excerpt,
        })),
      })),
    };
  },
});

/** The segments of a page a URL or path names, under the site's (or section's) URL; undefined when it names nothing there. */
function pageSegments(scope: SiteScope, page: string): string[] | undefined {
  const base = scope.section?.url ?? scope.visible.url;
  let path = page;
  if (/^https?:\/\//i.test(page)) {
    const url = new URL(page);
    const root = new URL(scope.visible.url);
    if (url.origin !== root.origin || !`${url.pathname}/`.startsWith(`${root.pathname.replace(/\/+$/, '')}/`)) return undefined;
    path = url.pathname.slice(root.pathname.replace(/\/+$/, '').length);
  } else if (base !== scope.visible.url) {
    path = `${new URL(base).pathname.slice(new URL(scope.visible.url).pathname.replace(/\/+$/, '').length)}/${page}`;
  }
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  const bare = markdownPathOf(trimmed) ?? trimmed;
  try {
    return bare === '' ? [] : bare.split('/').map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}

/** Reads a page of a published site as Markdown, by its URL (its `.md` URL too) or its path under the server's URL. */
export const readPublishedPage = readOperation({
  name: 'readPublishedPage',
  summary: 'Read a page of a published site as Markdown',
  body: { request: SiteRequest, page: v.pipe(v.string(), v.minLength(1, 'must be 1 to 2048 characters'), v.maxLength(2048, 'must be 1 to 2048 characters')) },
  response: v.custom<Record<string, unknown>>(() => true),
  async run(ctx, { request, page }) {
    const scope = await scopeOrThrow(ctx, request);
    const segments = pageSegments(scope, page);
    const place = segments && placeOf(scope.visible, segments);
    const missing = () => notFound(`page: no page of this site at ${page}`);
    if (!place) throw missing();
    const navigation = await navigationOf(ctx, await loadRevision(ctx.tx, place.siteSpace.space.revision), place.siteSpace.address);
    const entry = place.rest.length === 0 ? navigation.first : navigation.byPath.get(place.rest.join('/'));
    if (!entry || (entry.type !== 'document' && entry.type !== 'computed')) throw missing();
    const revision = await loadRevision(ctx.tx, navigation.revisionId);
    const share = shareQueryOf(scope.admitted.share);
    const markdown = await pageMarkdown(ctx, scope.site.organizationId, revision, navigation, entry as ReadablePage, share);
    const url = navigation.urls.get(entry.id)!;
    return { title: entry.title, url: `${url}${share}`, markdownUrl: markdownUrlOf(url, share), markdown };
  },
});

/** The structure of a published site (or the server's section): its site spaces, page groups and pages, with their URLs. */
export const readPublishedStructure = readOperation({
  name: 'readPublishedStructure',
  summary: 'Read the structure of a published site',
  body: { request: SiteRequest },
  response: v.custom<Record<string, unknown>>(() => true),
  async run(ctx, { request }) {
    const scope = await scopeOrThrow(ctx, request);
    const share = shareQueryOf(scope.admitted.share);
    const index = await siteIndexOf(ctx, scope.site, scope.visible, scope.section);
    return {
      title: index.title,
      url: `${index.url}${share}`,
      llms: `${index.url}/${LLMS_SEGMENT}${share}`,
      llmsFull: `${index.url}/${LLMS_FULL_SEGMENT}${share}`,
      sections: index.siteSpaces.map((siteSpace) => ({
        title: siteSpace.title,
        url: `${siteSpace.url}${share}`,
        groups: siteSpace.groups.map((group) => ({
          title: group.title,
          pages: group.pages.map((page) => ({ title: page.title, ...(page.description !== undefined && { description: page.description }), url: `${page.url}${share}`, markdownUrl: `${page.markdownUrl}${share}` })),
        })),
      })),
    };
  },
});
