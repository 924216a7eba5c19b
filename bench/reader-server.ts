/**
 * Child process of the reader case: a platform on the memory store with a published public site whose one
 * space holds `reader-server.ts <pages>` pages (default 1,000: 50 top-level pages of 19 subpages each, a
 * paragraph, a heading and a code block apiece), served by node:http on a free port. Reports the published
 * URL of a page in the middle and the API path of the same page's JSON, with a token that reads it, and the
 * site's path (the AI-tools case reads its .md pages, llms-full.txt and MCP server there). With `pool` after
 * the pages (`reader-server.ts 2000 pool`), jobs run on a pool of worker threads as `npm start` runs them
 * (src/cli/run-server.ts); without, in-process (the platform's default), as the reader case measured them.
 */
import { serve } from '../src/adapters/node-http/index.js';
import { createPlatform } from '../src/core/platform.js';
import { createMemoryStore } from '../src/store/memory.js';
import { createWorkerPool } from '../src/workers/pool.js';
import { runAsChild } from './child.js';

/** What the case loads. */
export interface ReaderServerInfo {
  url: string;
  htmlPath: string;
  jsonPath: string;
  /** The site's path, under which its llms.txt, llms-full.txt and MCP server answer. */
  sitePath: string;
  token: string;
  pages: number;
}

const MAX_CHANGES = 50;

runAsChild<ReaderServerInfo>(async () => {
  const pages = Number(process.argv[2] ?? 1000);
  // The bundled server's pool: one warm thread, the others started as jobs come (src/cli/run-server.ts).
  const workers = process.argv[3] === 'pool' ? createWorkerPool({ warmThreads: 1 }) : undefined;
  const platform = createPlatform({ store: createMemoryStore(), ...(workers && { workers }) });
  const init = await platform.initialize({ title: 'Bench', email: 'bench@bench.test', name: 'Bench' });
  const api = platform.as(init.userId);
  const organizationId = init.organizationId;
  const space = await api.createSpace({ organizationId, title: 'Handbook' });
  await api.updateSpace({ spaceId: space.id, visibility: 'public' } as never);
  const body = (n: number) => `Page ${n} explains one part of the product.\n\n## Details\n\nSee the example below.\n\n\`\`\`js\nconst answer = ${n};\n\`\`\`\n`;
  const changes: Record<string, unknown>[] = [];
  const perParent = 20;
  for (let n = 0; n < pages; n++) {
    const top = n % perParent === 0;
    changes.push({ operation: 'insert_page', ref: `p${n}`, title: `Page ${n}`, ...(top ? {} : { into: `p${n - (n % perParent)}` }), document: { markdown: body(n) } });
  }
  // Refs name pages of the same batch: a parent and its subpages go together.
  for (let at = 0; at < changes.length; at += MAX_CHANGES - (MAX_CHANGES % perParent)) {
    const batch = changes.slice(at, at + MAX_CHANGES - (MAX_CHANGES % perParent));
    const request = await api.createChangeRequest({ spaceId: space.id });
    await api.updateChangeRequestContent({ spaceId: space.id, changeRequestId: request.id, changes: batch } as never);
    await api.mergeChangeRequest({ spaceId: space.id, changeRequestId: request.id } as never);
  }
  const site = await api.createSite({ organizationId, title: 'Handbook', spaces: [space.id] } as never);
  const running = await serve({ platform, port: 0, host: '127.0.0.1' });
  await api.publishSite({ organizationId, siteId: site.id });
  const content = await api.getSpaceContent({ spaceId: space.id } as never);
  const middle = (content.pages[Math.floor(content.pages.length / 2)] as { pages: { id: string; path: string }[] }).pages[5];
  const published = (await api.getSite({ organizationId, siteId: site.id })).urls.published!;
  const sitePath = new URL(published).pathname;
  return {
    info: { url: running.url, sitePath, htmlPath: `${sitePath}/${middle.path}`, jsonPath: `/v1/spaces/${space.id}/content/page/${middle.id}`, token: init.token, pages },
    async stop() {
      await running.close();
      await platform.close();
    },
  };
});
