import { expect, it } from 'vitest';
import { BLOCKS_BODY } from '../content/blocks-body.js';
import { authoring, md } from './authoring.js';
import { httpSuite } from './harness.js';

/** GitBook's blocks in stored Markdown: written, read back as written, and held to the depth limit. */

httpSuite('GitBook blocks in stored Markdown', (h) => {
  const a = authoring(h);

  it('reads back the blocks it was given, unchanged, and again after a second write', async () => {
    const space = await a.space();
    const cr = await a.changeRequest(space.id);
    await a.batch(space.id, cr.id, [{ operation: 'insert_page', title: 'Blocks', document: md(BLOCKS_BODY) }]);
    const page = a.byTitle(await a.pages(space.id, cr.id), 'Blocks');
    const read = await a.page(space.id, cr.id, page.id, '?format=markdown');
    expect(read.markdown).toBe(`${BLOCKS_BODY}\n`);
    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: page.id, document: md(read.markdown) }]);
    expect((await a.page(space.id, cr.id, page.id, '?format=markdown')).markdown).toBe(`${BLOCKS_BODY}\n`);
  });

  it('gives the blocks as nodes of the JSON document, in the public shapes, and a document written back stores the same Markdown', async () => {
    const space = await a.space();
    const cr = await a.changeRequest(space.id);
    await a.batch(space.id, cr.id, [{ operation: 'insert_page', title: 'Blocks', document: md(BLOCKS_BODY) }]);
    const page = a.byTitle(await a.pages(space.id, cr.id), 'Blocks');
    const { document } = await a.page(space.id, cr.id, page.id, '?format=document');
    const shapes = document.nodes.map((node: any) => [node.type, node.data]);
    expect(shapes).toEqual([
      ['hint', { style: 'warning' }],
      ['tabs', {}],
      ['code', { syntax: 'toml', title: 'config.toml', overflow: 'wrap', lineNumbers: true }],
      ['expandable', { defaultExpanded: false }],
      ['hint', { style: 'warning', alert: 'WARNING' }],
      ['embed', { url: 'https://example.com/video' }],
      ['file', { ref: { kind: 'url', url: 'https://example.com/a.pdf' } }],
    ]);
    const [hint, tabs, , expandable] = document.nodes;
    expect(hint.nodes[0].type).toBe('paragraph');
    expect(tabs.nodes.map((tab: any) => [tab.type, tab.data.title, tab.nodes[0].type])).toEqual([['tabs-item', 'macOS', 'hint'], ['tabs-item', 'Linux', 'list-unordered']]);
    expect(expandable.fragments.map((fragment: any) => [fragment.fragment, fragment.nodes[0].type])).toEqual([['expandable-title', 'paragraph'], ['expandable-body', 'paragraph']]);
    // Written back as a document (changed in one place: the hint's style), the rest is stored as it was.
    const changed = { ...document, nodes: [{ ...hint, data: { style: 'danger' } }, ...document.nodes.slice(1)] };
    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: page.id, document: { document: changed } }]);
    const read = await a.page(space.id, cr.id, page.id, '?format=markdown');
    expect(read.markdown).toBe(`${BLOCKS_BODY.replace('style="warning"', 'style="danger"')}\n`);
  });

  it('refuses a document block that could not be stored as its tag, naming it, and stores nothing', async () => {
    const space = await a.space();
    const cr = await a.changeRequest(space.id);
    const hint = (data: object) => ({ object: 'document', data: {}, nodes: [{ object: 'block', type: 'hint', data, nodes: [] }] });
    const tab = (title: string) => ({ object: 'document', data: {}, nodes: [{ object: 'block', type: 'tabs', nodes: [{ object: 'block', type: 'tabs-item', data: { title }, nodes: [] }] }] });
    for (const [document, message] of [
      [hint({ style: 'loud' }), /document.nodes\[0\].data.style: must be one of info/],
      [tab('a %} b'), /document.nodes\[0\].nodes\[0\].data.title: must not hold a line break or "%}"/],
      [{ object: 'document', data: {}, nodes: [{ object: 'block', type: 'embed', data: { url: '' }, isVoid: true }] }, /data.url: must not be empty/],
    ] as const) {
      const response = await h().owner.post(a.contentOf(space.id, cr.id), { changes: [{ operation: 'insert_page', title: 'Bad', document: { document } }] });
      expect(response.status, response.text).toBe(400);
      expect(response.body.error.message).toMatch(message);
    }
    expect(await a.pages(space.id, cr.id)).toEqual([]);
  });

  it('refuses blocks nested beyond the depth limit, naming the line, and stores nothing', async () => {
    const space = await a.space();
    const cr = await a.changeRequest(space.id);
    const deep = `${'{% hint %}\n'.repeat(31)}> > x\n${'{% endhint %}\n'.repeat(31)}`;
    const response = await h().owner.post(a.contentOf(space.id, cr.id), { changes: [{ operation: 'insert_page', title: 'Deep', document: md(deep) }] });
    expect(response.status, response.text).toBe(400);
    expect(response.body.error.message).toMatch(/line 32 nests 33 levels deep/);
    expect(await a.pages(space.id, cr.id)).toEqual([]);
  });
});
