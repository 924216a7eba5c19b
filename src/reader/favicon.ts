import type { SiteLook } from '../core/reader.js';
import type { PlainResponse } from '../adapters/plain.js';
import { html, type Html } from './html.js';

/**
 * The favicon of the reader's pages, and the answer at `favicon.ico`: the site's image (light and dark), its
 * emoji drawn in an SVG, or else a small default, a page on a blue square. Browsers ask for `/favicon.ico` of
 * a host on their own; the pages link theirs, so that a site under a path shows its own.
 */

/** The default favicon: a page with three lines of text on a rounded square of the default primary color. */
export const DEFAULT_FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#346DDB"/><path d="M10 7h9l5 5v13H10z" fill="#fff"/><path d="M13 15h8M13 18.5h8M13 22h5" stroke="#346DDB" stroke-width="1.6"/></svg>';

/** An emoji drawn as an SVG favicon. */
export const emojiSvg = (emoji: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${emoji.replace(/[<>&]/g, '')}</text></svg>`;

const dataUrl = (svg: string) => `data:image/svg+xml,${encodeURIComponent(svg)}`;

/**
 * The <link rel="icon"> of a page: its site's image for each color scheme, its emoji, or else the site's
 * favicon.ico (`siteIcon`), which answers the default (a URL, not a `data:` one: no page links one of those but
 * the emoji the site chose); nothing for a page outside any site, whose browser asks the host's /favicon.ico.
 */
export function faviconLinks(favicon: SiteLook['favicon'], siteIcon: string | undefined): Html | undefined {
  if (favicon === undefined) return siteIcon === undefined ? undefined : html`<link rel="icon" href="${siteIcon}" type="image/svg+xml">`;
  if ('emoji' in favicon) return html`<link rel="icon" href="${dataUrl(emojiSvg(favicon.emoji))}" type="image/svg+xml">`;
  return html`<link rel="icon" href="${favicon.light}" media="(prefers-color-scheme: light)"><link rel="icon" href="${favicon.dark}" media="(prefers-color-scheme: dark)">`;
}

/** How long a browser keeps a favicon before it asks again: an hour, so a new one shows the same day. */
const CACHE = 'public, max-age=3600';

/** The answer at `favicon.ico`: the site's image (a redirect to its light form, as one URL can hold one), or an SVG. */
export function faviconResponse(favicon: SiteLook['favicon']): PlainResponse {
  if (favicon !== undefined && !('emoji' in favicon)) return { status: 302, headers: { location: favicon.light, 'cache-control': CACHE } };
  return {
    status: 200,
    headers: { 'content-type': 'image/svg+xml', 'x-content-type-options': 'nosniff', 'cache-control': CACHE, 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" },
    body: favicon === undefined ? DEFAULT_FAVICON_SVG : emojiSvg(favicon.emoji),
  };
}
