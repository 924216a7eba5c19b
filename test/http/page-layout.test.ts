import { expect, it } from 'vitest';
import { DEFAULT_LAYOUT } from '../../src/core/content/page-layout.js';
import { authoring, md } from './authoring.js';
import { httpSuite } from './harness.js';

/**
 * A page's layout (Part 2's Page `layout`, the public API's RevisionPageLayoutOptions): answered in full,
 * set by insert_page and update_page; and its cover image (Part 2's Page `cover`).
 */

httpSuite('page layout', (h) => {
  const a = authoring(h);

  async function fixture() {
    const space = await a.space();
    const cr = await a.changeRequest(space.id, { subject: 'Layout' });
    return { space, cr };
  }

  /** A page read by id and by path, in a change request or (no id) the space: both must answer the same layout. */
  async function layoutOf(spaceId: string, changeRequestId: string | undefined, pageId: string, path: string) {
    const byId = await a.page(spaceId, changeRequestId, pageId);
    const byPath = await h().owner.get(`${a.contentOf(spaceId, changeRequestId)}/path/${encodeURIComponent(path)}`);
    expect(byPath.status, byPath.text).toBe(200);
    expect(byPath.body.layout).toEqual(byId.layout);
    return byId.layout;
  }

  it('answers every option, the defaults for a page that sets none', async () => {
    const { space, cr } = await fixture();
    await a.batch(space.id, cr.id, [{ operation: 'insert_page', title: 'Plain', document: md('Text.') }]);
    const [page] = await a.pages(space.id, cr.id);
    expect(page.layout).toEqual({
      width: 'default',
      cover: true,
      coverSize: 'hero',
      coverMask: 'none',
      title: true,
      description: true,
      tableOfContents: true,
      outline: true,
      pagination: true,
      metadata: true,
      tags: true,
      actions: true,
      anchors: true,
    });
    expect(await layoutOf(space.id, cr.id, page.id, 'plain')).toEqual(DEFAULT_LAYOUT);
  });

  it('sets options on insert, changes some on update and keeps the others, in change requests and, once merged, the space', async () => {
    const { space, cr } = await fixture();
    await a.batch(space.id, cr.id, [
      { operation: 'insert_page', ref: 'wide', title: 'Wide', layout: { width: 'wide', coverSize: 'full', outline: false }, document: md('Body.') },
      { operation: 'insert_page', title: 'Child', into: 'wide', layout: { coverMask: 'radial' }, document: {} },
    ]);
    const tree = await a.pages(space.id, cr.id);
    const wide = a.byTitle(tree, 'Wide');
    expect(wide.layout).toEqual({ ...DEFAULT_LAYOUT, width: 'wide', coverSize: 'full', outline: false });
    expect(a.byTitle(tree, 'Child').layout).toEqual({ ...DEFAULT_LAYOUT, coverMask: 'radial' });
    const before = wide.updatedAt;

    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: wide.id, layout: { coverSize: 'background', pagination: false, outline: true } }]);
    const updated = await a.page(space.id, cr.id, wide.id);
    expect(updated.layout).toEqual({ ...DEFAULT_LAYOUT, width: 'wide', coverSize: 'background', pagination: false });
    expect(updated.updatedAt > before).toBe(true);
    expect(await layoutOf(space.id, cr.id, wide.id, 'wide')).toEqual(updated.layout);

    // Setting what is already set changes nothing, not even updatedAt.
    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: wide.id, layout: { width: 'wide' } }]);
    expect((await a.page(space.id, cr.id, wide.id)).updatedAt).toBe(updated.updatedAt);

    h().clock.advance(1000);
    const merged = await h().owner.post(`${a.changeRequestPath(space.id, cr.id)}/merge`);
    expect(merged.status, merged.text).toBe(200);
    expect(await layoutOf(space.id, undefined, wide.id, 'wide')).toEqual(updated.layout);
    expect(await layoutOf(space.id, undefined, a.byTitle(tree, 'Child').id, 'wide/child')).toEqual({ ...DEFAULT_LAYOUT, coverMask: 'radial' });
  });

  it('merges a layout the change request set over the space, and one the space changed since the base', async () => {
    const space = await a.space();
    const first = await a.changeRequest(space.id);
    await a.batch(space.id, first.id, [{ operation: 'insert_page', title: 'Page', document: md('Text.') }]);
    h().clock.advance(1000);
    expect((await h().owner.post(`${a.changeRequestPath(space.id, first.id)}/merge`)).status).toBe(200);
    const [page] = await a.pages(space.id);
    // Two requests from the same base: one changes the layout, the other the title only.
    const layoutRequest = await a.changeRequest(space.id);
    const titleRequest = await a.changeRequest(space.id);
    await a.batch(space.id, layoutRequest.id, [{ operation: 'update_page', page: page.id, layout: { tableOfContents: false } }]);
    await a.batch(space.id, titleRequest.id, [{ operation: 'update_page', page: page.id, title: 'Renamed' }]);
    h().clock.advance(1000);
    expect((await h().owner.post(`${a.changeRequestPath(space.id, layoutRequest.id)}/merge`)).status).toBe(200);
    h().clock.advance(1000);
    expect((await h().owner.post(`${a.changeRequestPath(space.id, titleRequest.id)}/merge`)).status).toBe(200);
    const merged = await a.page(space.id, undefined, page.id);
    expect(merged).toMatchObject({ title: 'Renamed', layout: { ...DEFAULT_LAYOUT, tableOfContents: false } });
  });

  it('takes a layout on computed pages, which show it when expanded', async () => {
    const { space, cr } = await fixture();
    h().clock.advance(1000);
    const spec = await h().owner.post(`/v1/orgs/${h().organizationId}/openapi`, { slug: 'pets', source: { text: '{"openapi":"3.1.0","info":{"title":"Pets","version":"1"},"paths":{}}' } });
    expect(spec.status, spec.text).toBe(201);
    await h().platform.settle();
    await a.batch(space.id, cr.id, [
      { operation: 'insert_page', type: 'computed', title: 'API', layout: { width: 'wide' }, computed: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } }, props: {} } },
    ]);
    const [page] = await a.pages(space.id, cr.id);
    expect(page).toMatchObject({ type: 'document', layout: { ...DEFAULT_LAYOUT, width: 'wide' } });
  });

  it('refuses a wrong option, an unknown one, and a layout on a group or link page, naming the change; nothing is stored', async () => {
    const { space, cr } = await fixture();
    await a.batch(space.id, cr.id, [
      { operation: 'insert_page', title: 'Doc', document: {} },
      { operation: 'insert_page', type: 'link', title: 'Out', target: { kind: 'url', url: 'https://example.com' } },
    ]);
    const tree = await a.pages(space.id, cr.id);
    const stored = await a.stored(space.id);
    const cases: [unknown[], number, RegExp][] = [
      [[{ operation: 'update_page', page: a.byTitle(tree, 'Doc').id, layout: { coverSize: 'huge' } }], 400, /changes\.0\.layout\.coverSize: must be \("hero" \| "full" \| "background"\), not "huge"/],
      [[{ operation: 'update_page', page: a.byTitle(tree, 'Doc').id, layout: { width: 'narrow' } }], 400, /changes\.0\.layout\.width: must be \("default" \| "wide"\)/],
      [[{ operation: 'update_page', page: a.byTitle(tree, 'Doc').id, layout: { cover: 'yes' } }], 400, /layout\.cover/],
      [[{ operation: 'update_page', page: a.byTitle(tree, 'Doc').id, layout: { sidebar: false } }], 400, /layout/],
      [[{ operation: 'update_page', page: a.byTitle(tree, 'Doc').id, layout: 'docs' }], 400, /layout/],
      [
        [
          { operation: 'update_page', page: a.byTitle(tree, 'Doc').id, layout: { width: 'wide' } },
          { operation: 'update_page', page: a.byTitle(tree, 'Out').id, layout: { width: 'wide' } },
        ],
        400,
        /^changes\[1\] \(update_page\): .*link page: it has no layout/,
      ],
      [[{ operation: 'insert_page', type: 'group', title: 'G', layout: { title: false } }], 400, /^changes\[0\] \(insert_page\): layout: a group page has no layout/],
    ];
    for (const [changes, status, message] of cases) {
      const response = await a.send(space.id, cr.id, changes);
      expect(response.status, response.text).toBe(status);
      expect(response.body.error.message, response.body.error.message).toMatch(message);
    }
    expect(await a.stored(space.id)).toEqual(stored);
  });

  it('sets a cover image (a file of the content, one the batch inserts, or a URL), changes and removes it', async () => {
    const { space, cr } = await fixture();
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    // The page comes before the file in the batch: a file's ref names it wherever it is inserted.
    const answer = await a.batchWithChanges(space.id, cr.id, [
      { operation: 'insert_page', title: 'Covered', cover: { ref: { kind: 'file', file: 'banner' }, yPos: 40 }, layout: { coverSize: 'full' }, document: md('Body.') },
      { operation: 'insert_files', files: [{ ref: 'banner', name: 'banner.png', contentType: 'image/png', base64: png }] },
      { operation: 'insert_page', title: 'Plain', document: {} },
    ]);
    const file = answer.insertedFiles[0].id;
    const tree = await a.pages(space.id, cr.id);
    const covered = a.byTitle(tree, 'Covered');
    expect(covered.cover).toEqual({ ref: { kind: 'file', file }, yPos: 40 });
    expect(a.byTitle(tree, 'Plain').cover).toBeUndefined();

    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: covered.id, cover: { ref: { kind: 'url', url: 'https://example.com/sky.jpg' } } }]);
    expect((await a.page(space.id, cr.id, covered.id)).cover).toEqual({ ref: { kind: 'url', url: 'https://example.com/sky.jpg' }, yPos: 0 });
    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: covered.id, cover: { ref: { kind: 'file', file } } }]);
    expect((await a.page(space.id, cr.id, covered.id)).cover).toEqual({ ref: { kind: 'file', file }, yPos: 0 });
    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: covered.id, cover: null }]);
    expect((await a.page(space.id, cr.id, covered.id)).cover).toBeUndefined();

    const stored = await a.stored(space.id);
    const cases: [unknown[], RegExp][] = [
      [[{ operation: 'update_page', page: covered.id, cover: { ref: { kind: 'file', file: 'nope' } } }], /^changes\[0\] \(update_page\): cover\.ref\.file: no file nope in this content$/],
      [[{ operation: 'update_page', page: covered.id, cover: { ref: { kind: 'url', url: 'javascript:alert(1)' } } }], /changes\.0\.cover\.ref\.url: must be an http\(s\) URL/],
      [[{ operation: 'update_page', page: covered.id, cover: { ref: { kind: 'file', file } , yPos: 'top' } }], /changes\.0\.cover\.yPos/],
      [[{ operation: 'insert_page', type: 'group', title: 'G', cover: { ref: { kind: 'url', url: 'https://example.com/a.png' } } }], /^changes\[0\] \(insert_page\): cover: a group page has no cover$/],
    ];
    for (const [changes, message] of cases) {
      const response = await a.send(space.id, cr.id, changes);
      expect(response.status, response.text).toBe(400);
      expect(response.body.error.message).toMatch(message);
    }
    expect(await a.stored(space.id)).toEqual(stored);
  });
});
