import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, ListResourcesRequestSchema, McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../../core/errors.js';
import type { Platform } from '../../core/platform.js';
import { MCP_SEGMENT, readPublishedPage, readPublishedStructure, searchPublishedSite, type ReaderRequest } from '../../core/reader.js';
import { parseOrThrow } from '../../core/validate.js';
import { authorTool, fieldsOf, type AuthorTool } from './author-tool.js';
import type { AuthorTools } from './author-tools.js';
import { createToolServer, type AuthorMcpServer, type AuthorSession } from './tool-server.js';

/**
 * The read-only MCP server of a published site (`<site or section URL>/~mcp`): tools to search the site,
 * read a page's Markdown and list the site's structure, and its pages as resources. Every call runs the
 * core's reader operations for the visitor the request names (share key, visitor token, claims), so it
 * answers what that visitor reads on the site, and nothing else.
 */

/** The name and version the site server gives MCP clients. */
export const SITE_SERVER_INFO = { name: 'docs-platform-site', version: '0.1.0' };

const INSTRUCTIONS =
  'Read-only tools over a published documentation site. search finds pages (titles, URLs, excerpts); get_page reads one ' +
  'as Markdown by its URL or its path; list_pages gives the site’s sections and pages. The pages are resources too.';

const PAGE_URL = 'The page: its URL (as search and list_pages give it, its .md URL too), or its path under the site, e.g. guides/setup.';

let made: AuthorTools | undefined;

/** The site server's tools: search, get_page, list_pages. */
export function siteTools(): AuthorTools {
  made ??= new Map(
    [
      authorTool({
        name: 'search',
        title: 'Search the site',
        description: 'Searches the pages of the site (every section); answers the best pages with their titles, URLs, the URL of their Markdown and excerpts.',
        access: 'read',
        input: fieldsOf(searchPublishedSite, { query: 'The words to search for.', limit: 'How many pages to answer, 1 to 50 (default 10).' }),
        run: async (call, args) => call(searchPublishedSite, args),
      }),
      authorTool({
        name: 'get_page',
        title: 'Read a page',
        description: 'Reads one page of the site as Markdown (title, description, body; links to other pages lead to their .md URLs).',
        access: 'read',
        input: fieldsOf(readPublishedPage, { page: PAGE_URL }),
        run: async (call, args) => call(readPublishedPage, args),
      }),
      authorTool({
        name: 'list_pages',
        title: 'List the site’s pages',
        description: 'Lists the site’s sections, their page groups and pages in order, with titles, descriptions, URLs and Markdown URLs.',
        access: 'read',
        input: {},
        run: async (call) => call(readPublishedStructure, {}),
      }),
    ].map((tool: AuthorTool) => [tool.name, tool]),
  );
  return made;
}

/** Runs the reader's operations for a visitor: their request joins every input. */
export function runAsVisitor(platform: Platform, request: ReaderRequest, origin?: string): AuthorSession['run'] {
  return (operation, input) => platform.run(operation, undefined as never, parseOrThrow(operation.input, { ...input, request }) as never, origin);
}

/** An MCP error for a failed resource read: its API message. */
const resourceError = (error: unknown) =>
  error instanceof ApiError ? new McpError(error.status === 404 ? -32002 : ErrorCode.InvalidParams, error.message) : error;

/** The site server for one visitor's request. */
export function createSiteServer(session: AuthorSession): AuthorMcpServer {
  const run = session.run;
  const extend = (sdkServer: unknown) => {
    const server = sdkServer as Server;
    server.setRequestHandler(ListResourcesRequestSchema, async () => {
      const structure = (await run(readPublishedStructure, {}, {})) as { sections: { groups: { pages: { title: string; description?: string; markdownUrl: string }[] }[] }[] };
      const resources = structure.sections.flatMap((section) =>
        section.groups.flatMap((group) =>
          group.pages.map((page) => ({ uri: page.markdownUrl, name: page.title, title: page.title, mimeType: 'text/markdown', ...(page.description !== undefined && { description: page.description }) })),
        ),
      );
      return { resources };
    });
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      try {
        const page = (await run(readPublishedPage, { page: request.params.uri }, {})) as { markdown: string };
        return { contents: [{ uri: request.params.uri, mimeType: 'text/markdown', text: page.markdown }] };
      } catch (error) {
        throw resourceError(error);
      }
    });
  };
  return createToolServer({ info: SITE_SERVER_INFO, instructions: INSTRUCTIONS, tools: siteTools(), capabilities: { resources: {} }, extend }, session);
}

/** Options of createSiteMcpServer(): the site, and the visitor whose reading the server answers. */
export interface SiteMcpServerOptions {
  /** The site: of an organization by its basename (or id), or by its custom hostname. */
  site: { organizationId: string; name: string } | { hostname: string };
  /** The path of one of its sections, for a server of that section only. */
  section?: string;
  /** The key of one of its share links (a share-link site). */
  share?: string;
  /** A visitor token signed with the site's private key (a visitor-auth site; signed claims on any site). */
  visitorToken?: string;
  /** Unsigned claims the site's adaptive schema declares. */
  unsigned?: Record<string, boolean>;
  /** The origin of the URLs in answers; default the platform's base URL. */
  origin?: string;
}

/**
 * The read-only MCP server of a published site for one visitor, to connect to a transport of the caller's
 * choosing (the Fetch handler serves it at `<site URL>/~mcp` already). A visitor the site does not admit
 * gets each call's 404 or 401 as a tool error.
 */
export function createSiteMcpServer(platform: Platform, options: SiteMcpServerOptions): AuthorMcpServer {
  const request: ReaderRequest = {
    site: options.site,
    segments: [...(options.section !== undefined ? [options.section] : []), MCP_SEGMENT],
    ...(options.share !== undefined && { share: options.share }),
    ...(options.visitorToken !== undefined && { visitorToken: options.visitorToken }),
    unsigned: options.unsigned ?? {},
  };
  return createSiteServer({ run: runAsVisitor(platform, request, options.origin) });
}
