/**
 * `docs-platform mcp`: the author server on stdio, as a local agent starts it, with the SDK's own stdio
 * client: in process over a data file, and relayed to a running server's /mcp.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { serve as serveHttp } from '../../src/adapters/node-http/index.js';
import { createPlatform } from '../../src/platform.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { cleanUp, ROOT, runCli, tempDir } from './spawn.js';

// Every test spawns Node processes; on a loaded machine each start can take seconds.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await cleanUp();
});

/** Starts `npx tsx src/cli.ts mcp ...args` as an MCP client does, connected; `stderr` collects what it logs. */
async function connectStdio(args: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: 'npx', args: ['tsx', 'src/cli.ts', 'mcp', ...args], cwd: ROOT, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'stdio-tests', version: '1.0.0' });
  clients.push(client);
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** A tool's text content, parsed. */
const answerOf = (result: Awaited<ReturnType<Client['callTool']>>) => JSON.parse((result.content as { text: string }[])[0]!.text);

describe('docs-platform mcp', () => {
  test('serves the tools in process over --data, logging each call on stderr', async () => {
    const data = join(tempDir(), 'data.json');
    const init = await runCli(['init', '--data', data, '--json']);
    expect(init.code, init.stderr).toBe(0);
    const { organizationId, userId, token } = JSON.parse(init.stdout);
    const { client, stderr } = await connectStdio(['--data', data, '--token', token]);

    expect((await client.listTools()).tools).toHaveLength(15);
    const organizations = await client.callTool({ name: 'list_organizations', arguments: {} });
    expect(answerOf(organizations).items.map((org: { id: string }) => org.id)).toEqual([organizationId]);
    const refused = await client.callTool({ name: 'open_change_request', arguments: { spaceId: 'no-such-space', subject: 'x' } });
    expect(refused.isError).toBe(true);
    expect(answerOf(refused)).toEqual({ error: { code: 404, message: expect.stringContaining('no-such-space') } });
    await vi.waitFor(() => expect(stderr()).toContain('mcp:open_change_request'));
    const lines = stderr().split('\n').filter(Boolean).map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.msg, line.method, line.route, line.status, line.userId])).toEqual([
      ['request', 'tools/call', 'mcp:list_organizations', 200, userId],
      ['request', 'tools/call', 'mcp:open_change_request', 404, userId],
    ]);
    expect(lines[0].requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('relays to a running server’s /mcp with --url', async () => {
    const platform = createPlatform({ store: createMemoryStore() });
    const { organizationId, token } = await platform.initialize();
    const server = await serveHttp({ platform, port: 0 });
    try {
      const { client } = await connectStdio(['--url', server.url, '--token', token]);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('edit_pages');
      const organizations = await client.callTool({ name: 'list_organizations', arguments: {} });
      expect(answerOf(organizations).items.map((org: { id: string }) => org.id)).toEqual([organizationId]);
      await client.close();

      // A token the server refuses: the client's first request fails with the server's 401.
      await expect(connectStdio(['--url', server.url, '--token', 'dp_unknown'])).rejects.toThrow(/401/);
    } finally {
      await server.close();
      await platform.close();
    }
  });

  test('refuses bad arguments with one line and exit 2', async () => {
    const data = join(tempDir(), 'data.json');
    expect(JSON.parse((await runCli(['init', '--data', data, '--json'])).stdout)).toHaveProperty('token');
    for (const [args, message] of [
      [['mcp', '--data', data], 'error: mcp: --token is required (or the DOCS_PLATFORM_TOKEN environment variable)'],
      [['mcp', '--data', data, '--token', 'dp_unknown'], 'error: mcp: the token is not valid (--token or DOCS_PLATFORM_TOKEN)'],
      [['mcp', '--url', 'http://127.0.0.1:1', '--data', data, '--token', 't'], 'error: mcp: give --url or --data, not both'],
      [['mcp', '--url', 'ftp://x', '--token', 't'], 'error: mcp: --url must be an http(s) URL such as http://127.0.0.1:8080, not "ftp://x"'],
      [['mcp', '--port', '1'], "error: mcp: Unknown option '--port'"],
    ] as const) {
      const run = await runCli([...args]);
      expect([run.code, run.stderr.trim(), run.stdout], args.join(' ')).toEqual([2, message, '']);
    }
    const help = await runCli(['mcp', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: docs-platform mcp --token T/);
  }, 180_000); // seven starts of the CLI, one after another
});
