import { FAVICON_SEGMENT, type EmptyReason, type PageView, type ReaderHit, type SiteChrome, type Workers } from '../core/reader.js';
import { renderApiReference } from './api-reference.js';
import { API_STYLES } from './api-styles.js';
import { emptySaid } from './empty-site-words.js';
import { markedHtml } from './marked.js';
import { html, raw, type Html } from './html.js';
import { documentOf, footer, header, sidebar } from './layout.js';
import { layoutWordsOf } from './layout-words.js';
import { breadcrumbs, lastUpdated } from './page-trail.js';
import { renderBodyOff, type RenderedBody } from './body-job.js';
import type { Heading } from './markdown.js';
import { plainStyleSheet, primaryColors, styleSheet } from './styles.js';
import { wordsOf, type Words } from './words.js';

/** The reader's pages, each a whole HTML document with its style sheet's text (its hash goes into the CSP). */

/** A rendered document and the style it carries. */
export interface Rendered {
  readonly html: string;
  readonly style: string;
}

function inLayout(
  chrome: SiteChrome,
  title: string,
  main: Html,
  options: { noindex: boolean; description?: string; currentId?: string; outline?: Html; query?: string; tree?: boolean; markdownUrl?: string; extraStyle?: string; canonical?: string; image?: string },
): Rendered {
  const style = styleSheet(chrome.look) + (options.extraStyle ?? '');
  const words = wordsOf(chrome.locale);
  const layoutWords = layoutWordsOf(chrome.locale);
  const tree = options.tree !== false;
  const menu = tree && (chrome.tree.length > 0 || chrome.variants.length > 0) ? layoutWords.menu : undefined;
  const body = html`<a class="skip-link" href="#content">${layoutWords.skipToContent}</a>
${header(chrome, words, options.query, menu)}
<div class="layout">
${!tree ? html`<span></span>` : sidebar(chrome, words, options.currentId)}
<main id="content">${main}</main>
${options.outline ?? html`<span></span>`}
</div>
${footer(chrome, words)}`;
  const shell = {
    title,
    siteTitle: chrome.title,
    language: chrome.language,
    noindex: options.noindex,
    description: options.description,
    style,
    body,
    favicon: chrome.look.favicon,
    siteIcon: `${chrome.url}/${FAVICON_SEGMENT}`,
    markdownUrl: options.markdownUrl,
    canonical: options.canonical,
    image: options.image,
    themeColor: { ...primaryColors(chrome.look.styling), mode: chrome.look.mode },
  };
  return { html: documentOf(shell), style };
}

function outlineOf(headings: readonly Heading[], words: Words): Html | undefined {
  const shown = headings.filter((heading) => heading.level >= 2 && heading.level <= 4 && heading.anchor !== '');
  if (shown.length === 0) return undefined;
  return html`<aside class="outline" aria-label="${words.onThisPage}"><ul>${shown.map((heading) => html`<li class="level-${heading.level}"><a href="#${heading.anchor}">${heading.text}</a></li>`)}</ul></aside>`;
}

/**
 * A page's body as HTML with its headings: an API page's in slices (api-reference.ts), a long Markdown body
 * through the workers port (body-job.ts), a short one here.
 */
export function pageBody(workers: Workers, chrome: SiteChrome, page: PageView): Promise<RenderedBody> {
  return page.api ? renderApiReference(page.api, page.links, layoutWordsOf(chrome.locale)) : renderBodyOff(workers, page, chrome.locale);
}

