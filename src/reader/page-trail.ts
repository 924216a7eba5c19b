import type { PageView } from '../core/reader.js';
import { html, type Html } from './html.js';
import { longDate, type LayoutWords } from './layout-words.js';

/** The parts around a page's title and body that say where it is and how fresh it is. */

/** A page's breadcrumbs (its group and ancestors, as the core lists them); nothing for a top-level page. */
export function breadcrumbs(page: Pick<PageView, 'breadcrumbs'>, words: LayoutWords): Html | undefined {
  if (page.breadcrumbs.length === 0) return undefined;
  return html`<nav class="breadcrumbs" aria-label="${words.breadcrumbs}"><ol>${page.breadcrumbs.map(
    (crumb) => html`<li>${crumb.url === undefined ? crumb.title : html`<a href="${crumb.url}">${crumb.title}</a>`}</li>`,
  )}</ol></nav>`;
}

/** The date of a page's last change, as the site's locale writes it. */
export const lastUpdated = (page: Pick<PageView, 'updatedAt'>, words: LayoutWords, locale: string): Html =>
  html`<p class="last-updated">${words.lastUpdated}: <time datetime="${page.updatedAt}">${longDate(page.updatedAt, locale)}</time></p>`;
