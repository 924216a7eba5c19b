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
