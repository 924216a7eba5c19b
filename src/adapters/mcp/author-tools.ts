import { RATE_COSTS } from '../../core/rate-limit.js';
import type { AuthorTool, Operations } from './author-tool.js';
import { changeRequestTools } from './change-request-tools.js';
import { readTools } from './read-tools.js';
import { siteTools } from './site-tools.js';

/** The tools of the author server, by name. */
export type AuthorTools = ReadonlyMap<string, AuthorTool>;

const made = new WeakMap<Operations, AuthorTools>();

/** The author server's tools over a platform's operations, made once per operation map. */
export function authorTools(operations: Operations): AuthorTools {
  let tools = made.get(operations);
  if (!tools) {
    tools = new Map([...readTools(operations), ...changeRequestTools(operations), ...siteTools(operations)].map((tool) => [tool.name, tool]));
    made.set(operations, tools);
  }
  return tools;
}

/**
 * What a call of a tool costs in a rate-limit budget: what the operations it runs cost over the HTTP API,
 * a write's for a tool that writes. Anything else (an unknown tool, listing the tools) costs a read.
 */
export function toolCost(tools: AuthorTools, name: unknown): number {
  const tool = typeof name === 'string' ? tools.get(name) : undefined;
  return tool?.access === 'write' ? RATE_COSTS.write : RATE_COSTS.read;
}
