import { expect, it } from 'vitest';
import { INDEXES, TABLES } from '../../src/core/records.js';
import { authoring, md } from './authoring.js';
import { httpSuite } from './harness.js';

/** Authoring a change request: the batch endpoint's changes, their order and atomicity, and who may use it. */

httpSuite('content authoring', (h) => {
  const a = authoring(h);

  /** A space with a change request, for the tests below. */
  async function fixture() {
    const space = await a.space();
    const cr = await a.changeRequest(space.id, { subject: 'Write' });
    return { space, cr };
  }

  it('inserts pages with into/at, derives slugs and paths from titles, and answers the change request', async () => {
    const { space, cr } = await fixture();
    const answer = await a.batch(space.id, cr.id, [
      { operation: 'insert_page', ref: 'guide', title: 'Getting Started', document: md('Welcome.') },
      { operation: 'insert_page', title: 'Install', into: 'guide', document: md('Run it.') },
      { operation: 'insert_page', title: 'Configure', into: 'guide', at: 0, document: md('Set it.') },
      { operation: 'insert_page', title: 'Über Straße!', document: md('') },
      { operation: 'insert_page', title: 'Getting started', at: 1, document: {} },
    ]);
    expect(answer).toMatchObject({ object: 'change-request', id: cr.id, number: 1, status: 'draft', revisionInitial: space.revision, outdated: false });
    expect(answer.revision).not.toBe(cr.revision);
    const tree = await a.pages(space.id, cr.id);
    expect(a.outline(tree)).toEqual([
      ['Getting Started', 'getting-started', [['Configure', 'getting-started/configure'], ['Install', 'getting-started/install']]],
      ['Getting started', 'getting-started-2'],
      ['Über Straße!', 'uber-straße'],
    ]);
    // The space itself is untouched, and the revision's parent is the request's previous revision.
    expect(await a.pages(space.id)).toEqual([]);
    const content = await h().owner.get(a.contentOf(space.id, cr.id));
    expect(content.body).toMatchObject({ id: answer.revision, parents: [cr.revision], type: 'edits' });
    expect(await a.counts(space.id)).toEqual({ total: 1, open: 0, draft: 1 });
  });

  it('takes the title from frontmatter or a leading heading, which win over `title`, and stores the body without them', async () => {
    const { space, cr } = await fixture();
    await a.batch(space.id, cr.id, [
      { operation: 'insert_page', title: 'Ignored', document: md('---\ntitle: From YAML\ndescription: About it\nhidden: true\n---\n# Heading\n\nBody *text*.') },
      { operation: 'insert_page', title: 'Ignored too', document: md('# From Heading\n\nSecond.\n') },
      { operation: 'insert_page', document: md('No title here.') },
    ]);
    const tree = await a.pages(space.id, cr.id);
    expect(tree.map((page) => [page.title, page.slug, page.description, page.hidden])).toEqual([
      ['From YAML', 'from-yaml', 'About it', true],
      ['From Heading', 'from-heading', undefined, false],
      ['Untitled', 'untitled', undefined, false],
    ]);
    // A body that opens with a heading reads with its title in frontmatter, so that it writes back unchanged.
    const first = await a.page(space.id, cr.id, tree[0].id);
    expect(first.markdown).toBe('---\ntitle: From YAML\n---\n# Heading\n\nBody _text_.\n');
    expect((await a.page(space.id, cr.id, tree[1].id)).markdown).toBe('Second.\n');
    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: tree[0].id, document: md(first.markdown) }]);
    expect((await a.pages(space.id, cr.id))[0].title).toBe('From YAML');
    expect((await a.page(space.id, cr.id, tree[0].id)).markdown).toBe(first.markdown);
  });

  it('spells the rules of a body that opens with one `***`, which no read takes for frontmatter', async () => {
    const { space, cr } = await fixture();
    await a.batch(space.id, cr.id, [{ operation: 'insert_page', title: 'Rules', document: md('***\nx\n***') }]);
    const [page] = await a.pages(space.id, cr.id);
    const read = (await a.page(space.id, cr.id, page.id)).markdown;
    expect(read).toBe('***\n\nx\n\n***\n');
    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: page.id, document: md(read) }]);
    expect((await a.page(space.id, cr.id, page.id)).markdown).toBe(read);
  });

  it('reads a JSON document body as Markdown', async () => {
    const { space, cr } = await fixture();
    const document = {
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', type: 'heading-2', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Setup', marks: [] }] }] },
        {
          object: 'block',
          type: 'paragraph',
          nodes: [
            { object: 'text', leaves: [{ object: 'leaf', text: 'Use ', marks: [] }, { object: 'leaf', text: 'npm', marks: [{ object: 'mark', type: 'code' }] }] },
            { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: 'https://npmjs.com' } }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'here', marks: [] }] }] },
          ],
        },
      ],
    };
    await a.batch(space.id, cr.id, [{ operation: 'insert_page', title: 'Setup', document: { document } }]);
    const [page] = await a.pages(space.id, cr.id);
    expect((await a.page(space.id, cr.id, page.id)).markdown).toBe('## Setup\n\nUse `npm`[here](https://npmjs.com)\n');
    const bad = await a.send(space.id, cr.id, [{ operation: 'insert_page', title: 'Bad', document: { document: { object: 'document', nodes: [{ object: 'block', type: 'marquee' }] } } }]);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('changes[0] (insert_page): document.nodes[0].type: block type "marquee" is not supported');
  });

  it('renames a title without touching the slug, changes a slug with its subtree, and keeps other paths stable', async () => {
    const { space, cr } = await fixture();
    await a.batch(space.id, cr.id, [
      { operation: 'insert_page', ref: 'api', title: 'API', document: md('a') },
      { operation: 'insert_page', ref: 'auth', title: 'Auth', into: 'api', document: md('b') },
      { operation: 'insert_page', title: 'Tokens', into: 'auth', document: md('c') },
      { operation: 'insert_page', ref: 'faq', title: 'FAQ', document: md('d') },
    ]);
    const tree = await a.pages(space.id, cr.id);
    const api = a.byTitle(tree, 'API');
    const faq = a.byTitle(tree, 'FAQ');
    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: api.id, title: 'Reference' }]);
    let after = await a.pages(space.id, cr.id);
    expect(a.outline(after)).toEqual([
      ['Reference', 'api', [['Auth', 'api/auth', [['Tokens', 'api/auth/tokens']]]]],
      ['FAQ', 'faq'],
    ]);
    expect(a.byTitle(after, 'FAQ')).toEqual(faq);
    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: api.id, slug: 'reference' }]);
    after = await a.pages(space.id, cr.id);
    expect(a.outline(after)).toEqual([
      ['Reference', 'reference', [['Auth', 'reference/auth', [['Tokens', 'reference/auth/tokens']]]]],
      ['FAQ', 'faq'],
    ]);
    expect(a.byTitle(after, 'FAQ')).toEqual(faq);
    // The old path is free again, and the new one reads the page.
    expect((await h().owner.get(`${a.contentOf(space.id, cr.id)}/path/api`)).status).toBe(404);
    expect((await h().owner.get(`${a.contentOf(space.id, cr.id)}/path/reference%2Fauth%2Ftokens`)).body.title).toBe('Tokens');
  });

  it('refuses a slug taken by a sibling or malformed, and changes nothing', async () => {
    const { space, cr } = await fixture();
    await a.batch(space.id, cr.id, [
      { operation: 'insert_page', title: 'One', document: md('1') },
      { operation: 'insert_page', title: 'Two', document: md('2') },
    ]);
    const [one] = await a.pages(space.id, cr.id);
    const before = await a.stored(space.id);
    const cases: [unknown[], string][] = [
      [[{ operation: 'update_page', page: one.id, slug: 'two' }], `changes[0] (update_page): slug: "two" is taken by page`],
      [[{ operation: 'insert_page', title: 'Three', slug: 'one', document: md('3') }], 'changes[0] (insert_page): slug: "one" is taken by page'],
      [[{ operation: 'insert_page', title: 'Three', slug: 'a/b', document: md('3') }], 'changes[0] (insert_page): slug: must not contain'],
      [[{ operation: 'insert_page', title: 'Three', slug: '', document: md('3') }], 'changes[0] (insert_page): slug: must not be empty'],
      [[{ operation: 'insert_page', title: 'Three', slug: 'x'.repeat(101), document: md('3') }], 'changes[0] (insert_page): slug: must be at most 100 characters'],
    ];
    for (const [changes, message] of cases) {
      const refused = await a.send(space.id, cr.id, changes);
      expect(refused.status, message).toBe(400);
      expect(refused.body.error.message.startsWith(message), refused.body.error.message).toBe(true);
    }
    expect(await a.stored(space.id)).toEqual(before);
  });

  it('moves pages with into/at, to the top level with null, and refuses a move under itself', async () => {
    const { space, cr } = await fixture();
    await a.batch(space.id, cr.id, [
      { operation: 'insert_page', ref: 'a', title: 'A', document: md('a') },
      { operation: 'insert_page', ref: 'b', title: 'B', document: md('b') },
      { operation: 'insert_page', ref: 'c', title: 'C', document: md('c') },
      { operation: 'insert_page', ref: 'a1', title: 'A1', into: 'a', document: md('a1') },
    ]);
    const tree = await a.pages(space.id, cr.id);
    const [A, B, C] = tree;
    const A1 = A.pages[0];
    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: C.id, at: 0 }]);
    expect(a.outline(await a.pages(space.id, cr.id)).map((x: any) => x[0])).toEqual(['C', 'A', 'B']);
    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: A.id, into: B.id }]);
    expect(a.outline(await a.pages(space.id, cr.id))).toEqual([
      ['C', 'c'],
      ['B', 'b', [['A', 'b/a', [['A1', 'b/a/a1']]]]],
    ]);
    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: A1.id, into: null, at: 1 }]);
    expect(a.outline(await a.pages(space.id, cr.id))).toEqual([
      ['C', 'c'],
      ['A1', 'a1'],
      ['B', 'b', [['A', 'b/a']]],
    ]);
    const before = await a.stored(space.id);
    for (const [change, message] of [
      [{ operation: 'update_page', page: B.id, into: A.id }, `into: page ${B.id} cannot be moved under itself or one of its own subpages`],
      [{ operation: 'update_page', page: B.id, into: B.id }, `into: page ${B.id} cannot be moved under itself or one of its own subpages`],
      [{ operation: 'update_page', page: B.id, at: 3 }, 'at: must be at most 2, the number of other pages there'],
      [{ operation: 'update_page', page: B.id, into: 'missing' }, 'into: no page missing in this content'],
      [{ operation: 'insert_page', title: 'X', at: 4, document: md('x') }, 'at: must be at most 3, the number of pages there'],
    ] as const) {
      const refused = await a.send(space.id, cr.id, [change]);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe(`changes[0] (${change.operation}): ${message}`);
    }
    expect(await a.stored(space.id)).toEqual(before);
  });

  it('deletes a page with its subpages, frees their paths, and reports the pages a batch touched', async () => {
    const { space, cr } = await fixture();
    const made = await a.batchWithChanges(space.id, cr.id, [
      { operation: 'insert_page', ref: 'top', title: 'Top', document: md('t') },
      { operation: 'insert_page', ref: 'mid', title: 'Mid', into: 'top', document: md('m') },
      { operation: 'insert_page', title: 'Leaf', into: 'mid', document: md('l') },
      { operation: 'insert_page', title: 'Keep', document: md('k') },
      { operation: 'update_page', page: 'mid', title: 'Middle' },
    ]);
    expect(made.changes.map((change) => [change.object, change.ref])).toEqual([
      ['created_page', 'top'],
      ['created_page', 'mid'],
      ['created_page', undefined],
      ['created_page', undefined],
    ]);
    expect(made.changes[0].page.urls.location).toMatch(new RegExp(`/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${made.changes[0].page.id}$`));
    const top = made.changes[0].page.id;
    const removed = await a.batchWithChanges(space.id, cr.id, [{ operation: 'delete_page', page: top }]);
    expect(removed.changes.map((change) => change.object)).toEqual(['deleted_page', 'deleted_page', 'deleted_page']);
    expect(removed.changes[0].page).toBe(top);
    expect(a.outline(await a.pages(space.id, cr.id))).toEqual([['Keep', 'keep']]);
    for (const path of ['top', 'top%2Fmid', 'top%2Fmid%2Fleaf']) {
      expect((await h().owner.get(`${a.contentOf(space.id, cr.id)}/path/${path}`)).status).toBe(404);
    }
    // A new page takes a freed slug.
    await a.batch(space.id, cr.id, [{ operation: 'insert_page', title: 'Top', document: md('again') }]);
    expect((await a.pages(space.id, cr.id)).map((page) => page.path)).toEqual(['keep', 'top']);
    const missing = await a.send(space.id, cr.id, [{ operation: 'delete_page', page: top }]);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe(`changes[0] (delete_page): No page ${top} in this content`);
  });

  it('applies a batch atomically: one bad change anywhere leaves the request and the store as they were', async () => {
    const { space, cr } = await fixture();
    await a.batch(space.id, cr.id, [{ operation: 'insert_page', title: 'Existing', document: md('e') }]);
    const before = await a.stored(space.id);
    const crBefore = (await h().owner.get(a.changeRequestPath(space.id, cr.id))).body;
    const good = { operation: 'insert_page', title: 'Fine', document: md('fine') };
    const bad: [unknown, number, string][] = [
      [{ operation: 'update_page', page: 'nope', title: 'X' }, 400, 'changes[2] (update_page): No page nope in this content'],
      [{ operation: 'insert_page', title: 'X', into: 'nope', document: md('x') }, 400, 'changes[2] (insert_page): into: no page nope in this content'],
      [{ operation: 'insert_page', title: 'X' }, 400, 'changes[2] (insert_page): document: a document page needs a document ({} for an empty one)'],
      [{ operation: 'insert_page', title: '', document: md('x') }, 400, 'changes.2.title: must not be empty'],
      [{ operation: 'launch_page' }, 400, 'changes.2.operation: must be'],
      [{ operation: 'insert_files', files: [{ name: 'a.txt', base64: 'aGk=' }] }, 400, 'changes.2.files.0: contentType is required with base64'],
      [{ operation: 'insert_files', files: [{ name: 'a.txt', contentType: 'text/plain', base64: '%%%' }] }, 400, 'changes[2].files[0].base64: is not valid base64'],
      [{ operation: 'insert_files', files: [] }, 400, 'changes.2.files: must have at least one file'],
      // Frontmatter fields have the limits of the change's own fields.
      [{ operation: 'insert_page', title: 'X', document: md(`---\ndescription: ${'d'.repeat(1001)}\n---\nx`) }, 400, 'changes[2] (insert_page): markdown: frontmatter description: must be at most 1000 characters'],
      [{ operation: 'insert_page', title: 'X', document: md(`---\nicon: ${'i'.repeat(101)}\n---\nx`) }, 400, 'changes[2] (insert_page): markdown: frontmatter icon: must be at most 100 characters'],
      [{ operation: 'insert_page', title: 'X', document: md(`---\ntitle: ${'t'.repeat(101)}\n---\nx`) }, 400, 'changes[2] (insert_page): markdown: frontmatter title: must be at most 100 characters'],
    ];
    for (const [change, status, message] of bad) {
      const refused = await a.send(space.id, cr.id, [good, good, change, good]);
      expect(refused.status, message).toBe(status);
      expect(refused.body.error.message.startsWith(message), `${refused.body.error.message} / ${message}`).toBe(true);
    }
    for (const body of [{}, { changes: [] }, { changes: 'x' }, { changes: Array.from({ length: 51 }, () => good) }]) {
      const refused = await h().owner.post(a.contentOf(space.id, cr.id), body);
      expect(refused.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    expect((await h().owner.post(a.contentOf(space.id, cr.id), { changes: Array.from({ length: 50 }, () => good) })).status).toBe(200);
    const after = await h().owner.get(a.changeRequestPath(space.id, cr.id));
    expect(after.body.revision).not.toBe(crBefore.revision);
    // Only that last batch changed anything: one revision more.
    const revisions = (await a.stored(space.id))[TABLES.revisions];
    expect(revisions.length).toBe(before[TABLES.revisions].length + 1);
  });

  it('keeps groups at the top level and links without subpages', async () => {
    const { space, cr } = await fixture();
    await a.batch(space.id, cr.id, [
      { operation: 'insert_page', type: 'group', ref: 'g', title: 'Guides' },
      { operation: 'insert_page', title: 'First', into: 'g', document: md('f') },
      { operation: 'insert_page', type: 'link', ref: 'l', title: 'Website', target: { kind: 'url', url: 'https://example.com' } },
      { operation: 'insert_page', type: 'link', title: 'To first', into: 'g', target: { kind: 'page', page: 'g' } },
    ]);
    const tree = await a.pages(space.id, cr.id);
    expect(tree.map((page) => page.type)).toEqual(['group', 'link']);
    expect(tree[0]).toMatchObject({ type: 'group', title: 'Guides', slug: 'guides', path: 'guides', hidden: false });
    expect(tree[0].pages.map((page: any) => [page.type, page.path])).toEqual([
      ['document', 'guides/first'],
      ['link', undefined],
    ]);
    expect(tree[1]).toEqual({
      id: expect.any(String),
      title: 'Website',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      kind: 'link',
      type: 'link',
      target: { kind: 'url', url: 'https://example.com' },
      href: 'https://example.com',
      hidden: false,
    });
    expect(tree[0].pages[1].target).toEqual({ kind: 'page', page: tree[0].id });
    // A link has no page to show at a path; a group does.
    expect((await h().owner.get(`${a.contentOf(space.id, cr.id)}/path/website`)).status).toBe(404);
    expect((await h().owner.get(`${a.contentOf(space.id, cr.id)}/path/guides`)).body).toMatchObject({ type: 'group', pages: [expect.objectContaining({ title: 'First' }), expect.anything()] });
    expect(tree[0].pages[1].href).toMatch(new RegExp(`/app/s/${space.id}/~/changes/1/guides$`));
    const before = await a.stored(space.id);
    for (const [change, message] of [
      [{ operation: 'insert_page', type: 'group', title: 'Nested', into: tree[0].id }, 'into: groups exist only at the top level'],
      [{ operation: 'insert_page', title: 'Under link', into: tree[1].id, document: md('x') }, `into: page ${tree[1].id} is a link page, which cannot have subpages`],
      [{ operation: 'insert_page', type: 'link', title: 'No target' }, 'target: a link page needs a target'],
      [{ operation: 'insert_page', type: 'group', title: 'G', document: md('x') }, 'document: a group page has no document'],
      [{ operation: 'update_page', page: tree[0].id, document: md('x') }, `Page ${tree[0].id} is a group page: it has no document`],
      [{ operation: 'update_page', page: tree[0].id, into: tree[0].pages[0].id }, 'into: groups exist only at the top level'],
    ] as const) {
      const refused = await a.send(space.id, cr.id, [change]);
      expect(refused.status, message).toBe(400);
      expect(refused.body.error.message).toBe(`changes[0] (${change.operation}): ${message}`);
    }
    // A link page points to an http, https or mailto URL: nothing that runs or reads locally, nothing relative.
    for (const url of ['javascript:alert(1)', 'JavaScript:alert(1)', ' javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:x', 'file:///etc/passwd', '/relative', './page.md', '#top', 'example.com']) {
      for (const change of [
        { operation: 'insert_page', type: 'link', title: 'Bad', target: { kind: 'url', url } },
        { operation: 'update_page', page: tree[1].id, target: { kind: 'url', url } },
      ]) {
        const refused = await a.send(space.id, cr.id, [{ operation: 'insert_page', title: 'Before', document: md('x') }, change]);
        expect([refused.status, refused.body.error.message], `${change.operation} ${url}`).toEqual([400, 'changes.1.target.url: must be an http, https or mailto URL']);
      }
    }
    expect(await a.stored(space.id)).toEqual(before);
    const allowed = await a.send(space.id, cr.id, [
      { operation: 'insert_page', type: 'link', title: 'Mail', target: { kind: 'url', url: 'mailto:team@example.com' } },
      { operation: 'update_page', page: tree[1].id, target: { kind: 'url', url: 'HTTP://example.com/x' } },
      // A Markdown body keeps what was written.
      { operation: 'insert_page', title: 'Body', document: md('[run](javascript:alert(1))') },
    ]);
    expect(allowed.status, allowed.text).toBe(200);
    const pages = await a.pages(space.id, cr.id);
    expect(pages.find((page: any) => page.title === 'Mail').target).toEqual({ kind: 'url', url: 'mailto:team@example.com' });
    const body = pages.find((page: any) => page.title === 'Body');
    const markdown = await h().owner.get(`${a.contentOf(space.id, cr.id)}/page/${body.id}?format=markdown`);
    expect(markdown.body.markdown).toContain('[run](javascript:alert\\(1\\))');
  });

  it('resolves links to refs, slug paths and Git paths of pages and files, and leaves unknown ones alone', async () => {
    const { space, cr } = await fixture();
    await a.batch(space.id, cr.id, [{ operation: 'insert_page', title: 'Guides', document: md('g') }]);
    const [guides] = await a.pages(space.id, cr.id);
    await a.batch(space.id, cr.id, [
      {
        operation: 'insert_page',
        title: 'Links',
        document: md('[a](./later) [b](./later.md#top) [c](/pages/guides) [d](/pages/guides.md) [e](/pages/nowhere) [f](https://x.test) ![g](./logo)'),
      },
      { operation: 'insert_page', ref: 'later', title: 'Later', into: guides.id, document: md('l') },
      { operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.txt', contentType: 'text/plain', base64: btoa('logo') }] },
    ]);
    const tree = await a.pages(space.id, cr.id);
    const later = a.byTitle(tree, 'Later');
    const links = a.byTitle(tree, 'Links');
    const files = (await h().owner.get(`${a.contentOf(space.id, cr.id)}/files`)).body.items;
    expect((await a.page(space.id, cr.id, links.id)).markdown).toBe(
      `[a](/pages/${later.id}) [b](/pages/${later.id}#top) [c](/pages/${guides.id}) [d](/pages/${guides.id}) [e](/pages/nowhere) [f](https://x.test) ![g](/files/${files[0].id})\n`,
    );
    const duplicate = await a.send(space.id, cr.id, [
      { operation: 'insert_page', ref: 'x', title: 'X', document: md('x') },
      { operation: 'insert_files', files: [{ ref: 'x', name: 'x.txt', contentType: 'text/plain', base64: 'eA==' }] },
    ]);
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.error.message).toBe('changes[1].files[0].ref: "x" is used twice in the batch');
  });

  it('uploads files inline into the blob store, with size, type and image dimensions', async () => {
    const { space, cr } = await fixture();
    // A 3x2 PNG header is enough to know its size.
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 3, 0, 0, 0, 2, 8, 6, 0, 0, 0]);
    const made = await a.batchWithChanges(space.id, cr.id, [
      {
        operation: 'insert_files',
        files: [
          { name: 'notes.txt', contentType: 'text/plain', base64: btoa('hello files') },
          { name: 'pixel.png', contentType: 'image/png', base64: btoa(String.fromCharCode(...png)) },
        ],
      },
    ]);
    expect(made.insertedFiles.map((file) => [file.name, file.contentType, file.size, file.dimensions])).toEqual([
      ['notes.txt', 'text/plain', 11, undefined],
      ['pixel.png', 'image/png', png.length, { width: 3, height: 2 }],
    ]);
    // The bytes are in the blob store, not in any record.
    const [notes] = made.insertedFiles;
    const records = JSON.stringify(await a.stored(space.id));
    expect(records).not.toContain('hello files');
    expect(records).not.toContain(btoa('hello files'));
    const download = await h().request('GET', new URL(notes.downloadURL).pathname);
    expect(download.status).toBe(200);
    expect(download.text).toBe('hello files');
    expect(download.headers.get('content-type')).toBe('text/plain');
    const too = await a.send(space.id, cr.id, [
      { operation: 'insert_files', files: [{ name: 'big.bin', contentType: 'application/octet-stream', base64: btoa('x'.repeat(1024 * 1024 + 1)) }] },
    ]);
    // A body over 1 MiB is refused before it is read; a smaller file over the limit cannot be sent inline anyway.
    expect(too.status).toBe(413);
  });

  it('refuses content changes on a locked space, on archived and merged requests, and below the edit level', async () => {
    const { space, cr } = await fixture();
    const change = [{ operation: 'insert_page', title: 'X', document: md('x') }];
    const reader = await h().user('read');
    const commenter = await h().user('comment');
    const editor = await h().user('edit');
    const outsider = await h().organization();
    const before = await a.stored(space.id);
    for (const caller of [reader, commenter]) {
      const refused = await a.send(space.id, cr.id, change, caller);
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toBe(`You need the edit level or above on space ${space.id} to change its content`);
    }
    expect((await a.send(space.id, cr.id, change, outsider.owner)).status).toBe(404);
    expect((await a.send(space.id, 'nope', change)).status).toBe(404);
    expect((await h().request('POST', a.contentOf(space.id, cr.id), { body: { changes: change } })).status).toBe(401);
    await h().owner.patch(a.spaces(space.id), { editMode: 'locked' });
    const locked = await a.send(space.id, cr.id, change, editor);
    expect(locked.status).toBe(409);
    expect(locked.body.error.message).toMatch(/is locked/);
    await h().owner.patch(a.spaces(space.id), { editMode: 'live' });
    await h().owner.patch(a.changeRequestPath(space.id, cr.id), { status: 'archived' });
    const archived = await a.send(space.id, cr.id, change, editor);
    expect(archived.status).toBe(409);
    expect(archived.body.error.message).toBe('Change request 1 is archived: set its status to draft or open to change its content');
    const stillBefore = await a.stored(space.id);
    expect(stillBefore[TABLES.revisions]).toEqual(before[TABLES.revisions]);
    expect(stillBefore[TABLES.contentNodes]).toEqual(before[TABLES.contentNodes]);
    await h().owner.patch(a.changeRequestPath(space.id, cr.id), { status: 'open' });
    expect((await a.batch(space.id, cr.id, change, editor)).status).toBe('open');
  });

  it('gives a new page the first free slug of its title, past 70 siblings titled alike and in the gaps they leave', async () => {
    const { space, cr } = await fixture();
    const same = (count: number) => Array.from({ length: count }, () => ({ operation: 'insert_page', title: 'Same', document: md('s') }));
    // At most 50 changes a batch.
    await a.batch(space.id, cr.id, same(35));
    await a.batch(space.id, cr.id, same(35));
    const bySlug = new Map((await a.pages(space.id, cr.id)).map((page) => [page.slug, page.id]));
    expect([...bySlug.keys()]).toEqual(expect.arrayContaining(['same', 'same-2', 'same-64', 'same-65', 'same-70']));
    expect(bySlug.size).toBe(70);
    // Free slugs below the suffixes looked up together (freeSlug's batches) and among them are taken first, in order.
    await a.batch(space.id, cr.id, [
      { operation: 'delete_page', page: bySlug.get('same-67')! },
      { operation: 'delete_page', page: bySlug.get('same-3')! },
      { operation: 'delete_page', page: bySlug.get('same')! },
    ]);
    await a.batch(space.id, cr.id, same(4));
    const slugs = (await a.pages(space.id, cr.id)).map((page) => page.slug);
    expect(slugs).toHaveLength(71);
    expect(new Set(slugs).size).toBe(71);
    expect(slugs.slice(-4)).toEqual(['same', 'same-3', 'same-67', 'same-71']);
  });

  it('writes a handful of map nodes per edit, however many pages the space has', async () => {
    const { space, cr } = await fixture();
    const nodes = () => h().platform.store.read(async (tx) => (await tx.list(TABLES.contentNodes, { index: INDEXES.contentNodesBySpace, value: space.id, limit: 0 })).count);
    for (let i = 0; i < 6; i++) {
      await a.batch(
        space.id,
        cr.id,
        Array.from({ length: 50 }, (_, j) => ({ operation: 'insert_page', title: `Page ${i * 50 + j}`, document: md(`Body ${i * 50 + j}`) })),
      );
    }
    const tree = await a.pages(space.id, cr.id);
    expect(tree.length).toBe(300);
    const before = await nodes();
    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: tree[150].id, document: md('Changed') }]);
    // One leaf and the root of the pages map (two levels at 300 pages); the other maps do not change.
    expect((await nodes()) - before).toBeLessThanOrEqual(3);
    const moved = await nodes();
    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: tree[10].id, at: 250 }]);
    expect((await nodes()) - moved).toBeLessThanOrEqual(8);
  });
});
