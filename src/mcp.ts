/** docs-platform/mcp: the author server (MCP) over a platform's operations, and the read-only server of a published site. */
export { createMcpHandler, type McpHandlerOptions } from './adapters/mcp/mcp-handler.js';
export { createTokenAuthorServer, type TokenAuthorServerOptions } from './adapters/mcp/token-runner.js';
export { MCP_PATH } from './adapters/mcp/mcp-exchange.js';
export type { AuthorMcpServer, ToolCallEntry } from './adapters/mcp/author-server.js';
export { createSiteMcpServer, type SiteMcpServerOptions } from './adapters/mcp/site-server.js';
