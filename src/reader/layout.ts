import type { TextLanguage } from '../core/reader.js';
import type { HeaderItem, LookLink, NavLink, NavNode, SiteChrome, SiteLook, TabEntry, ThemedUrls } from '../core/reader.js';
import { html, raw, type Html } from './html.js';
import { faviconLinks } from './favicon.js';
import { READER_SCRIPT } from './script.js';
import type { Words } from './words.js';

/**
 * The layout of every reader page: the site's announcement, its header with its logo, links and search box,
 * the sections as tabs, the page tree beside the page, and its footer.
 */

/** What a document around some content needs. */
export interface Shell {
  readonly title: string;
  readonly siteTitle: string;
  /** The language of the page and its direction, for `<html lang dir>`. */
  readonly language: TextLanguage;
  readonly description?: string;
  readonly noindex: boolean;
  readonly style: string;
  readonly body: Html;
  /** The site's favicon, when it has one. */
  readonly favicon?: SiteLook['favicon'];
  /** The URL of the site's favicon.ico, linked where the site has no favicon of its own; absent outside any site. */
  readonly siteIcon?: string;
  /** The URL of the page's Markdown version, for AI tools. */
  readonly markdownUrl?: string;
  /** The one URL of a page that several URLs serve (the site's own URL serves its first page), for <link rel="canonical"> and Open Graph. */
  readonly canonical?: string;
  /** The image that stands for the page where it is shared (Open Graph, Twitter cards), when it has one. */
  readonly image?: string;
  /** The browser's color around the page, light and dark (theme-color); which of them as the site's mode says. */
  readonly themeColor?: { readonly light: string; readonly dark: string; readonly mode: SiteLook['mode'] };
}

/** <meta name="theme-color">: one color for a site in one mode, one for each color scheme otherwise. */
function themeColorMeta(theme: NonNullable<Shell['themeColor']>): Html {
  if (theme.mode !== 'system') return html`<meta name="theme-color" content="${theme[theme.mode]}">`;
  return html`<meta name="theme-color" content="${theme.light}" media="(prefers-color-scheme: light)"><meta name="theme-color" content="${theme.dark}" media="(prefers-color-scheme: dark)">`;
}

/**
 * What a shared link shows of a page (Open Graph, and Twitter's cards, which read Open Graph's title,
 * description and image but want their own card type): only for a page with a canonical URL.
 */
function sharingMeta(shell: Shell, title: string): Html | undefined {
  if (shell.canonical === undefined) return undefined;
  return html`<meta property="og:type" content="website">
<meta property="og:site_name" content="${shell.siteTitle}">
<meta property="og:title" content="${title}">
<meta property="og:url" content="${shell.canonical}">
${shell.description && html`<meta property="og:description" content="${shell.description}">
`}${shell.image && html`<meta property="og:image" content="${shell.image}">
`}<meta name="twitter:card" content="${shell.image ? 'summary_large_image' : 'summary'}">
<meta name="twitter:title" content="${title}">
${shell.description && html`<meta name="twitter:description" content="${shell.description}">
`}${shell.image && html`<meta name="twitter:image" content="${shell.image}">
`}`;
}

/** A whole HTML document. */
export function documentOf(shell: Shell): string {
  const title = shell.title === shell.siteTitle ? shell.title : `${shell.title} · ${shell.siteTitle}`;
  return html`<!doctype html>
<html lang="${shell.language.lang}" dir="${shell.language.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${shell.noindex && html`<meta name="robots" content="noindex">`}
${shell.description && html`<meta name="description" content="${shell.description}">`}
<meta name="referrer" content="strict-origin-when-cross-origin">
${shell.canonical && html`<link rel="canonical" href="${shell.canonical}">`}
${sharingMeta(shell, shell.title)}${shell.themeColor && themeColorMeta(shell.themeColor)}
${faviconLinks(shell.favicon, shell.siteIcon)}
${shell.markdownUrl && html`<link rel="alternate" type="text/markdown" href="${shell.markdownUrl}">`}
<style>${raw(shell.style)}</style>
</head>
<body>
${shell.body}
<script>${raw(READER_SCRIPT)}</script>
</body>
</html>
`.value;
}

const menu = (label: string, current: boolean, links: readonly NavLink[], extra = '') =>
  html`<details class="menu${current ? ' current' : ''}${extra}"><summary>${label} ▾</summary><div>${links.map(
    (link) => html`<a href="${link.url}"${link.current ? html` class="current" aria-current="page"` : ''}>${link.title}</a>`,
  )}</div></details>`;

function tab(entry: TabEntry): Html {
  if (entry.kind === 'group') return menu(entry.title, entry.current, entry.sections);
  return html`<a href="${entry.url}"${entry.current ? html` class="current" aria-current="page"` : ''}>${entry.title}</a>`;
}

/** An image in its light and dark forms, for the visitor's color scheme. */
const themedImage = (urls: ThemedUrls, alt: string) =>
  html`<picture><source srcset="${urls.dark}" media="(prefers-color-scheme: dark)"><img src="${urls.light}" alt="${alt}"></picture>`;

