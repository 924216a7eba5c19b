import { createToolServer, type AuthorMcpServer, type AuthorSession } from './tool-server.js';
import type { AuthorTools } from './author-tools.js';

export type { AuthorMcpServer, AuthorSession, ToolCallEntry } from './tool-server.js';

/** The name and version the author server gives MCP clients. */
export const AUTHOR_SERVER_INFO = { name: 'docs-platform-author', version: '0.1.0' };

const INSTRUCTIONS =
  'Tools over a documentation platform, acting as the user of the API token, with that user’s permissions. ' +
  'Find content with list_organizations, list_spaces, list_pages, search and get_page. To change a space, ' +
  'open_change_request, then edit_pages, then request_review or merge_change_request (comment to discuss; ' +
  'list_members finds reviewers). Sites show spaces: ' +
  'add_space_to_site, publish_site, unpublish_site.';

/**
 * An MCP server with the author tools, for one caller (tool-server.ts): tools over the operations, acting as
 * the token's holder.
 */
export function createAuthorServer(tools: AuthorTools, session: AuthorSession): AuthorMcpServer {
  return createToolServer({ info: AUTHOR_SERVER_INFO, instructions: INSTRUCTIONS, tools }, session);
}
