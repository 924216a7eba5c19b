import type { PageView, ReaderHit, SiteChrome } from '../core/reader.js';
import { html, raw, type Html } from './html.js';
import { documentOf, header, sidebar } from './layout.js';
import { renderBody, type Heading } from './markdown.js';
import { styleSheet } from './styles.js';

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
  options: { noindex: boolean; description?: string; currentId?: string; outline?: Html; query?: string; tree?: boolean },
): Rendered {
  const style = styleSheet(chrome);
  const body = html`${header(chrome, options.query)}
<div class="layout">
${options.tree === false ? html`<span></span>` : sidebar(chrome, options.currentId)}
<main id="content">${main}</main>
${options.outline ?? html`<span></span>`}
</div>`;
  return { html: documentOf({ title, siteTitle: chrome.title, locale: chrome.locale, noindex: options.noindex, description: options.description, style, body }), style };
}

function outlineOf(headings: readonly Heading[]): Html | undefined {
  const shown = headings.filter((heading) => heading.level >= 2 && heading.level <= 4 && heading.anchor !== '');
  if (shown.length === 0) return undefined;
  return html`<aside class="outline" aria-label="On this page"><ul>${shown.map((heading) => html`<li class="level-${heading.level}"><a href="#${heading.anchor}">${heading.text}</a></li>`)}</ul></aside>`;
}

/** A page of a site. */
export function pageDocument(chrome: SiteChrome, page: PageView): Rendered {
  const body = renderBody(page);
  const pagination =
    page.layout.pagination &&
    (page.previous || page.next) &&
    html`<nav class="pagination" aria-label="Pagination">${page.previous && html`<a class="previous" rel="prev" href="${page.previous.url}"><small>Previous</small>${page.previous.title}</a>`}${page.next && html`<a class="next" rel="next" href="${page.next.url}"><small>Next</small>${page.next.title}</a>`}</nav>`;
  const cover = page.cover && html`<figure class="cover cover-${page.layout.coverSize}"><img src="${page.cover.url}" alt=""></figure>`;
  const main = html`<article>
${cover}
${page.layout.title && html`<h1 class="page-title">${page.emoji && html`<span class="emoji">${page.emoji}</span> `}${page.title}</h1>`}
${page.layout.description && page.description && html`<p class="description">${page.description}</p>`}
<div class="body">${raw(body.html)}</div>
${pagination}
</article>`;
  return inLayout(chrome, page.title, main, {
    noindex: page.noindex,
    description: page.description,
    currentId: page.id,
    outline: page.layout.outline ? outlineOf(body.headings) : undefined,
    tree: page.layout.tableOfContents,
  });
}

/** A path the site does not have, in the site's layout. */
export function notFoundDocument(chrome: SiteChrome): Rendered {
  const main = html`<h1 class="page-title">Page not found</h1><p>This site has no page at this address. Pick one in the navigation${chrome.siteSpace ? html`, search for it, or go to <a href="${chrome.url}">the first page</a>` : ''}.</p>`;
  return inLayout(chrome, 'Page not found', main, { noindex: true });
}

/** The page of a visitor-auth site for a visitor without a valid token (401): the site's layout, none of its navigation. */
export function unauthorizedDocument(chrome: SiteChrome): Rendered {
  const main = html`<h1 class="page-title">Sign in to read</h1><p>This site is open only to authenticated visitors. Open it through the link your organization gave you, which carries your visitor token.</p>`;
  return inLayout(chrome, 'Sign in to read', main, { noindex: true, tree: false });
}

/** The results of a search, as a list (also sent alone, as the instant search's fragment). */
export function searchResults(query: string, hits: readonly ReaderHit[], count: number): Html {
  if (query.trim() === '') return html`<div class="results"><p>Type some words to search.</p></div>`;
  if (hits.length === 0) return html`<div class="results"><p>No results for “${query}”.</p></div>`;
  return html`<div class="results"><p>${count} result${count === 1 ? '' : 's'} for “${query}”</p><ol>${hits.map(
    (hit) =>
      html`<li><a href="${hit.url}">${hit.title}</a>${hit.sections
        .filter((section) => section.body !== '')
        .slice(0, 2)
        // The page's own section (the text before its first heading) is the page's link already.
        .map((section) => html`<div class="excerpt">${section.url !== hit.url && html`<a href="${section.url}">${section.title}</a> — `}${section.body}</div>`)}</li>`,
  )}</ol></div>`;
}

/** The search page of a site space. */
export function searchDocument(chrome: SiteChrome, query: string, hits: readonly ReaderHit[], count: number): Rendered {
  const main = html`<h1 class="page-title">Search</h1>${searchResults(query, hits, count)}`;
  return inLayout(chrome, query ? `Search: ${query}` : 'Search', main, { noindex: true, query });
}

/** A page outside any site's layout: a site that is not there (404), a failure (503, 429, ...). */
export function plainDocument(title: string, message: string, siteTitle = 'docs-platform'): Rendered {
  const chrome = { styling: {} } as unknown as SiteChrome;
  const style = styleSheet(chrome);
  const body = html`<main id="content"><div class="layout"><div></div><div><h1 class="page-title">${title}</h1><p>${message}</p></div></div></main>`;
  return { html: documentOf({ title, siteTitle, locale: 'en', noindex: true, style, body }), style };
}
