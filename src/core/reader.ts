/**
 * What the published-site reader (src/reader) uses of the core: its read operations, run through
 * `platform.run` without a caller, and the plain data they answer.
 */
export { readPublished } from './sites/reader/read-published.js';
export { readPublishedRobots, readPublishedSitemap } from './sites/reader/sitemap.js';
export type { Admitted, NavLink, NavNode, PageView, ReaderAnswer, ReaderHit, ReaderRequest, SiteChrome, TabEntry } from './sites/reader/view.js';
export { ApiError } from './errors.js';
