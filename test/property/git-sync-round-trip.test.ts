import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageTitle } from '../../src/core/content/import/page-body.js';
import { createHarness, type Harness } from '../http/harness.js';
import { memoryGitTransport } from '../git-sync/memory-git-transport.js';
import { runs } from './runs.js';

/**
 * Git Sync both ways through the platform: random page trees (Unicode titles, titles whose slugs collide,
 * pages nested deep) with bodies and files, made in a space by a merged change request, exported to a
 * repository, then imported into an empty space, give the same tree, titles, bodies and files. The
 * repository is in memory (test/git-sync/memory-git-transport.ts); test/git/ runs exports and imports
 * against a real Git server.
 */

const NUM_RUNS = runs(40);

const title = fc
  .oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }), fc.constantFrom('Intro', 'intro', 'INTRO!', 'Ünïcode', 'ガイド', 'a # b', '*star*', '1. one', 'README'))
  .map((raw) => pageTitle([raw], true));
const word = fc.constantFrom('docs', 'Straße', 'naïve', '日本語', 'emoji 🚀', '**bold**', '`code`', 'x');
const body = fc.array(fc.array(word, { minLength: 1, maxLength: 5 }).map((words) => words.join(' ')), { maxLength: 3 }).map((paragraphs) => paragraphs.join('\n\n'));
/** Pages in order, each under an earlier one or at the top level: any depth. */
const pages = fc.array(fc.record({ title, body, parent: fc.nat() }), { minLength: 1, maxLength: 12 });
const files = fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-z0-9]{1,8}$/), fc.uint8Array({ minLength: 1, maxLength: 32 })), { maxLength: 3, selector: ([name]) => name });

let h: Harness;
const transport = memoryGitTransport();
beforeAll(async () => {
  h = await createHarness('fetch', { gitTransport: transport });
});
afterAll(() => h?.close());

/** A page tree as titles, paths and bodies, and the files as names and sizes. */
async function snapshot(spaceId: string) {
  const content = `/v1/spaces/${spaceId}/content`;
  const tree = (await h.owner.get(`${content}/pages`)).body.pages as any[];
  const walk = async (nodes: any[]): Promise<unknown[]> =>
    Promise.all(nodes.map(async (node) => [node.title, node.path, (await h.owner.get(`${content}/page/${node.id}?format=markdown`)).body.markdown, await walk(node.pages ?? [])]));
  const listed = (await h.owner.get(`${content}/files`)).body.items as any[];
  return { pages: await walk(tree), files: listed.map((file) => [file.name, file.size]).sort() };
}

describe('Git Sync round trip', () => {
  it('exports random page trees and imports them into an empty space as they were', { timeout: 120_000 }, async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(pages, files, async (drawn, drawnFiles) => {
        n += 1;
        h.clock.advance(1000);
        const space = (await h.owner.post(`/v1/orgs/${h.organizationId}/spaces`, { title: 'Source' })).body;
        const cr = (await h.owner.post(`/v1/spaces/${space.id}/change-requests`, {})).body;
        const changes: unknown[] = drawn.map((page, i) => {
          const parent = (page.parent % (i + 1)) - 1;
          return { operation: 'insert_page', ref: `p${i}`, title: page.title, document: { markdown: page.body }, ...(parent >= 0 && { into: `p${parent}` }) };
        });
        if (drawnFiles.length > 0) changes.push({ operation: 'insert_files', files: drawnFiles.map(([name, bytes]) => ({ name: `${name}.bin`, contentType: 'application/octet-stream', base64: Buffer.from(bytes).toString('base64') })) });
        const batch = await h.owner.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { changes });
        expect(batch.status, batch.text).toBe(200);
        expect((await h.owner.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(200);
        const url = `https://git.test/round-trip-${n}.git`;
        expect((await h.owner.post(`/v1/spaces/${space.id}/git/export`, { url, ref: 'refs/heads/main', commitMessage: 'Export' })).status).toBe(204);
        await h.platform.settle();
        expect((await h.owner.get(`/v1/spaces/${space.id}/git/info`)).body.operation).toMatchObject({ state: 'success', direction: 'export' });
        const copy = (await h.owner.post(`/v1/orgs/${h.organizationId}/spaces`, { title: 'Copy' })).body;
        expect((await h.owner.post(`/v1/spaces/${copy.id}/git/import`, { url, ref: 'refs/heads/main' })).status).toBe(204);
        await h.platform.settle();
        const imported = (await h.owner.get(`/v1/spaces/${copy.id}/git/info`)).body.operation;
        expect(imported, JSON.stringify(imported)).toMatchObject({ state: 'success', direction: 'import' });
        expect(await snapshot(copy.id)).toEqual(await snapshot(space.id));
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
