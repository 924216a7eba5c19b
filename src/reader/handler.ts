import type { Platform } from '../core/platform.js';
import { ApiError, FAVICON_SEGMENT, readPublishedFavicon, LLMS_FULL_SEGMENT, LLMS_SEGMENT, readPublished, readPublishedLlms, readPublishedLlmsPart, readPublishedRobots, readPublishedSitemap, type Admitted, type LlmsMore, type ReaderAnswer } from '../core/reader.js';
import { FRAGMENT_CSP, FRAME_ANCESTORS } from '../adapters/framing.js';
import { matchesEtag } from '../adapters/if-none-match.js';
import type { BodyStream, PlainRequest, PlainResponse } from '../adapters/plain.js';
import { RenderCache } from './cache.js';
import { setCookie, SHARE_COOKIE, VISITOR_COOKIE } from './cookies.js';
import { faviconResponse } from './favicon.js';
import { escapeHtml } from './html.js';
import { notFoundDocument, pageBody, pageDocument, plainDocument, searchDocument, searchResults, unauthorizedDocument, type Rendered } from './pages.js';
import { parseRequest, placeOfHost, placeOfPath, PUBLISHED_PREFIX, type ParsedRequest } from './request.js';
import { hashSource, scriptSource } from './script.js';
import { wordsOf } from './words.js';

/**
 * The published-site reader: answers every URL under `/published/` with HTML, as both adapters serve it
 * through the pipeline. It reads through the core's reader operations, which decide who may read what and
 * where every link leads, and only renders: a document per page and revision, kept in a RenderCache under
 * the core's fingerprint, which is also the ETag.
 */

/** Options of the reader. */
export interface ReaderOptions {
  /** How many rendered documents stay in memory; default 2,000. */
  readonly cacheEntries?: number;
}

/** A rendered document with its Content-Security-Policy. */
interface Cached {
  readonly html: string;
  readonly csp: string;
}

const HTML_TYPE = 'text/html; charset=utf-8';
const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';

/** Whether a path's last segment is llms.txt or llms-full.txt. */
const isLlmsPath = (segments: readonly string[]) => segments.length > 0 && (segments[segments.length - 1] === LLMS_SEGMENT || segments[segments.length - 1] === LLMS_FULL_SEGMENT);

/** The lines of robots.txt that name a site's llms.txt and llms-full.txt, as comments: robots.txt has no field for them. */
const robotsLlms = (urls: readonly string[] | undefined) => (urls ?? []).map((url) => `# LLMs: ${url}\n`).join('');

/** The run of a reader operation: no caller, since the core decides who may read by the site's visibility. */
type Run = <O>(operation: { run: (...args: any[]) => Promise<O> } & object, input: unknown, origin?: string) => Promise<O>;

