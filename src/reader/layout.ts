import type { NavLink, NavNode, SiteChrome, TabEntry } from '../core/reader.js';
import { html, raw, type Html } from './html.js';
import { READER_SCRIPT } from './script.js';

/** The layout of every reader page: the site's header with its search box, the sections as tabs, the page tree beside the page. */

/** What a document around some content needs. */
export interface Shell {
  readonly title: string;
  readonly siteTitle: string;
  readonly locale: string;
  readonly description?: string;
  readonly noindex: boolean;
  readonly style: string;
  readonly body: Html;
}

/** A whole HTML document. */
export function documentOf(shell: Shell): string {
  const title = shell.title === shell.siteTitle ? shell.title : `${shell.title} · ${shell.siteTitle}`;
  return html`<!doctype html>
<html lang="${shell.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${shell.noindex && html`<meta name="robots" content="noindex">`}
${shell.description && html`<meta name="description" content="${shell.description}">`}
<meta name="referrer" content="strict-origin-when-cross-origin">
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

/** The site's header, its tabs and its search box. */
export function header(chrome: SiteChrome, query = ''): Html {
  return html`<header class="site">
<a class="title" href="${chrome.url}">${chrome.title}</a>
${chrome.siteSpace && html`<form class="search" role="search" method="get" action="${chrome.siteSpace.searchUrl}"><input type="search" name="q" value="${query}" placeholder="Search ${chrome.siteSpace.title}" aria-label="Search" autocomplete="off"><button type="submit">Search</button></form><div id="instant" hidden></div>`}
</header>
${chrome.tabs.length > 0 && html`<nav class="tabs" aria-label="Sections">${chrome.tabs.map(tab)}</nav>`}`;
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
export function sidebar(chrome: SiteChrome, currentId?: string): Html {
  const current = chrome.variants.find((variant) => variant.current);
  return html`<aside class="tree" aria-label="Pages">
${current && menu(current.title, false, chrome.variants, ' variants')}
<nav>${treeNodes(chrome.tree, currentId, new Set(pathTo(chrome.tree, currentId)))}</nav>
</aside>`;
}
