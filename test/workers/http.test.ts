import { strToU8, zipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/adapters/fetch/index.js';
import { markdownToDocument } from '../../src/core/content/document.js';
import { normalizeMarkdown } from '../../src/core/content/markdown.js';
import { INLINE_MARKDOWN_CHARS } from '../../src/core/content/markdown-work.js';
import { createWorkerPool, type WorkerPoolOptions } from '../../src/workers/pool.js';
import { authoring, md } from '../http/authoring.js';
import { createHarness, TRANSPORTS, type Harness } from '../http/harness.js';
import { startImportSources, type ImportSourceServer } from '../http/import-sources.js';
import { inspectPdf } from '../http/pdf-inspect.js';
import { readerHelpers } from '../http/reader/reader-helpers.js';

/**
 * The jobs in worker threads, end to end through both transports: the platform gets a real pool (the HTTP
 * suites run jobs in-process, the default), and every kind of job runs in it: an OpenAPI document parsed and
 * turned into a computed page, a PDF of it, a zip import, the first search of the imported pages, and a page
 * body too long to parse on the event loop (content/markdown-work.ts), written, refused and converted. Then
 * the limits of one job (a pool whose jobs may run one millisecond) come back as a 422 that names the limit,
 * and as PARSE_ERROR for OpenAPI processing, which happens after the response.
 */

let web: ImportSourceServer;
beforeAll(async () => {
  web = await startImportSources();
});
afterAll(async () => {
  await web.close();
});

/** A zip of two pages, one linking to the other (the folder wrapping both is unwrapped: two top-level pages). */
const ZIP = zipSync({
  'guide/README.md': strToU8('# Guide\n\nStart with [the setup](setup.md).\n'),
  'guide/setup.md': strToU8('# Setup\n\nInstall the zeppelin toolkit.\n'),
});

const PETS = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1' },
  paths: { '/pets': { get: { summary: 'List the pets', responses: { '200': { description: 'OK' } } } } },
});

