import * as v from 'valibot';
import type { Context } from '../../context.js';
import { emojiCharacters } from './emoji.js';
import { downloadUrl } from '../../content/downloads.js';
import { layoutOf } from '../../content/page-layout.js';
import { loadRevision, readFile } from '../../content/revision.js';
import { readOperation } from '../../operation.js';
import { TABLES, type RevisionRecord, type SiteRecord, type SpaceRecord } from '../../records.js';
import { uriComponent } from '../../well-formed.js';
import { NO_CLAIMS } from '../adaptive/evaluate.js';
import { DEFAULT_SETTINGS, loadCustomization, settingsOf } from '../customization/customizations.js';
import { plainAddress, siteUrl, underAddress, type SiteSpaceAddress } from '../urls.js';
import { admit, findSite } from './admission.js';
import { breadcrumbsOf } from './breadcrumbs.js';
import { fingerprintOf } from './fingerprint.js';
import { navigationOf, type Navigation, type ReadablePage } from './navigation.js';
import { markdownPathOf, markdownUrlOf, shareQueryOf } from './ai-paths.js';
import { readerBody } from './page-body.js';
import { scopesOf, searchScopes, type SearchScope } from './site-search.js';
import { pageMarkdown } from './page-markdown.js';
import { movedPageOf, shadowedPageOf, siteRedirectOf, type Elsewhere } from './redirects.js';
import { lookOf } from './site-look.js';
import { textLanguageOf } from '../../content/text-language.js';
import { excerptOf } from '../../search/sections.js';
import type { Admitted, ReaderAnswer, ReaderRequest, SiteChrome, SiteRef } from './view.js';
import { carriedQuery, spaceOnSites } from './space-on-sites.js';
import { placesOf, tabsOf, variantsOf, visibleStructure } from './visible-structure.js';

/**
 * The read operations of the published-site reader (src/reader). They run without a caller: who may read
 * is decided here, by the site's visibility (admission.ts), never by a member's role.
 */

/** The segment of a site space's search page, and its results. */
export const SEARCH_SEGMENT = '~search';

/** What a reader's request resolves to before the page itself: the layout and the site space's content. */
interface Resolved {
  readonly chrome: Omit<SiteChrome, 'tree'>;
  readonly organizationId: string;
  readonly space: SpaceRecord;
  /** The site space's URLs (urls.ts), under which its pages' URLs are made. */
  readonly address: SiteSpaceAddress;
  /** What its search page searches: every site space of the site the visitor may read, or the space read on its own. */
  readonly searchScopes: readonly SearchScope[];
  readonly rest: readonly string[];
  readonly admitted: Admitted;
  /** Where a path with no page at it leads instead, before a 404 (reader/redirects.ts). */
  readonly elsewhere: (navigation: Navigation) => Promise<Elsewhere | undefined>;
}

/** A redirect answer, keeping the credentials the visitor brought in cookies of the site's path. */
const redirectAnswer = (to: Elsewhere, admitted: Admitted, cookiePath: string): ReaderAnswer => ({ kind: 'redirect', ...to, admitted, cookiePath });

const pathOfUrl = (url: string) => new URL(url).pathname.replace(/\/+$/, '') || '/';

/** A site space's layout fields. */
const siteSpaceOf = (title: string, url: string) => ({ title, url, searchUrl: `${url}/${SEARCH_SEGMENT}` });

/**
 * The answer to a visitor of a visitor-auth site without a valid token: off to the site's fallback URL, with
 * the path asked for as `location` (relative to the site, as the public API's visitor authentication
 * sends it), where the visitor's sign-in comes back with a token; else a 401 in the site's layout.
 */
