/**
 * Child process: seeds the data file of the heavy-work case (`heavy-seed.ts <path> <pdfPages> <searchPages>`)
 * through the platform's own operations on the JSON-file store, as users would make the content, and reports
 * what it made. Three spaces: one whose open change request holds `pdfPages` pages (the PDF export), one of
 * `searchPages` merged pages (the first search), and an empty one (the zip import).
 */
import type { Api } from '../src/core/platform.js';
import { createPlatform } from '../src/core/platform.js';
import { createJsonFileStore } from '../src/store/json-file.js';
import { runAsChild } from './child.js';
import { pageMarkdown } from './heavy-content.js';

/** What the seed made. */
export interface HeavySeed {
  organizationId: string;
  userId: string;
  token: string;
  pdf: { spaceId: string; changeRequestId: string };
  searchSpaceId: string;
  importSpaceId: string;
  seedMs: number;
}

/** The most changes one authoring batch takes. */
const BATCH = 50;

/** A change request of a new space holding `pages` pages (from page number `first` on), as a writer would add them. */
async function spaceWithRequest(api: Api, organizationId: string, title: string, pages: number, first: number) {
  const space = await api.createSpace({ organizationId, title });
  const request = await api.createChangeRequest({ spaceId: space.id, subject: `${title} pages` });
  for (let from = 0; from < pages; from += BATCH) {
    const changes = Array.from({ length: Math.min(BATCH, pages - from) }, (_, k) => {
      const i = first + from + k;
      return { operation: 'insert_page' as const, title: `Page ${i}`, document: { markdown: pageMarkdown(i) } };
    });
    await api.updateChangeRequestContent({ spaceId: space.id, changeRequestId: request.id, changes });
  }
  return { spaceId: space.id, changeRequestId: request.id };
}

runAsChild<HeavySeed>(async () => {
  const started = performance.now();
  const [path, pdfPages, searchPages] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
  const platform = createPlatform({ store: await createJsonFileStore({ path }) });
  try {
    const { organizationId, userId, token } = await platform.initialize({ title: 'Heavy', email: 'heavy@bench.test', name: 'Heavy' });
    const api = platform.as(userId);
    const pdf = await spaceWithRequest(api, organizationId, 'Print', pdfPages, 0);
    const search = await spaceWithRequest(api, organizationId, 'Search', searchPages, pdfPages);
    await api.mergeChangeRequest({ spaceId: search.spaceId, changeRequestId: search.changeRequestId });
    const importSpace = await api.createSpace({ organizationId, title: 'Import' });
    const info = { organizationId, userId, token, pdf, searchSpaceId: search.spaceId, importSpaceId: importSpace.id, seedMs: Math.round(performance.now() - started) };
    return { info };
  } finally {
    await platform.close();
  }
});
