import type { ApiReference } from '../../content/api-reference/model.js';
import type { PageLayout } from '../../content/page-layout.js';
import type { ExcerptRun } from '../../search/highlight.js';
import type { CustomizationSettings } from '../customization/settings-schema.js';
import type { TextLanguage } from '../../content/text-language.js';

/**
 * What the published-site reader shows, as plain data: the core decides everything (who may read, which
 * parts a visitor's claims leave out, where every link points) and the reader only turns it into HTML.
 */

/** How a request names a site: by organization and basename (or id) under the published URLs, or by the hostname it came to. */
export type SiteRef = { readonly organizationId: string; readonly name: string } | { readonly hostname: string };

/** What a request to a published site brings. */
export interface ReaderRequest {
  /** A site by organization and basename (or id), or by its custom hostname; or a space on its own by id. */
  readonly site: SiteRef | { readonly spaceId: string };
  /** The decoded path segments after the site's (or space's) URL. */
  readonly segments: readonly string[];
  /** A share key, from `?share=` or the cookie. */
  readonly share?: string;
  /** A visitor token, from `?jwt_token=` or the cookie. */
  readonly visitorToken?: string;
  /** True when the visitor token came in the query: one kept in a cookie is never written into a URL. */
  readonly visitorTokenInQuery?: boolean;
  /** Unsigned claims, from `?visitor.<claim>=true|false`. */
  readonly unsigned: Readonly<Record<string, boolean>>;
}

/** A link of the layout. */
export interface NavLink {
  readonly title: string;
  readonly url: string;
  readonly current: boolean;
  readonly icon?: string;
}

/** An entry of the tabs: a section, or a group of sections shown as a menu. */
export type TabEntry = ({ readonly kind: 'section' } & NavLink) | { readonly kind: 'group'; readonly title: string; readonly icon?: string; readonly current: boolean; readonly sections: readonly NavLink[] };

/** A page in the navigation tree (hidden pages are left out of it). */
export interface NavNode {
  readonly id: string;
  readonly type: 'document' | 'group' | 'link';
  readonly title: string;
  readonly emoji?: string;
  /** Where it leads: its published URL, a link page's target; absent for groups and links to nowhere. */
  readonly url?: string;
  /** A link page that leaves the site. */
  readonly external?: boolean;
  readonly pages: readonly NavNode[];
}

/** A link of the site's header and footer, as its customization names it, with where it leads. */
export interface LookLink {
  readonly title: string;
  readonly url: string;
}

/** An item of the site's header: a link, a menu of links, or both. */
export interface HeaderItem {
  readonly title: string;
  /** Where the item itself leads; absent for a menu only. */
  readonly url?: string;
  readonly style: 'link' | 'button-primary' | 'button-secondary';
  readonly links: readonly LookLink[];
}

/** Two URLs of one image: for light and for dark mode. */
export interface ThemedUrls {
  readonly light: string;
  readonly dark: string;
}

/**
 * How a site looks and what its layout shows besides its navigation, from its customization settings
 * (customization/): links whose target cannot be shown (a user, a file, a page that is not on the site)
 * and header items whose condition does not hold for the visitor are left out.
 */
export interface SiteLook {
  readonly styling: CustomizationSettings['styling'];
  /** Light, dark, or as the visitor's system says. */
  readonly mode: 'light' | 'dark' | 'system';
  readonly favicon?: ThemedUrls | { readonly emoji: string };
  readonly logo?: ThemedUrls;
  readonly header: readonly HeaderItem[];
  readonly announcement?: { readonly message: string; readonly style: 'info' | 'warning' | 'danger' | 'success'; readonly link?: LookLink };
  readonly footer: { readonly groups: readonly { readonly title: string; readonly links: readonly LookLink[] }[]; readonly copyright?: string; readonly privacyPolicy?: string };
  /** Whether pages show their previous and next pages. */
  readonly pagination: boolean;
  /** The image of the site's pages where they are shared (`socialPreview`), when it has one. */
  readonly socialPreview?: string;
}

/** The layout of a published site around a page: the same on every page of one site space. */
export interface SiteChrome {
  /** Identifies the site (or space) for cookies and caches. */
  readonly id: string;
  readonly title: string;
  /** Its URL (the first page of its default section and site space). */
  readonly url: string;
  /** The path cookies of the site are scoped to. */
  readonly cookiePath: string;
  readonly look: SiteLook;
  /** The locale of the reader's own words (CustomizationLocale). */
  readonly locale: string;
  /** The language and direction of its pages: the current space's language, else the locale (text-language.ts). */
  readonly language: TextLanguage;
  /** The sections as tabs (empty for a site without sections). */
  readonly tabs: readonly TabEntry[];
  /** The site spaces of the current level (versions, languages), when it has more than one. */
  readonly variants: readonly NavLink[];
  /** The current site space: its title and URL, and where its search answers. */
  readonly siteSpace: { readonly title: string; readonly url: string; readonly searchUrl: string } | undefined;
  /** The page tree of the current site space. */
  readonly tree: readonly NavNode[];
  /** Whether search engines may index it: only public sites. */
  readonly indexable: boolean;
}

/** An ancestor of a page in its breadcrumbs: a group (no URL) or a parent page. */
export interface Crumb {
  readonly title: string;
  readonly url?: string;
}