/** A page of a site, around its body (pageBody). */
export function pageDocument(chrome: SiteChrome, page: PageView, body: RenderedBody): Rendered {
  const words = wordsOf(chrome.locale);
  const layoutWords = layoutWordsOf(chrome.locale);
  const pagination =
    page.layout.pagination &&
    chrome.look.pagination &&
    (page.previous || page.next) &&
    html`<nav class="pagination" aria-label="${words.pagination}">${page.previous && html`<a class="previous" rel="prev" href="${page.previous.url}"><small>${words.previous}</small>${page.previous.title}</a>`}${page.next && html`<a class="next" rel="next" href="${page.next.url}"><small>${words.next}</small>${page.next.title}</a>`}</nav>`;
  const cover = page.cover && html`<figure class="cover cover-${page.layout.coverSize}"><img src="${page.cover.url}" alt=""></figure>`;
  const main = html`<article>
${cover}
${breadcrumbs(page, layoutWords)}
${page.layout.title && html`<h1 class="page-title">${page.emoji && html`<span class="emoji">${page.emoji}</span> `}${page.title}</h1>`}
${page.layout.description && page.description && html`<p class="description">${page.description}</p>`}
<div class="body">${raw(body.html)}</div>
${page.layout.metadata && lastUpdated(page, layoutWords, chrome.locale)}
${pagination}
</article>`;
  return inLayout(chrome, page.title, main, {
    noindex: page.noindex,
    description: page.summary,
    canonical: page.url,
    image: page.image,
    currentId: page.id,
    outline: page.layout.outline ? outlineOf(body.headings, words) : undefined,
    tree: page.layout.tableOfContents,
    markdownUrl: page.markdownUrl,
    // Only API pages carry the rules of API pages.
    ...(page.api && { extraStyle: API_STYLES }),
  });
}

/** A path the site does not have, in the site's layout; or, `empty`, a site with nothing to read, saying why. */
export function notFoundDocument(chrome: SiteChrome, empty?: EmptyReason): Rendered {
  if (empty) {
    const said = emptySaid(chrome.locale, empty);
    return inLayout(chrome, said.title, html`<h1 class="page-title">${said.title}</h1><p>${said.text}</p>`, { noindex: true });
  }
  const words = wordsOf(chrome.locale);
  const main = html`<h1 class="page-title">${words.notFoundTitle}</h1><p>${words.notFoundText}</p>${chrome.siteSpace && html`<p><a href="${chrome.url}">${words.firstPage}</a></p>`}`;
  return inLayout(chrome, words.notFoundTitle, main, { noindex: true });
}

/** The page of a visitor-auth site for a visitor without a valid token (401): the site's layout, none of its navigation. */
export function unauthorizedDocument(chrome: SiteChrome): Rendered {
  const words = wordsOf(chrome.locale);
  const main = html`<h1 class="page-title">${words.signInTitle}</h1><p>${words.signInText}</p>`;
  return inLayout(chrome, words.signInTitle, main, { noindex: true, tree: false });
}

/** The results of a search, as a list (also sent alone, as the instant search's fragment). */
export function searchResults(query: string, hits: readonly ReaderHit[], count: number, words: Words): Html {
  if (query.trim() === '') return html`<div class="results"><p>${words.typeToSearch}</p></div>`;
  if (hits.length === 0) return html`<div class="results"><p>${words.noResults(html`${query}`)}</p></div>`;
  return html`<div class="results"><p>${words.results(count, html`${query}`)}</p><ol>${hits.map(
    (hit) =>
      html`<li>${hit.section && html`<small class="hit-section">${hit.section}</small> `}<a href="${hit.url}">${markedHtml(hit.markedTitle)}</a>${hit.sections
        .filter((section) => section.body !== '')
        .slice(0, 2)
        // The page's own section (the text before its first heading) is the page's link already.
        .map((section) => html`<div class="excerpt">${section.url !== hit.url && html`<a href="${section.url}">${section.title}</a> — `}${markedHtml(section.marked)}</div>`)}</li>`,
  )}</ol></div>`;
}

/** The search page of a site space. */
export function searchDocument(chrome: SiteChrome, query: string, hits: readonly ReaderHit[], count: number): Rendered {
  const words = wordsOf(chrome.locale);
  const main = html`<h1 class="page-title">${words.search}</h1>${searchResults(query, hits, count, words)}`;
  return inLayout(chrome, query ? `${words.search}: ${query}` : words.search, main, { noindex: true, query });
}

/** A page outside any site's layout: a site that is not there (404), a failure (503, 429, ...). */
export function plainDocument(title: string, message: string): Rendered {
  const style = plainStyleSheet();
  const body = html`<main id="content"><div class="layout"><div></div><div><h1 class="page-title">${title}</h1><p>${message}</p></div></div></main>`;
  return { html: documentOf({ title, siteTitle: 'docs-platform', language: { lang: 'en', dir: 'ltr' }, noindex: true, style, body }), style };
}
