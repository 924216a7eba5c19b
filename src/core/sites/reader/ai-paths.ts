/**
 * The reader's own paths for AI tools, beside a site's pages: a page's Markdown at its URL plus `.md`, the
 * index and the whole text of a site (or section) at `llms.txt` and `llms-full.txt` under its URL, and its
 * MCP server at `~mcp`. A page at such a path wins: these answer only where the site has no page.
 */

/** What a page's URL gains for its Markdown version. */
export const MARKDOWN_SUFFIX = '.md';

/** The segment of a site's (or section's) index for AI tools (llmstxt.org). */
export const LLMS_SEGMENT = 'llms.txt';

/** The segment of a site's (or section's) whole content as Markdown. */
export const LLMS_FULL_SEGMENT = 'llms-full.txt';

/** The segment of a site's (or section's) read-only MCP server. */
export const MCP_SEGMENT = '~mcp';

/** The URL of a page's Markdown version; `query` (shareQueryOf) carries the visitor's share key. */
export const markdownUrlOf = (pageUrl: string, query = ''): string => `${pageUrl}${MARKDOWN_SUFFIX}${query}`;

/**
 * The query that the links of a text for AI tools carry for a visitor who came with a share key (`?share=…`;
 * the core admits one only on a share-link site), so that an agent that follows them is let in as well: it
 * keeps no cookie, as a browser does. '' for anyone else: a text served without a key names none.
 */
export const shareQueryOf = (share: string | undefined): string => (share === undefined ? '' : `?share=${encodeURIComponent(share)}`);

/** The page path a `.md` path names (`guides/setup.md` → `guides/setup`), or undefined for any other path. */
export function markdownPathOf(path: string): string | undefined {
  if (!path.endsWith(MARKDOWN_SUFFIX) || path.length === MARKDOWN_SUFFIX.length || path.endsWith(`/${MARKDOWN_SUFFIX}`)) return undefined;
  return path.slice(0, -MARKDOWN_SUFFIX.length);
}