const lookLinks = (links: readonly LookLink[]): NavLink[] => links.map((link) => ({ ...link, current: false }));

/** An item of the header: a menu of its links, or a link styled as the customization says. */
function headerItem(item: HeaderItem): Html {
  if (item.links.length > 0) return menu(item.title, false, item.url === undefined ? lookLinks(item.links) : [{ title: item.title, url: item.url, current: false }, ...lookLinks(item.links)]);
  return html`<a class="header-link ${item.style}" href="${item.url}">${item.title}</a>`;
}

/** The announcement above the header. */
const announcementBar = (announcement: NonNullable<SiteLook['announcement']>) =>
  html`<div class="announcement ${announcement.style}" role="note">${announcement.message}${announcement.link && html` <a href="${announcement.link.url}">${announcement.link.title}</a>`}</div>`;

/**
 * The site's announcement, its header (logo or title, links, search box) and its tabs. With `menu` (its
 * label), a checkbox before them and its label in the header show the page tree on a phone (layout-styles.ts).
 */
export function header(chrome: SiteChrome, words: Words, query = '', menu?: string): Html {
  const { look } = chrome;
  return html`${menu && html`<input type="checkbox" id="menu-toggle" class="menu-toggle">`}${look.announcement && announcementBar(look.announcement)}<header class="site">
<a class="title" href="${chrome.url}">${look.logo ? themedImage(look.logo, chrome.title) : chrome.title}</a>
${menu && html`<label for="menu-toggle" class="menu-button"><span aria-hidden="true">☰</span> ${menu}</label>`}
${look.header.length > 0 && html`<nav class="header-links">${look.header.map(headerItem)}</nav>`}
${chrome.siteSpace && html`<form class="search" role="search" method="get" action="${chrome.siteSpace.searchUrl}"><input type="search" name="q" value="${query}" placeholder="${words.searchIn(chrome.siteSpace.title)}" aria-label="${words.search}" autocomplete="off"><button type="submit">${words.search}</button></form><div id="instant" hidden></div>`}
</header>
${chrome.tabs.length > 0 && html`<nav class="tabs" aria-label="${words.sections}">${chrome.tabs.map(tab)}</nav>`}`;
}

/** The site's footer: its groups of links, its copyright and its privacy policy; nothing when it has none. */
export function footer(chrome: SiteChrome, words: Words): Html | undefined {
  const { groups, copyright, privacyPolicy } = chrome.look.footer;
  if (groups.length === 0 && copyright === undefined && privacyPolicy === undefined) return undefined;
  return html`<footer class="site">
${groups.length > 0 && html`<div class="groups">${groups.map((group) => html`<div><h2>${group.title}</h2><ul>${group.links.map((link) => html`<li><a href="${link.url}">${link.title}</a></li>`)}</ul></div>`)}</div>`}
${(copyright !== undefined || privacyPolicy !== undefined) && html`<p class="legal">${copyright}${privacyPolicy !== undefined && html` <a href="${privacyPolicy}">${words.privacyPolicy}</a>`}</p>`}
</footer>`;
}

/** The ids of the pages from the top of the tree down to a page (empty when it is not in the tree). */
function pathTo(nodes: readonly NavNode[], id: string | undefined): string[] {
  if (id === undefined) return [];
  for (const node of nodes) {
    if (node.id === id) return [id];
    const below = pathTo(node.pages, id);
    if (below.length > 0) return [node.id, ...below];
  }
  return [];
}

/**
 * The page tree, folded: the top level, the pages of groups, and the subpages of the current page and of its
 * ancestors. A space of a thousand pages would otherwise send all of them with every page; every page is still
 * reached by links, through its parent.
 */
function treeNodes(nodes: readonly NavNode[], currentId: string | undefined, open: ReadonlySet<string>): Html {
  return html`<ul>${nodes.map((node) => {
    if (node.type === 'group') return html`<li><div class="group">${node.emoji && `${node.emoji} `}${node.title}</div>${treeNodes(node.pages, currentId, open)}</li>`;
    const label = html`${node.emoji && `${node.emoji} `}${node.title}${node.external ? ' ↗' : ''}`;
    const link = node.url === undefined ? html`<span>${label}</span>` : html`<a href="${node.url}"${node.id === currentId ? html` aria-current="page"` : ''}>${label}</a>`;
    const folded = node.pages.length > 0 && !open.has(node.id);
    return html`<li${folded ? html` class="folded"` : ''}>${link}${node.pages.length > 0 && !folded && treeNodes(node.pages, currentId, open)}</li>`;
  })}</ul>`;
}

/** The navigation beside the page: the variants of the site space's level, then its page tree. */
export function sidebar(chrome: SiteChrome, words: Words, currentId?: string): Html {
  const current = chrome.variants.find((variant) => variant.current);
  return html`<aside class="tree" aria-label="${words.pages}">
${current && menu(current.title, false, chrome.variants, ' variants')}
<nav>${treeNodes(chrome.tree, currentId, new Set(pathTo(chrome.tree, currentId)))}</nav>
</aside>`;
}