/** The reader: answers the paths under /published/, and the requests that come to a site's custom hostname. */
export function createReader(platform: Platform, options: ReaderOptions = {}) {
  const cache = new RenderCache<Cached>(options.cacheEntries ?? 2000);
  const run: Run = (operation, input, origin) => platform.run(operation as never, undefined as never, input as never, origin) as never;

  /**
   * The CSP of a document: its own script and style by hash; images from anywhere on the web (bodies link
   * them) and `data:` ones (a favicon that is an emoji is an SVG drawn inline); requests and forms to the page's own origin and to the site's (`siteUrl`: a proxy's or hostname's
   * origin, or the configured base URL, where the search box sends its queries).
   */
  async function cspOf(rendered: Rendered, siteUrl: string | undefined): Promise<string> {
    const site = siteUrl === undefined ? '' : ` ${new URL(siteUrl).origin}`;
    return [
      "default-src 'none'",
      `script-src ${await scriptSource()}`,
      `style-src ${await hashSource(rendered.style)}`,
      "img-src 'self' https: http: data:",
      `connect-src 'self'${site}`,
      `form-action 'self'${site}`,
      "base-uri 'none'",
      FRAME_ANCESTORS,
    ].join('; ');
  }

  async function documentResponse(status: number, rendered: Rendered, siteUrl: string | undefined, headers: Record<string, string>): Promise<PlainResponse> {
    return htmlResponse(status, { html: rendered.html, csp: await cspOf(rendered, siteUrl) }, headers);
  }

  function htmlResponse(status: number, document: Cached, headers: Record<string, string>): PlainResponse {
    return {
      status,
      headers: { 'content-type': HTML_TYPE, 'x-content-type-options': 'nosniff', 'content-security-policy': document.csp, 'referrer-policy': 'strict-origin-when-cross-origin', ...headers },
      body: document.html,
    };
  }

  /** The cookies that keep credentials the query brought and the core accepted. */
  function cookiesFor(parsed: ParsedRequest, admitted: Admitted, path: string, secure: boolean): { cookies?: string[] } {
    const cookies: string[] = [];
    if (parsed.fromQuery.share && admitted.share !== undefined) cookies.push(setCookie(SHARE_COOKIE, admitted.share, path, secure));
    if (parsed.fromQuery.visitorToken && admitted.visitorToken !== undefined) cookies.push(setCookie(VISITOR_COOKIE, admitted.visitorToken, path, secure));
    return cookies.length === 0 ? {} : { cookies };
  }

  /** The answer to a request to a site; for a `hosted` one (by its hostname), undefined when the visitor may not know the site. */
  async function answer(request: PlainRequest, parsed: ParsedRequest, hosted: true): Promise<PlainResponse | undefined>;
  async function answer(request: PlainRequest, parsed: ParsedRequest): Promise<PlainResponse>;
  async function answer(request: PlainRequest, parsed: ParsedRequest, hosted = false): Promise<PlainResponse | undefined> {
    const origin = request.origin;
    const secure = (platform.baseUrl ?? origin ?? '').startsWith('https:');
    const rest = parsed.reader.segments;
    // A site's favicon, or the default one for a space, and for any site the visitor may not know of.
    if (rest.length === 1 && rest[0] === FAVICON_SEGMENT) {
      const icon = 'spaceId' in parsed.reader.site ? undefined : await run(readPublishedFavicon, { site: parsed.reader.site }, origin);
      return faviconResponse(icon?.kind === 'favicon' ? icon.favicon : undefined);
    }
    let result: ReaderAnswer;
    if (!('spaceId' in parsed.reader.site) && rest.length === 1 && (rest[0] === 'robots.txt' || rest[0] === 'sitemap.xml')) {
      result = await run(rest[0] === 'robots.txt' ? readPublishedRobots : readPublishedSitemap, { site: parsed.reader.site }, origin);
    } else {
      // llms.txt and llms-full.txt of a site or section; any other path (a page at such a path too) is a page's.
      const llms = isLlmsPath(rest) ? await run(readPublishedLlms, { request: parsed.reader }, origin) : undefined;
      result = llms ?? (await run(readPublished, { request: parsed.reader }, origin));
    }
    switch (result.kind) {
      case 'missing':
        if (hosted) return undefined;
        return documentResponse(404, plainDocument('Not found', 'There is no published site or page at this address.'), undefined, { 'cache-control': 'no-store' });
      case 'unauthorized':
        return documentResponse(401, unauthorizedDocument(result.chrome), result.chrome.url, { 'cache-control': 'no-store' });
      case 'redirect':
        return {
          status: result.status,
          headers: { location: result.location, 'cache-control': 'no-store' },
          ...(result.cookiePath !== undefined && cookiesFor(parsed, result.admitted, result.cookiePath, secure)),
        };
      case 'favicon':
        return faviconResponse(result.favicon);
      case 'robots':
        return {
          status: 200,
          headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=300' },
          body: result.sitemap === undefined ? 'User-agent: *\nDisallow: /\n' : `User-agent: *\nAllow: /\n\nSitemap: ${result.sitemap}\n${robotsLlms(result.llms)}`,
        };
      case 'sitemap':
        return {
          status: 200,
          headers: { 'content-type': 'application/xml; charset=utf-8', 'cache-control': 'public, max-age=300' },
          body: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${result.urls.map((url) => `<url><loc>${escapeHtml(url)}</loc></url>\n`).join('')}</urlset>\n`,
        };
      case 'search': {
        const headers = { 'cache-control': 'private, no-cache' };
        const cookies = cookiesFor(parsed, result.admitted, result.chrome.cookiePath, secure);
        if (parsed.fragment) {
          const fragment = { 'content-type': HTML_TYPE, 'x-content-type-options': 'nosniff', 'content-security-policy': FRAGMENT_CSP, ...headers };
          return { status: 200, headers: fragment, body: searchResults(result.query, result.hits, result.count, wordsOf(result.chrome.locale)).value, ...cookies };
        }
        return { ...(await documentResponse(200, searchDocument(result.chrome, result.query, result.hits, result.count), result.chrome.url, headers)), ...cookies };
      }
      case 'llms':
      case 'markdown': {
        const headers: Record<string, string> = {
          'content-type': result.kind === 'llms' ? TEXT_TYPE : MARKDOWN_TYPE,
          'x-content-type-options': 'nosniff',
          etag: `"${result.fingerprint}"`,
          'cache-control': result.indexable ? 'public, no-cache' : 'private, no-cache',
          vary: 'Cookie',
          ...((result.kind === 'llms' ? !result.indexable : result.noindex) && { 'x-robots-tag': 'noindex' }),
        };
        const cookies = cookiesFor(parsed, result.admitted, result.cookiePath, secure);
        if (matchesEtag(request.headers['if-none-match'], headers.etag)) return { status: 304, headers, ...cookies };
        const body = result.kind === 'llms' && result.more ? llmsFullRest(result.text, result.more, parsed.reader, origin) : result.text;
        return { status: 200, headers, body, ...cookies };
      }
      default: {
        const status = result.kind === 'page' ? 200 : 404;
        const etag = `"${result.kind === 'page' ? '' : 'nf.'}${result.fingerprint}"`;
        const headers = {
          etag,
          'cache-control': result.chrome.indexable ? 'public, no-cache' : 'private, no-cache',
          vary: 'Cookie',
        };
        const cookies = cookiesFor(parsed, result.admitted, result.chrome.cookiePath, secure);
        if (status === 200 && matchesEtag(request.headers['if-none-match'], etag)) return { status: 304, headers, ...cookies };
        const key = `${origin ?? ''}\u0000${etag}`;
        let document = cache.get(key);
        if (!document) {
          const rendered = result.kind === 'page' ? pageDocument(result.chrome, result.page, await pageBody(platform.workers, result.chrome, result.page)) : notFoundDocument(result.chrome, result.empty);
          document = { html: rendered.html, csp: await cspOf(rendered, result.chrome.url) };
          cache.set(key, document);
        }
        return { ...htmlResponse(status, document, headers), ...cookies };
      }
    }
  }

  /**
   * llms-full.txt from what its first answer held, then part after part, each read by its own operation as
   * the client takes the text (core: llms-full.ts). Lazy: a HEAD, which drops the body, makes no part.
   */
  async function* llmsFullRest(start: string, more: LlmsMore, request: ParsedRequest['reader'], origin: string | undefined): BodyStream {
    yield start;
    let next: number | undefined = more.part;
    while (next !== undefined) {
      const part: { text: string; next?: number } = await run(readPublishedLlmsPart, { request, part: next, revisions: more.revisions }, origin);
      yield part.text;
      next = part.next;
    }
  }

  const notAllowed = (request: PlainRequest): PlainResponse => ({
    status: 405,
    headers: { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' },
    body: `${request.method} is not allowed on a published page; use GET\n`,
  });

  /** A failure with a status, as a page for readers: the store cannot be reached (503), a spent rate limit (429), ... */
  async function failurePage(error: ApiError, headers: Record<string, string> = {}): Promise<PlainResponse> {
    const title = error.status === 503 || error.status === 429 ? 'Try again in a moment' : 'This page cannot be shown';
    return documentResponse(error.status, plainDocument(title, error.message), undefined, { 'cache-control': 'no-store', ...error.headers, ...headers });
  }

  /** Runs the work of a request; a failure with a status is a page saying so (failurePage). */
  async function guarded<T extends PlainResponse | undefined>(work: () => Promise<T>): Promise<T | PlainResponse> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return failurePage(error);
    }
  }

  return {
    failurePage,
    /** The server's own `/favicon.ico` (a host that is no site's): the default favicon. */
    favicon: (): PlainResponse => faviconResponse(undefined),
    /** Answers the paths under /published/, or undefined (at once) for any other path. */
    published(request: PlainRequest): Promise<PlainResponse> | undefined {
      if (!request.path.startsWith(PUBLISHED_PREFIX)) return undefined;
      return guarded(async () => {
        if (request.method !== 'GET' && request.method !== 'HEAD') return notAllowed(request);
        const place = placeOfPath(request.path);
        // A HEAD's body is dropped by the pipeline, once it is encoded as its GET's would be.
        return place
          ? await answer(request, parseRequest(place, request.query, request.headers.cookie))
          : await documentResponse(404, plainDocument('Not found', 'There is no published site or page at this address.'), undefined, { 'cache-control': 'no-store' });
      });
    },
    /**
     * Answers a GET or HEAD that came to a site's custom hostname (the site's `urls.published` then): a path
     * the API has no route for. Undefined when no published site the visitor may read has that hostname.
     */
    async hosted(request: PlainRequest): Promise<PlainResponse | undefined> {
      if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
      const place = placeOfHost(request.origin, request.path);
      if (!place) return undefined;
      return guarded(() => answer(request, parseRequest(place, request.query, request.headers.cookie), true));
    },
  };
}
