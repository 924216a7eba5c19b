import { describe, expect, it } from 'vitest';
import { createMemoryBlobStore } from '../../src/core/blobs.js';
import { TABLES } from '../../src/core/records.js';
import type { TablesData } from '../../src/store/engine.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { inspectableStore } from '../store/inspectable-store.js';
import { authoring } from './authoring.js';
import { createHarness, TRANSPORTS, type Harness } from './harness.js';
import { siteHelpers } from './site-helpers.js';

/**
 * Text stored before input was checked for well-formed Unicode may hold lone surrogates. Presenting it must
 * never fail: the state is made through the API, copied with lone surrogates put into the stored fields
 * that go into URLs (a site's basename, section and site space paths, a file's name), and read back from a
 * new platform over that copy.
 */

/** Sets fields of one record in a copy of the tables. */
function alter(tables: TablesData, table: string, id: string, fields: Record<string, unknown>): void {
  tables[table][id] = { ...tables[table][id], ...fields };
}

/** A site with a section, a site space and published links, and a change request with a file, built through the API. */
async function buildState(h: Harness) {
  const a = authoring(() => h);
  const s = siteHelpers(() => h);
  const space = await a.space({ title: 'Docs' });
  const cr = await a.changeRequest(space.id);
  const file = { name: 'notes.txt', base64: btoa('hello'), contentType: 'text/plain' };
  const [inserted] = (await a.batchWithChanges(space.id, cr.id, [{ operation: 'insert_files', files: [file] }])).insertedFiles;
  const site = await s.createSite({ title: 'Site', spaces: [space.id] });
  const [other] = await s.spaces('Guides');
  const section = await s.addSection(site.id, other);
  s.ok(await h.owner.post(`${s.site(site.id)}/publish`));
  const siteSpaces = s.ok(await h.owner.get(`${s.site(site.id)}/site-spaces`)).items as { id: string }[];
  return { space, cr, fileId: inserted.id as string, site, section, siteSpaces, sitePath: s.site(site.id) };
}

describe.each(TRANSPORTS)('presenting stored text that is not well-formed (%s)', (transport) => {
  it('answers 200 for sites, their parts and files, with U+FFFD in URLs where a lone surrogate was', async () => {
    const store = inspectableStore();
    const blobs = createMemoryBlobStore();
    const before = await createHarness(transport, { store, blobs });
    const state = await buildState(before);
    await before.close();

    const tables = structuredClone(store.tables());
    alter(tables, TABLES.sites, state.site.id, { basename: 'base\ud800', title: 'Site \udc00' });
    alter(tables, TABLES.siteSections, state.section.id, { path: 'section\ud800', title: 'Sec\udfff' });
    for (const { id } of state.siteSpaces) alter(tables, TABLES.siteSpaces, id, { path: `space\udbff${id}` });
    const [fileNode] = Object.values(tables[TABLES.contentNodes]).filter((node) => JSON.stringify(node).includes('notes.txt'));
    alter(tables, TABLES.contentNodes, fileNode.id as string, { values: (fileNode.values as object[]).map((value) => ({ ...value, name: 'no\ud800tes.txt' })) });

    // The same owner (same e-mail address), with a token of its own, in the copied store.
    const h = await createHarness(transport, { store: createMemoryStore(tables), blobs });
    try {
      const owner = h.owner;
      const site = await owner.get(state.sitePath);
      expect(site.status, site.text).toBe(200);
      expect(site.body.basename).toBe('base\ud800');
      expect(site.body.urls.published).toContain('/base%EF%BF%BD');
      // The report of issue 14: setting a proxy presents the site, whose default URL holds the basename.
      const proxied = await owner.patch(state.sitePath, { proxy: 'docs.localhost/x' });
      expect(proxied.status, proxied.text).toBe(200);
      expect(proxied.body.proxy.target).toContain('/base%EF%BF%BD');
      for (const path of ['/sections', '/site-spaces', '/published', '']) {
        const response = await owner.get(`${state.sitePath}${path}`);
        expect(response.status, `${path}: ${response.text}`).toBe(200);
      }
      expect((await owner.get(`/v1/orgs/${before.organizationId}/sites`)).status).toBe(200);
      const sections = await owner.get(`${state.sitePath}/sections`);
      // The default section sits at the site's URL; the other one adds its path.
      expect(sections.body.items.map((item: any) => item.urls.published)).toContainEqual(expect.stringContaining('/section%EF%BF%BD'));
      const file = await owner.get(`/v1/spaces/${state.space.id}/change-requests/${state.cr.id}/content/files/${state.fileId}`);
      expect(file.status, file.text).toBe(200);
      expect(file.body.downloadURL).toMatch(/\/no%EF%BF%BDtes\.txt$/);
      const download = await h.request('GET', new URL(file.body.downloadURL).pathname);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''no%EF%BF%BDtes.txt");
      expect((await owner.get(`/v1/spaces/${state.space.id}/change-requests/${state.cr.id}/content/files`)).status).toBe(200);
    } finally {
      await h.close();
    }
  });
});