/** What a page shows. */
export interface PageView {
  readonly id: string;
  readonly url: string;
  /** The URL of its Markdown version (ai-paths.ts). */
  readonly markdownUrl: string;
  readonly title: string;
  readonly emoji?: string;
  readonly icon?: string;
  readonly description?: string;
  /**
   * What the page is about in a line, for search engines and shared links: its description, or else the
   * plain text of its body's first paragraph, at most SUMMARY_LENGTH characters; absent when it has neither.
   */
  readonly summary?: string;
  /** The image that stands for it where it is shared: its cover, or else the site's social preview. */
  readonly image?: string;
  /** The stored Markdown (or a computed page's generated Markdown). */
  readonly markdown: string;
  /** A computed OpenAPI page's page model, which the reader shows instead of its Markdown. */
  readonly api?: ApiReference;
  /** The anchors of its headings in document order, as the outline and the links index make them. */
  readonly anchors: readonly string[];
  /** Where each URL written in the body leads, as written: its published or download URL, or null (shown as text). */
  readonly links: Readonly<Record<string, string | null>>;
  /** The title of each page of the site a URL written in the body names (`/pages/<id>`), for page cards. */
  readonly pageTitles: Readonly<Record<string, string>>;
  /** The width and height of each image file a URL written in the body names (page-body.ts). */
  readonly imageSizes: Readonly<Record<string, { readonly width: number; readonly height: number }>>;
  /** What the page shows, as the API presents its layout (content/page-layout.ts). */
  readonly layout: PageLayout;
  /** Its cover image's URL (a file's download URL, or the URL it names) and vertical position, when its layout shows it. */
  readonly cover?: { readonly url: string; readonly yPos: number };
  readonly previous?: { readonly title: string; readonly url: string };
  readonly next?: { readonly title: string; readonly url: string };
  readonly noindex: boolean;
  /** Its group and ancestors, from the top down (breadcrumbs.ts). */
  readonly breadcrumbs: readonly Crumb[];
  /** When its own fields or body last changed (ISO 8601), as its revision keeps it. */
  readonly updatedAt: string;
}

/** The credentials that let the visitor in, for the reader to keep in cookies. */
export interface Admitted {
  readonly share?: string;
  readonly visitorToken?: string;
}

/** A run of a hit's text; `mark`: a word the query matched (search/highlight.ts). */
export type MarkedRun = ExcerptRun;

/** A search hit with its published URL, the section (and site space) it is in, and its text with the matched words marked. */
export interface ReaderHit {
  readonly title: string;
  readonly markedTitle: readonly MarkedRun[];
  readonly url: string;
  /** Its section's title, and its site space's where its level has several; absent on a site without sections and variants. */
  readonly section?: string;
  readonly sections: readonly { readonly title: string; readonly url: string; readonly body: string; readonly marked: readonly MarkedRun[] }[];
}

/**
 * Why a site has nothing to read for a visitor: it shows no space (`no-spaces`); every space it shows is
 * private or deleted (`private-spaces`); the visitor's claims leave out every section and site space
 * (`hidden-spaces`); or the site space the path names has no page the reader shows (`no-pages`).
 */
export type EmptyReason = 'no-spaces' | 'private-spaces' | 'hidden-spaces' | 'no-pages';

/** Where the rest of an llms-full.txt begins: its first part not yet made, and the revisions its beginning read. */
export interface LlmsMore {
  readonly part: number;
  readonly revisions: string;
}

/** What the reader answers. */
export type ReaderAnswer =
  /** No such site for this visitor: unknown, unpublished, or a share link without its key. */
  | { readonly kind: 'missing' }
  /** A visitor-auth site without a valid visitor token, and no fallback URL: a 401 in the site's layout, without its navigation. */
  | { readonly kind: 'unauthorized'; readonly chrome: SiteChrome }
  /** A path the site does not have: a 404 in the site's layout; `empty` when the site (or site space) has nothing to read at all, and why. */
  | { readonly kind: 'not-found'; readonly chrome: SiteChrome; readonly admitted: Admitted; readonly fingerprint: string; readonly empty?: EmptyReason }
  /**
   * Elsewhere: a link page's own URL (302), a space's URL to its place on a site (302), a visitor without a
   * valid token to the fallback URL (302), a path with nothing at it to where a site redirect or a moved
   * page sends it (307, 308). `cookiePath`: where the credentials the visitor brought are kept.
   */
  | { readonly kind: 'redirect'; readonly status: 301 | 302 | 307 | 308; readonly location: string; readonly admitted: Admitted; readonly cookiePath?: string }
  | { readonly kind: 'page'; readonly chrome: SiteChrome; readonly page: PageView; readonly admitted: Admitted; readonly fingerprint: string }
  /** A page's Markdown version (page-markdown.ts), at its URL plus `.md`; `indexable` as the site's chrome says. */
  | { readonly kind: 'markdown'; readonly text: string; readonly noindex: boolean; readonly indexable: boolean; readonly cookiePath: string; readonly admitted: Admitted; readonly fingerprint: string }
  /** llms.txt or llms-full.txt of a site or section (llms.ts); `more`: llms-full.txt goes on with parts still to make (llms-full.ts). */
  | { readonly kind: 'llms'; readonly text: string; readonly indexable: boolean; readonly cookiePath: string; readonly admitted: Admitted; readonly fingerprint: string; readonly more?: LlmsMore }
  | { readonly kind: 'search'; readonly chrome: SiteChrome; readonly query: string; readonly hits: readonly ReaderHit[]; readonly count: number; readonly admitted: Admitted }
  | { readonly kind: 'sitemap'; readonly urls: readonly string[] }
  /** robots.txt: where the sitemap is, and the site's llms.txt and llms-full.txt; absent: the site asks not to be crawled. */
  | { readonly kind: 'robots'; readonly sitemap?: string; readonly llms?: readonly string[] }
  /** favicon.ico: the site's customized favicon; absent: the default one. */
  | { readonly kind: 'favicon'; readonly favicon?: SiteLook['favicon'] };