export async function unauthorized(ctx: Context, site: SiteRecord, segments: readonly string[]): Promise<ReaderAnswer> {
  const fallback = site.publishingAuth?.fallbackURL;
  if (fallback !== undefined) {
    const url = new URL(fallback);
    url.searchParams.set('location', segments.map(uriComponent).join('/'));
    return { kind: 'redirect', status: 302, location: url.href, admitted: {} };
  }
  const home = siteUrl(ctx, site);
  const settings = settingsOf(await loadCustomization(ctx, site));
  const chrome: SiteChrome = {
    id: site.id,
    title: settings.title ?? site.title,
    url: home,
    cookiePath: pathOfUrl(home),
    // Nothing of the site is linked for a visitor who may not read it.
    look: await lookOf(ctx, settings, { claims: NO_CLAIMS }),
    locale: settings.internationalization.locale,
    language: textLanguageOf(undefined, settings.internationalization.locale),
    tabs: [],
    variants: [],
    siteSpace: undefined,
    tree: [],
    indexable: false,
  };
  return { kind: 'unauthorized', chrome };
}

async function resolveSite(ctx: Context, request: ReaderRequest & { site: SiteRef }): Promise<Resolved | ReaderAnswer> {
  const site = await findSite(ctx, request.site);
  if (!site) return { kind: 'missing' };
  const admission = await admit(ctx, site, request);
  if (admission.kind === 'missing') return admission;
  if (admission.kind === 'unauthorized') return unauthorized(ctx, site, request.segments);
  const visible = await visibleStructure(ctx, site, admission.claims);
  const [place, ...others] = placesOf(visible, request.segments);
  const settings = settingsOf(await loadCustomization(ctx, site));
  const chrome = {
    id: site.id,
    title: settings.title ?? site.title,
    url: visible.url,
    cookiePath: pathOfUrl(siteUrl(ctx, site)),
    look: await lookOf(ctx, settings, { visible, current: place?.siteSpace, claims: admission.claims }),
    locale: settings.internationalization.locale,
    language: textLanguageOf(place?.siteSpace.space.language, settings.internationalization.locale),
    tabs: tabsOf(visible, place),
    variants: variantsOf(place),
    siteSpace: place && siteSpaceOf(place.siteSpace.space.title, place.siteSpace.url),
    indexable: site.visibility === 'public',
  };
  if (!place) {
    const redirect = await siteRedirectOf(ctx, site, request.segments);
    if (redirect) return redirectAnswer(redirect, admission.admitted, chrome.cookiePath);
    const empty = visible.empty && { empty: visible.empty };
    return { kind: 'not-found', chrome: { ...chrome, tree: [] }, admitted: admission.admitted, fingerprint: await fingerprintOf({ chrome, ...empty }), ...empty };
  }
  const spaceId = place.siteSpace.space.id;
  const elsewhere = async (navigation: Navigation) =>
    (await shadowedPageOf(ctx, others, site.visibility)) ??
    (await siteRedirectOf(ctx, site, request.segments)) ??
    movedPageOf(ctx, spaceId, place.rest.join('/'), navigation, site.visibility);
  const address = place.siteSpace.address;
  const searchScopes = scopesOf(visible, place.siteSpace);
  return { chrome, organizationId: site.organizationId, space: place.siteSpace.space, address, searchScopes, rest: place.rest, admitted: admission.admitted, elsewhere };
}

/**
 * A space at its own published URL (`/s/<spaceId>`). On a published site, it is read there only: a redirect
 * to its place on a site that shows it to this visitor (carrying the visitor's credentials and claims), or
 * missing when none does, as a page the visitor cannot see is. On none, it is read on its own when it is
 * public or unlisted. Deleted and private spaces, and the others (their keys belong to sites), are missing.
 */
async function resolveSpace(ctx: Context, request: ReaderRequest & { site: { spaceId: string }; query?: string }): Promise<Resolved | ReaderAnswer> {
  const space = (await ctx.tx.get(TABLES.spaces, request.site.spaceId)) as SpaceRecord | undefined;
  if (!space || space.deletedAt !== undefined || space.visibility === 'private') return { kind: 'missing' };
  const onSites = await spaceOnSites(ctx, space, request);
  if (onSites.kind === 'hidden') return { kind: 'missing' };
  if (onSites.kind === 'shown') {
    return { kind: 'redirect', status: 302, location: `${underAddress(onSites.address, request.segments)}${carriedQuery(request)}`, admitted: {} };
  }
  if (space.visibility !== 'public' && space.visibility !== 'unlisted') return { kind: 'missing' };
  const url = ctx.urls.published(`/s/${space.id}`);
  const chrome = {
    id: space.id,
    title: space.title,
    url,
    cookiePath: pathOfUrl(url),
    look: await lookOf(ctx, DEFAULT_SETTINGS, { claims: NO_CLAIMS }),
    locale: DEFAULT_SETTINGS.internationalization.locale,
    language: textLanguageOf(space.language, DEFAULT_SETTINGS.internationalization.locale),
    tabs: [],
    variants: [],
    siteSpace: siteSpaceOf(space.title, url),
    indexable: space.visibility === 'public',
  };
  const elsewhere = (navigation: Navigation) => movedPageOf(ctx, space.id, request.segments.join('/'), navigation, space.visibility);
  const address = plainAddress(url);
  return { chrome, organizationId: space.organizationId, space, address, searchScopes: [{ space, address }], rest: request.segments, admitted: {}, elsewhere };
}

