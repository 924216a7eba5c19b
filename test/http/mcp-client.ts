import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';
import type { Harness } from './harness.js';

/** What a tool answered: its JSON (the result, or the API's error shape) and whether it is a tool error. */
export interface ToolAnswer {
  isError: boolean;
  body: any;
}

/** An MCP client of the author server at /mcp, through the harness's transport (Fetch handler or socket). */
export interface McpTestClient {
  readonly client: Client;
  /** Calls a tool; its text content parsed as JSON, checked to equal its structured content. */
  call(name: string, args?: Record<string, unknown>): Promise<ToolAnswer>;
  /** Calls a tool that must succeed, and answers its result. */
  ok(name: string, args?: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

/**
 * The SDK's client over the harness: its requests go through the Fetch handler in-process, or over a socket;
 * to the author server, or to the server at `path` (a published site's `…/~mcp`, with its query).
 */
export function mcpTransport(h: Harness, token: string | null, path = '/mcp'): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(`http://docs.test${path}`), {
    fetch: (url, init) => h.send(`${new URL(url).pathname}${new URL(url).search}`, init),
    requestInit: token === null ? {} : { headers: { authorization: `Bearer ${token}` } },
  });
}

/** Connects the SDK's client to the author server with a token (or to the server at `path`, with a bearer token or none). */
export async function connectMcp(h: Harness, token: string | null, path?: string): Promise<McpTestClient> {
  const client = new Client({ name: 'docs-platform-tests', version: '1.0.0' });
  await client.connect(mcpTransport(h, token, path));
  async function call(name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
    const result = await client.callTool({ name, arguments: args });
    const content = result.content as { type: string; text: string }[];
    expect(content.map((part) => part.type)).toEqual(['text']);
    const body = JSON.parse(content[0]!.text);
    expect(result.structuredContent).toEqual(body);
    return { isError: result.isError === true, body };
  }
  return {
    client,
    call,
    async ok(name, args) {
      const answer = await call(name, args);
      expect(answer.isError, `${name}: ${JSON.stringify(answer.body)}`).toBe(false);
      return answer.body;
    },
    close: () => client.close(),
  };
}

/** Expects a tool error in the API's error shape, with this status and message. */
export function expectToolError(answer: ToolAnswer, status: number, message: string | RegExp): void {
  expect(answer.isError, JSON.stringify(answer.body)).toBe(true);
  expect(answer.body).toEqual({ error: { code: status, message: expect.stringMatching(message instanceof RegExp ? message : `^${escape(message)}$`) } });
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