describe.each(TRANSPORTS)('jobs in worker threads, end to end (%s)', (transport) => {
  let current: Harness | undefined;
  const h = () => current!;
  const a = authoring(h);
  const start = async (options: WorkerPoolOptions = {}) => {
    // The import sources are served on 127.0.0.1, which outbound fetches reach only when allowed.
    current = await createHarness(transport, { workers: createWorkerPool({ threads: 1, ...options }), fetchAllow: ['127.0.0.1'] });
  };
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });

  /** Asks for a PDF of a change request; the raw response. */
  const pdf = (spaceId: string, changeRequestId: string) => h().owner.get(`${a.changeRequestPath(spaceId, changeRequestId)}/pdf`);

  it('processes an OpenAPI document, prints its computed page, imports a zip and searches it, all in threads', async () => {
    await start();
    const org = `/v1/orgs/${h().organizationId}`;
    expect((await h().owner.post(`${org}/openapi`, { slug: 'pets', source: { text: PETS } })).status).toBe(201);
    await h().platform.settle();
    const spec = (await h().owner.get(`${org}/openapi/pets`)).body;
    expect(spec).toMatchObject({ processingState: 'complete', lastVersion: expect.any(String) });
    expect(spec.lastProcessErrorCode).toBeUndefined();

    const space = await a.space({ title: 'Handbook' });
    const cr = await a.changeRequest(space.id, { subject: 'Print it' });
    const computed = { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } }, props: {} };
    await a.batch(space.id, cr.id, [
      { operation: 'insert_page', type: 'computed', title: 'API', computed },
      { operation: 'insert_page', title: 'Notes', document: md('See [the API](https://example.com/api).') },
    ]);
    const exported = await pdf(space.id, cr.id);
    expect(exported.status, exported.text).toBe(200);
    const download = await createFetchHandler(h().platform)(new Request(exported.body.url));
    expect(inspectPdf(new Uint8Array(await download.arrayBuffer())).text).toBe('API\nGET /pets\nList the pets\nResponses\n200: OK\nNotes\nSee the API.');

    const imported = await h().owner.post(`/v1/spaces/${space.id}/content/import`, { url: web.serve('/guide.zip', { body: ZIP }), source: 'zip' });
    expect(imported.status, imported.text).toBe(201);
    expect(imported.body).toMatchObject({ importedResources: 2, totalResources: 2 });
    const pages = (await h().owner.get(`/v1/spaces/${space.id}/content`)).body.pages as { id: string; title: string }[];
    const [guide, setup] = ['Guide', 'Setup'].map((title) => pages.find((page) => page.title === title)!);
    const setupId = setup.id;
    // The link was made with a local id in the thread, then given the page's own id here.
    const body = (await h().owner.get(`/v1/spaces/${space.id}/content/page/${guide.id}?format=markdown`)).body;
    expect(body.markdown).toBe(`Start with [the setup](/pages/${setupId}).\n`);

    const found = await h().owner.get(`/v1/spaces/${space.id}/search?query=zeppelin`);
    expect(found.status, found.text).toBe(200);
    expect(found.body.items.map((hit: { id: string }) => hit.id)).toEqual([setupId]);
    // A bound, not a target: four kinds of job, each first in a cold thread (a PDF's fonts, a zip), on a busy machine.
  }, 60_000);

  it('reads, refuses and converts a long Markdown body in a thread as on the calling thread', async () => {
    await start();
    const space = await a.space({ title: 'Handbook' });
    const cr = await a.changeRequest(space.id);
    const long = Array.from({ length: 2 * (INLINE_MARKDOWN_CHARS / 50) }, (_, i) => `| *x${i}* | [y](/pages/intro) | z |`).join('\n');
    const body = `Intro [here](/pages/intro).\n\n| a | b | c |\n|---|---|---|\n${long}\n`;
    const made = await a.batchWithChanges(space.id, cr.id, [
      { operation: 'insert_page', title: 'Intro', slug: 'intro', document: md('Hello.') },
      { operation: 'insert_page', title: 'Table', document: md(body) },
    ]);
    const [intro, table] = made.changes.map((change) => change.page.id);
    const expected = normalizeMarkdown(body.replaceAll('/pages/intro', `/pages/${intro}`));
    expect((await a.page(space.id, cr.id, table, '?format=markdown')).markdown).toBe(expected);
    expect((await a.page(space.id, cr.id, table, '?format=document')).document).toEqual(markdownToDocument(expected));
    const refused = await h().owner.post(a.contentOf(space.id, cr.id), { changes: [{ operation: 'update_page', page: table, document: md(`${body}\n${'> '.repeat(40)}x`) }] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^changes\[0\] \(update_page\): document\.markdown: line \d+ nests 40 levels deep/);
    expect((await a.page(space.id, cr.id, table, '?format=markdown')).markdown).toBe(expected);
  }, 60_000);

  it('renders a long page of a published site in a thread, the reader\'s own job, as a short one on the calling thread', async () => {
    await start();
    const r = readerHelpers(h);
    const rows = (count: number) => Array.from({ length: count }, (_, i) => `| *x${i}* | [y](/pages/intro) | z |`).join('\n');
    const table = (count: number) => `| a | b | c |\n|---|---|---|\n${rows(count)}\n`;
    // Rows of ~30 characters: twice what is rendered on the calling thread.
    const LONG_ROWS = Math.ceil((2 * INLINE_MARKDOWN_CHARS) / 30);
    const site = await r.publishedSite([
      { title: 'Intro', slug: 'intro', document: md('Hello.') },
      { title: 'Short', slug: 'short', document: md(table(4)) },
      { title: 'Long', slug: 'long', document: md(table(LONG_ROWS)) },
    ]);
    const cells = async (slug: string) => (await r.page(`${site.url}/${slug}`)).match(/<tr>[\s\S]*?<\/tr>/g)!;
    const [short, long] = [await cells('short'), await cells('long')];
    // The same rows (the long page's first ones are the short page's), the links resolved to the page.
    expect(long.length).toBe(1 + LONG_ROWS);
    expect(long.slice(0, short.length)).toEqual(short);
    expect(long.at(-1)).toMatch(/<a href="[^"]*\/intro">y<\/a>/);
  }, 60_000);

  it('answers a job over its time with a 422 naming the limit, and records PARSE_ERROR for a document', async () => {
    await start({ jobTimeoutMs: 1, jobWallTimeoutMs: 600_000 });
    const space = await a.space({ title: 'Handbook' });
    const cr = await a.changeRequest(space.id);
    await a.batch(space.id, cr.id, [{ operation: 'insert_page', title: 'Intro', document: md('Hello.') }]);
    const exported = await pdf(space.id, cr.id);
    expect(exported.status).toBe(422);
    expect(exported.body.error.message).toBe('reading the pages of a PDF went over 0.001 s of work, the most one job may use');

    const imported = await h().owner.post(`/v1/spaces/${space.id}/content/import`, { url: web.serve('/slow-guide.zip', { body: ZIP }), source: 'zip' });
    expect(imported.status).toBe(422);
    expect(imported.body.error.message).toBe('reading the content to import went over 0.001 s of work, the most one job may use');

    const org = `/v1/orgs/${h().organizationId}`;
    expect((await h().owner.post(`${org}/openapi`, { slug: 'pets', source: { text: PETS } })).status).toBe(201);
    await h().platform.settle();
    expect((await h().owner.get(`${org}/openapi/pets`)).body).toMatchObject({ processingState: 'complete', lastProcessErrorCode: 'PARSE_ERROR' });
  });
});