const isResolved = (value: Resolved | ReaderAnswer): value is Resolved => 'space' in value;

/** The most characters of a page's summary (PageView.summary): what search engines show of a description. */
export const SUMMARY_LENGTH = 160;

async function pageAnswer(ctx: Context, resolved: Resolved, navigation: Navigation, page: ReadablePage): Promise<ReaderAnswer> {
  const revision = await loadRevision(ctx.tx, navigation.revisionId);
  const body = await readerBody(ctx, resolved.organizationId, revision, navigation, page);
  const at = navigation.position.get(page.id) ?? -1;
  const neighbour = (other: ReadablePage | undefined) => other && { title: other.title, url: navigation.urls.get(other.id)! };
  const previous = at > 0 ? neighbour(navigation.order[at - 1]) : undefined;
  const next = at >= 0 ? neighbour(navigation.order[at + 1]) : undefined;
  const layout = layoutOf(page.layout);
  const cover = layout.cover ? await coverOf(ctx, revision, page) : undefined;
  const summary = page.description ?? body.firstParagraph;
  const image = cover?.url ?? resolved.chrome.look.socialPreview;
  const view = {
    id: page.id,
    url: navigation.urls.get(page.id)!,
    markdownUrl: markdownUrlOf(navigation.urls.get(page.id)!),
    title: page.title,
    ...(page.emoji !== undefined && { emoji: emojiCharacters(page.emoji) }),
    ...(page.icon !== undefined && { icon: page.icon }),
    ...(page.description !== undefined && { description: page.description }),
    ...(summary !== undefined && { summary: excerptOf(summary, SUMMARY_LENGTH) }),
    ...(image !== undefined && { image }),
    markdown: body.markdown,
    ...(body.reference && { api: body.reference }),
    anchors: body.anchors,
    links: body.links,
    pageTitles: body.pageTitles,
    imageSizes: body.imageSizes,
    layout,
    ...(cover && { cover }),
    ...(previous && { previous }),
    ...(next && { next }),
    noindex: !resolved.chrome.indexable || page.noRobotsIndex === true,
    breadcrumbs: breadcrumbsOf(navigation, page),
    updatedAt: page.updatedAt,
  };
  // The body's source stands for its Markdown and page model, which are too big to digest on every request.
  const { markdown: _markdown, api: _api, anchors: _anchors, links: _links, pageTitles: _pageTitles, imageSizes: _imageSizes, ...shown } = view;
  const fingerprint = `${navigation.revisionId}.${await fingerprintOf({ chrome: resolved.chrome, page: shown, source: body.source })}`;
  return { kind: 'page', chrome: { ...resolved.chrome, tree: navigation.tree }, page: view, admitted: resolved.admitted, fingerprint };
}

/** A page's Markdown version, with the page's visibility to robots. */
async function markdownAnswer(ctx: Context, resolved: Resolved, navigation: Navigation, page: ReadablePage): Promise<ReaderAnswer> {
  const revision = await loadRevision(ctx.tx, navigation.revisionId);
  const text = await pageMarkdown(ctx, resolved.organizationId, revision, navigation, page, shareQueryOf(resolved.admitted.share));
  const indexable = resolved.chrome.indexable;
  const noindex = !indexable || page.noRobotsIndex === true;
  const fingerprint = `${navigation.revisionId}.md.${await fingerprintOf({ text, noindex, indexable })}`;
  return { kind: 'markdown', text, noindex, indexable, cookiePath: resolved.chrome.cookiePath, admitted: resolved.admitted, fingerprint };
}

