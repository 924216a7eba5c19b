/**
 * `npm run bench:content`: the content model in-process, on the memory store, at 100 and at 10,000 pages
 * (BENCH_CONTENT_SIZES, comma-separated). For each size: read one page (by id, Markdown), read one page by
 * path, and apply an edit batch that changes one page, each timed N times (BENCH_CONTENT_ROUNDS, default
 * 200), p50 and p99 in milliseconds. Targets (issue 6): a page read's p50 under 5 ms; an edit batch's p50 at
 * 10,000 pages within 2x of its p50 at 100 pages (its cost must not follow the untouched pages). Also
 * reported: the map nodes and page bodies one edit batch writes. Results: printed, and written to
 * bench/results/content.json. Targets that are missed are reported, not failed.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { manualClock } from '../src/core/clock.js';
import { createPlatform, type Api, type Platform } from '../src/core/platform.js';
import { INDEXES, TABLES } from '../src/core/records.js';
import { createMemoryStore } from '../src/store/memory.js';

const sizes = (process.env.BENCH_CONTENT_SIZES ?? '100,10000').split(',').map(Number);
const rounds = Number(process.env.BENCH_CONTENT_ROUNDS ?? 200);

interface Fixture {
  platform: Platform;
  api: Api;
  spaceId: string;
  changeRequestId: string;
  pageIds: string[];
}

/** A space whose change request holds `pages` pages: 100 top-level sections of pages/100 pages each. */
async function fixture(pages: number): Promise<Fixture> {
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const platform = createPlatform({ store: createMemoryStore(), clock, signingKey: 'bench' });
  const init = await platform.initialize({ title: 'Bench', email: 'bench@bench.test', name: 'Bench' });
  const api = platform.as(init.userId);
  const space = await api.createSpace({ organizationId: init.organizationId, title: 'Big' });
  const cr = await api.createChangeRequest({ spaceId: space.id });
  const sections = Math.min(100, pages);
  const apply = async (changes: unknown[]) => {
    for (let i = 0; i < changes.length; i += 50) {
      await api.updateChangeRequestContent({ spaceId: space.id, changeRequestId: cr.id, changes: changes.slice(i, i + 50) as never });
    }
  };
  await apply(Array.from({ length: sections }, (_, s) => ({ operation: 'insert_page', title: `Section ${s}`, document: { markdown: `Section ${s}.` } })));
  const sectionIds = (await api.listChangeRequestPages({ spaceId: space.id, changeRequestId: cr.id })).pages.map((page) => page.id);
  await apply(
    Array.from({ length: pages - sections }, (_, i) => ({
      operation: 'insert_page',
      into: sectionIds[i % sections],
      title: `Page ${i}`,
      document: { markdown: `# Page ${i}\n\nSome text about page ${i}, with a [link](https://example.com).\n` },
    })),
  );
  const tree = await api.listChangeRequestPages({ spaceId: space.id, changeRequestId: cr.id, computed: false, metadata: false });
  const pageIds = tree.pages.flatMap((page: any) => [page.id, ...page.pages.map((child: any) => child.id)]);
  if (pageIds.length !== pages) throw new Error(`fixture: ${pageIds.length} pages, wanted ${pages}`);
  return { platform, api, spaceId: space.id, changeRequestId: cr.id, pageIds };
}

/** Times `run` `rounds` times; returns p50 and p99 in ms. */
async function time(run: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 10; i++) await run(i);
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await run(i);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => Number(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))].toFixed(3));
  return { p50: at(0.5), p99: at(0.99) };
}

async function measure(pages: number) {
  const started = performance.now();
  const f = await fixture(pages);
  const seeded = ((performance.now() - started) / 1000).toFixed(1);
  const target = { spaceId: f.spaceId, changeRequestId: f.changeRequestId };
  const pick = (i: number) => f.pageIds[(i * 7919) % f.pageIds.length];
  const readById = await time((i) => f.api.getChangeRequestPage({ ...target, pageId: pick(i) }));
  const paths = await Promise.all(Array.from({ length: 20 }, async (_, i) => ((await f.api.getChangeRequestPage({ ...target, pageId: pick(i) })) as { path: string }).path));
  const readByPath = await time((i) => f.api.getChangeRequestPageByPath({ ...target, pagePath: paths[i % paths.length] }));
  const count = (table: string, index: (typeof INDEXES)[keyof typeof INDEXES]) =>
    f.platform.store.read(async (tx) => (await tx.list(table, { index, value: f.spaceId, limit: 0 })).count);
  const nodesBefore = await count(TABLES.contentNodes, INDEXES.contentNodesBySpace);
  const edit = await time((i) =>
    f.api.updateChangeRequestContent({
      ...target,
      changes: [{ operation: 'update_page', page: pick(i), title: `Edited ${i}`, document: { markdown: `Edited body ${i}.` } }],
    }),
  );
  const nodesPerEdit = ((await count(TABLES.contentNodes, INDEXES.contentNodesBySpace)) - nodesBefore) / (rounds + 10);
  await f.platform.close();
  return { pages, seededSeconds: Number(seeded), readById, readByPath, edit, nodesPerEdit: Number(nodesPerEdit.toFixed(2)) };
}

async function main() {
  const results = [];
  for (const pages of sizes) {
    const result = await measure(pages);
    results.push(result);
    console.log(
      `${String(pages).padStart(6)} pages: read by id p50 ${result.readById.p50} ms (p99 ${result.readById.p99}), by path p50 ${result.readByPath.p50} ms, ` +
        `edit batch p50 ${result.edit.p50} ms (p99 ${result.edit.p99}), ${result.nodesPerEdit} map nodes per edit (seeded in ${result.seededSeconds} s)`,
    );
  }
  const smallest = results[0];
  const largest = results[results.length - 1];
  const checks = [
    ...results.map((r) => ({ target: `page read p50 < 5 ms at ${r.pages} pages`, ok: r.readById.p50 < 5 && r.readByPath.p50 < 5 })),
    { target: `edit batch p50 at ${largest.pages} within 2x of ${smallest.pages}`, ok: largest.edit.p50 <= 2 * smallest.edit.p50, ratio: Number((largest.edit.p50 / smallest.edit.p50).toFixed(2)) },
  ];
  for (const check of checks) console.log(`${check.ok ? 'met   ' : 'MISSED'} ${check.target}${'ratio' in check ? ` (ratio ${check.ratio})` : ''}`);
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'content.json');
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify({ rounds, results, checks }, null, 2)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
