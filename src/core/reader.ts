/**
 * What the published-site reader (src/reader) uses of the core: its read operations, run through
 * `platform.run` without a caller, and the plain data they answer.
 */
export { readPublished } from './sites/reader/read-published.js';
export { readPublishedRobots, readPublishedSitemap } from './sites/reader/sitemap.js';
export { FAVICON_SEGMENT, readPublishedFavicon } from './sites/reader/favicon.js';
export { readPublishedLlms } from './sites/reader/llms.js';
export { readPublishedLlmsPart } from './sites/reader/llms-full.js';
export { admitSiteMcp, readPublishedPage, readPublishedStructure, searchPublishedSite, type SiteMcpAdmission } from './sites/reader/site-mcp.js';
export { LLMS_FULL_SEGMENT, LLMS_SEGMENT, MCP_SEGMENT } from './sites/reader/ai-paths.js';
export type { TextLanguage } from './content/text-language.js';
export type { Admitted, Crumb, EmptyReason, HeaderItem, LlmsMore, LookLink, NavLink, NavNode, PageView, MarkedRun, ReaderAnswer, ReaderHit, ReaderRequest, SiteChrome, SiteLook, TabEntry, ThemedUrls } from './sites/reader/view.js';
// GitBook's blocks, read by the core's one reader of them, for the reader to render around their Markdown.
export { parseBlocks } from './content/blocks/parse.js';
export { alertStyle, calloutLabel, type Block, type BodyItem } from './content/blocks/model.js';
export { readDefinitionsFirst } from './content/blocks/definitions.js';
export { DEFAULT_SETTINGS } from './sites/customization/customizations.js';
export { ApiError } from './errors.js';
export type { ApiBody, ApiMedia, ApiOperation, ApiParameter, ApiReference, ApiResponse, ApiSecurityRequirement, ApiSecurityScheme, SchemaNode } from './content/api-reference/model.js';
// Rendering a long page off the event loop: the reader's own job, run through the platform's workers port.
export { defineJob } from './job.js';
export { registerJobs } from './jobs.js';
export { INLINE_MARKDOWN_CHARS, markdownWork } from './content/markdown-work.js';
export { pause } from './pause.js';
export type { Workers } from './workers.js';
