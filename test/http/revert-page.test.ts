import { expect, it } from 'vitest';
import { authoring, md } from './authoring.js';
import { httpSuite } from './harness.js';

/** revert_page in a change request's content batch: a page, or some blocks of its body, back as a revision had them. */

httpSuite('revert_page', (h) => {
  const a = authoring(h);

  /** What a page is, for comparing it across revisions: everything but where it is read from. */
  const essence = (page: Record<string, any>) => {
    const { urls: _urls, git: _git, documentId: _documentId, ...rest } = page;
    return rest;
  };

  /**
   * A space whose live content has Guide > (Install, Setup) and FAQ, merged from a first request; and a
   * new change request on it.
   */
  async function fixture() {
    const space = await a.space();
    const first = await a.changeRequest(space.id);
    await a.batch(space.id, first.id, [
      { operation: 'insert_page', ref: 'guide', title: 'Guide', emoji: '📘', description: 'Start here', document: md('Intro.\n\n## Steps\n\nDo this.\n\nThen that.') },
      { operation: 'insert_page', title: 'Install', into: 'guide', document: md('npm i') },
      { operation: 'insert_page', title: 'Setup', into: 'guide', document: md('Set it up.') },
      { operation: 'insert_page', title: 'FAQ', document: md('Questions.') },
    ]);
    h().clock.advance(1000);
    expect((await h().owner.post(`${a.changeRequestPath(space.id, first.id)}/merge`)).status).toBe(200);
    const live = await a.pages(space.id);
    const cr = await a.changeRequest(space.id, { subject: 'Edits' });
    return { space, cr, guide: a.byTitle(live, 'Guide'), install: a.byTitle(live, 'Install'), setup: a.byTitle(live, 'Setup'), faq: a.byTitle(live, 'FAQ') };
  }

  it('sets a changed page back as the base has it: fields, layout, cover, body, slug and place', async () => {
    const { space, cr, guide, install, faq } = await fixture();
    await a.batch(space.id, cr.id, [
      {
        operation: 'update_page',
        page: install.id,
        title: 'Installing',
        slug: 'installing',
        emoji: '🔧',
        hidden: true,
        layout: { width: 'wide' },
        cover: { ref: { kind: 'url', url: 'https://example.com/cover.png' } },
        document: md('yarn add'),
      },
      { operation: 'update_page', page: install.id, into: faq.id },
      { operation: 'update_page', page: guide.id, title: 'The guide' },
    ]);
    const answer = await a.batchWithChanges(space.id, cr.number, [{ operation: 'revert_page', page: install.id }]);
    expect(answer.changes).toEqual([{ object: 'updated_page', page: expect.objectContaining({ id: install.id }) }]);
    const reverted = await a.page(space.id, cr.id, install.id);
    expect(essence(reverted)).toEqual(essence(await a.page(space.id, undefined, install.id)));
    expect(a.outline(await a.pages(space.id, cr.id))).toEqual([
      ['The guide', 'guide', [['Install', 'guide/install'], ['Setup', 'guide/setup']]],
      ['FAQ', 'faq'],
    ]);
    // Reverting a page that did not change changes nothing of it.
    await a.batch(space.id, cr.id, [{ operation: 'revert_page', page: faq.id }]);
    expect(essence(await a.page(space.id, cr.id, faq.id))).toEqual(essence(await a.page(space.id, undefined, faq.id)));
  });

  it('deletes a page the base does not have, with its new subpages, but not one that holds a page of the base', async () => {
    const { space, cr, install } = await fixture();
    await a.batch(space.id, cr.id, [
      { operation: 'insert_page', ref: 'new', title: 'New', document: md('Fresh.') },
      { operation: 'insert_page', title: 'Newer', into: 'new', document: {} },
      { operation: 'insert_page', ref: 'holder', title: 'Holder', document: {} },
    ]);
    const tree = await a.pages(space.id, cr.id);
    const answer = await a.batchWithChanges(space.id, cr.id, [{ operation: 'revert_page', page: a.byTitle(tree, 'New').id }]);
    expect(answer.changes.map((change) => [change.object, change.page])).toEqual([
      ['deleted_page', a.byTitle(tree, 'New').id],
      ['deleted_page', a.byTitle(tree, 'Newer').id],
    ]);
    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: install.id, into: a.byTitle(tree, 'Holder').id }]);
    const stored = await a.stored(space.id);
    const refused = await a.send(space.id, cr.id, [{ operation: 'revert_page', page: a.byTitle(tree, 'Holder').id }]);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(
      `changes[0] (revert_page): page: page ${a.byTitle(tree, 'Holder').id} holds page ${install.id}, which revision ${cr.revisionInitial} has: revert or move page ${install.id} first`,
    );
    expect(await a.stored(space.id)).toEqual(stored);
  });

  it('puts back a deleted page where it was, with its body; its parent first', async () => {
    const { space, cr, guide, install, setup } = await fixture();
    await a.batch(space.id, cr.id, [{ operation: 'delete_page', page: guide.id }]);
    const stored = await a.stored(space.id);
    const orphan = await a.send(space.id, cr.id, [{ operation: 'revert_page', page: setup.id }]);
    expect(orphan.status).toBe(400);
    expect(orphan.body.error.message).toBe(`changes[0] (revert_page): page: page ${setup.id} was under page ${guide.id}, which is not here: revert page ${guide.id} first`);
    expect(await a.stored(space.id)).toEqual(stored);

    const answer = await a.batchWithChanges(space.id, cr.id, [
      { operation: 'revert_page', page: guide.id },
      { operation: 'revert_page', page: setup.id },
    ]);
    expect(answer.changes.map((change) => [change.object, change.page.id])).toEqual([
      ['created_page', guide.id],
      ['created_page', setup.id],
    ]);
    expect(a.outline(await a.pages(space.id, cr.id))).toEqual([
      ['Guide', 'guide', [['Setup', 'guide/setup']]],
      ['FAQ', 'faq'],
    ]);
    for (const page of [guide, setup]) {
      expect(essence(await a.page(space.id, cr.id, page.id))).toEqual(essence({ ...(await a.page(space.id, undefined, page.id)), pages: expect.any(Array) }));
    }
    // Install comes back before Setup, as the base has them.
    await a.batch(space.id, cr.id, [{ operation: 'revert_page', page: install.id }]);
    expect(a.outline(await a.pages(space.id, cr.id))[0]).toEqual(['Guide', 'guide', [['Install', 'guide/install'], ['Setup', 'guide/setup']]]);
  });

  it('puts a moved or deleted page back exactly where it was: the space deleting it then merges without a conflict', async () => {
    const { space, cr, install, setup, faq } = await fixture();
    // Setup, moved to the end once FAQ is gone, is where FAQ was; FAQ comes back before it. Install stays
    // deleted, so Setup goes back as Guide's only subpage.
    await a.batch(space.id, cr.id, [
      { operation: 'delete_page', page: install.id },
      { operation: 'delete_page', page: faq.id },
      { operation: 'update_page', page: setup.id, into: null },
      { operation: 'insert_page', title: 'Later', document: md('New.') },
    ]);
    await a.batch(space.id, cr.id, [faq, setup].map((page) => ({ operation: 'revert_page', page: page.id })));
    expect(a.outline(await a.pages(space.id, cr.id))).toEqual([
      ['Guide', 'guide', [['Setup', 'guide/setup']]],
      ['FAQ', 'faq'],
      ['Later', 'later'],
    ]);
    // Meanwhile the space deletes both; the request has them as its base does, so their deletion stands.
    const other = await a.changeRequest(space.id);
    await a.batch(space.id, other.id, [setup, faq].map((page) => ({ operation: 'delete_page', page: page.id })));
    h().clock.advance(1000);
    expect((await h().owner.post(`${a.changeRequestPath(space.id, other.id)}/merge`)).status).toBe(200);
    h().clock.advance(1000);
    const merged = await h().owner.post(`${a.changeRequestPath(space.id, cr.id)}/merge`);
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.result).toBe('merge');
    expect(a.outline(await a.pages(space.id))).toEqual([
      ['Guide', 'guide'],
      ['Later', 'later'],
    ]);
  });

  it('goes back to a given revision of the space, and refuses one of another space or none', async () => {
    const { space, cr, faq } = await fixture();
    const once = await a.batch(space.id, cr.id, [{ operation: 'update_page', page: faq.id, title: 'Questions', document: md('First answer.') }]);
    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: faq.id, title: 'Answers', document: md('Second answer.') }]);
    await a.batch(space.id, cr.id, [{ operation: 'revert_page', page: faq.id, revision: once.revision }]);
    expect(await a.page(space.id, cr.id, faq.id)).toMatchObject({ title: 'Questions', markdown: 'First answer.\n' });

    const other = await a.space();
    const stored = await a.stored(space.id);
    for (const revision of [other.revision, 'no-such-revision']) {
      const response = await a.send(space.id, cr.id, [{ operation: 'revert_page', page: faq.id, revision }]);
      expect(response.status).toBe(400);
      expect(response.body.error.message).toBe(`changes[0] (revert_page): revision: no revision ${revision} in this space`);
    }
    const missing = await a.send(space.id, cr.id, [{ operation: 'revert_page', page: 'nope' }]);
    expect(missing.body.error.message).toBe(`changes[0] (revert_page): page: no page nope here or in revision ${cr.revisionInitial}`);
    expect(await a.stored(space.id)).toEqual(stored);
  });

  it('reverts only the listed blocks: a changed one by its key here, a deleted one by its key in the base', async () => {
    const { space, cr, guide } = await fixture();
    // Base: Intro. / ## Steps / Do this. / Then that.  (keys k1..k4 in format=document)
    const base = await h().owner.get(`${a.contentOf(space.id)}/page/${guide.id}?format=document`);
    expect(base.body.document.nodes.map((node: any) => node.key)).toEqual(['k1', 'k2', 'k3', 'k4']);
    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: guide.id, title: 'Guide 2', document: md('Intro, edited.\n\n## Steps\n\nThen that.\n\nAn added block.') }]);
    const now = await h().owner.get(`${a.contentOf(space.id, cr.id)}/page/${guide.id}?format=document`);
    const keyOf = (text: string) => now.body.document.nodes.find((node: any) => JSON.stringify(node).includes(text)).key;

    await a.batch(space.id, cr.id, [{ operation: 'revert_page', page: guide.id, block: [keyOf('An added block.')] }]);
    expect((await a.page(space.id, cr.id, guide.id)).markdown).toBe('Intro, edited.\n\n## Steps\n\nThen that.\n');
    // `Do this.` was deleted: its key is the base's (k3; here k3 is `Then that.`, which did not change).
    await a.batch(space.id, cr.id, [{ operation: 'revert_page', page: guide.id, block: ['k3'] }]);
    expect((await a.page(space.id, cr.id, guide.id)).markdown).toBe('Intro, edited.\n\n## Steps\n\nDo this.\n\nThen that.\n');
    await a.batch(space.id, cr.id, [{ operation: 'revert_page', page: guide.id, block: ['k1'] }]);
    const reverted = await a.page(space.id, cr.id, guide.id);
    expect(reverted.markdown).toBe('Intro.\n\n## Steps\n\nDo this.\n\nThen that.\n');
    // The page's own fields stay.
    expect(reverted.title).toBe('Guide 2');
  });

  it('refuses unknown block keys, blocks of pages without a body or not in both revisions, naming the change; all or nothing', async () => {
    const { space, cr, guide, faq } = await fixture();
    await a.batch(space.id, cr.id, [
      { operation: 'insert_page', type: 'link', title: 'Out', target: { kind: 'url', url: 'https://example.com' } },
      { operation: 'insert_page', title: 'Fresh', document: md('New.') },
    ]);
    const tree = await a.pages(space.id, cr.id);
    const stored = await a.stored(space.id);
    const cases: [unknown[], string][] = [
      [
        [{ operation: 'update_page', page: faq.id, title: 'Changed' }, { operation: 'revert_page', page: guide.id, block: ['k99'] }],
        `changes[1] (revert_page): block: no block k99 in page ${guide.id}, here or in revision ${cr.revisionInitial} (keys are those of its format=document form)`,
      ],
      [[{ operation: 'revert_page', page: a.byTitle(tree, 'Fresh').id, block: ['k1'] }], `changes[0] (revert_page): block: page ${a.byTitle(tree, 'Fresh').id} is not in revision ${cr.revisionInitial}: revert the whole page instead`],
      [[{ operation: 'revert_page', page: guide.id, block: [] }], 'changes.0.block: must have at least one block key'],
      [[{ operation: 'revert_page', page: guide.id, block: 'k1' }], 'changes.0.block'],
      [[{ operation: 'revert_page' }], 'changes.0.page'],
    ];
    for (const [changes, message] of cases) {
      const response = await a.send(space.id, cr.id, changes);
      expect(response.status, response.text).toBe(400);
      expect(response.body.error.message).toContain(message);
    }
    const link = await a.send(space.id, cr.id, [{ operation: 'revert_page', page: a.byTitle(tree, 'Out').id, block: ['k1'] }]);
    expect(link.body.error.message).toContain('revert the whole page instead');
    expect(await a.stored(space.id)).toEqual(stored);
  });

  it('goes back to the base the request was last brought up to date with, and is refused where edits are', async () => {
    const { space, cr, faq } = await fixture();
    // The space moves on (another request renames FAQ); this request is updated from it, then edits FAQ.
    const other = await a.changeRequest(space.id);
    await a.batch(space.id, other.id, [{ operation: 'update_page', page: faq.id, title: 'FAQ, live' }]);
    h().clock.advance(1000);
    expect((await h().owner.post(`${a.changeRequestPath(space.id, other.id)}/merge`)).status).toBe(200);
    h().clock.advance(1000);
    expect((await h().owner.post(`${a.changeRequestPath(space.id, cr.id)}/update`)).status).toBe(200);
    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: faq.id, title: 'Mine' }]);
    await a.batch(space.id, cr.id, [{ operation: 'revert_page', page: faq.id }]);
    expect((await a.page(space.id, cr.id, faq.id)).title).toBe('FAQ, live');

    // A reader may not revert; a locked space refuses content changes.
    const reader = await h().user('read');
    expect((await a.send(space.id, cr.id, [{ operation: 'revert_page', page: faq.id }], reader)).status).toBe(403);
    expect((await h().owner.patch(a.spaces(space.id), { editMode: 'locked' })).status).toBe(200);
    expect((await a.send(space.id, cr.id, [{ operation: 'revert_page', page: faq.id }])).status).toBe(409);
  });
});