/** The readable page a `.md` path names when the site has no page at the path itself. */
function markdownPageOf(navigation: Navigation, path: string): ReadablePage | undefined {
  const pagePath = markdownPathOf(path);
  const page = pagePath === undefined ? undefined : navigation.byPath.get(pagePath);
  return page && (page.type === 'document' || page.type === 'computed') ? (page as ReadablePage) : undefined;
}

/** Where a page's cover image is read: a file of the revision through its download URL, or its http(s) URL. */
async function coverOf(ctx: Context, revision: RevisionRecord, page: ReadablePage): Promise<{ url: string; yPos: number } | undefined> {
  if (!page.cover) return undefined;
  const { ref, yPos } = page.cover;
  if (ref.kind === 'url') return { url: ref.url, yPos };
  const file = await readFile(ctx.tx, revision, ref.file);
  return file && { url: await downloadUrl(ctx, { digest: file.digest, contentType: file.contentType, name: file.name }), yPos };
}

/** The search page: the site's search (site-search.ts) over what the visitor may read. */
async function search(ctx: Context, resolved: Resolved, navigation: Navigation, query: string): Promise<ReaderAnswer> {
  const { hits, count } = await searchScopes(ctx, resolved.organizationId, resolved.searchScopes, query);
  return { kind: 'search', chrome: { ...resolved.chrome, tree: navigation.tree }, query, hits, count, admitted: resolved.admitted };
}

/** The input of the reader's operations: a ReaderRequest, and the search query on a search page. */
const ReaderInput = v.custom<ReaderRequest & { query?: string }>((value) => typeof value === 'object' && value !== null);

/**
 * Resolves a request to a published site (or space): the page at its path with the layout around it, a
 * site space's search results, a 404 in the site's layout, a 401 for a visitor-auth site without a valid
 * visitor token, or `missing` for anything the visitor may not know exists.
 */
export const readPublished = readOperation({
  name: 'readPublished',
  summary: 'Read a page of a published site',
  body: { request: ReaderInput },
  response: v.custom<ReaderAnswer>(() => true),
  async run(ctx, { request }): Promise<ReaderAnswer> {
    const resolved = 'spaceId' in request.site ? await resolveSpace(ctx, request as never) : await resolveSite(ctx, request as never);
    if (!isResolved(resolved)) return resolved;
    const revision = await loadRevision(ctx.tx, resolved.space.revision);
    const navigation = await navigationOf(ctx, revision, resolved.address);
    if (resolved.rest.length === 1 && resolved.rest[0] === SEARCH_SEGMENT) return search(ctx, resolved, navigation, request.query ?? '');
    const notFound = async (empty?: 'no-pages'): Promise<ReaderAnswer> => ({
      kind: 'not-found',
      chrome: { ...resolved.chrome, tree: navigation.tree },
      admitted: resolved.admitted,
      fingerprint: `${revision.id}.${await fingerprintOf({ chrome: resolved.chrome, empty })}`,
      ...(empty && { empty }),
    });
    if (resolved.rest.length === 0) return navigation.first ? pageAnswer(ctx, resolved, navigation, navigation.first) : notFound('no-pages');
    const path = resolved.rest.join('/');
    const page = navigation.byPath.get(path);
    if (!page || page.type === 'group') {
      const markdownPage = page ? undefined : markdownPageOf(navigation, path);
      if (markdownPage) return markdownAnswer(ctx, resolved, navigation, markdownPage);
      const elsewhere = await resolved.elsewhere(navigation);
      return elsewhere ? redirectAnswer(elsewhere, resolved.admitted, resolved.chrome.cookiePath) : notFound();
    }
    if (page.type === 'link') {
      const location = navigation.linkTargets.get(page.id);
      return location !== undefined ? { kind: 'redirect', status: 302, location, admitted: resolved.admitted } : notFound();
    }
    return pageAnswer(ctx, resolved, navigation, page as ReadablePage);
  },
});
