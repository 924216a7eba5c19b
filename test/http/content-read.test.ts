import { expect, it } from 'vitest';
import { DEFAULT_LAYOUT } from '../../src/core/content/page-layout.js';
import { authoring, md } from './authoring.js';
import { httpSuite } from './harness.js';

/** Reading content: the revision, the page tree, one page by id or path, in both formats, for spaces and change requests. */

const DOCUMENT_KEYS = ['createdAt', 'documentId', 'git', 'hidden', 'id', 'kind', 'layout', 'noIndex', 'noRobotsIndex', 'pages', 'path', 'slug', 'tags', 'title', 'type', 'updatedAt', 'urls'];

httpSuite('content reads', (h) => {
  const a = authoring(h);

  /** A space whose change request has a small tree: Guide > (Install, Setup), and FAQ. */
  async function fixture() {
    const space = await a.space({ visibility: undefined });
    const cr = await a.changeRequest(space.id);
    await a.batch(space.id, cr.id, [
      { operation: 'insert_page', ref: 'guide', title: 'Guide', emoji: '📘', description: 'Start here', document: md('Read **this**.\n\n## Next steps\n\nGo on.') },
      { operation: 'insert_page', title: 'Install', into: 'guide', document: md('npm i') },
      { operation: 'insert_page', title: 'Setup', into: 'guide', document: {} },
      { operation: 'insert_page', title: 'FAQ', document: md('Questions.'), hidden: true },
    ]);
    const tree = await a.pages(space.id, cr.id);
    return { space, cr, tree, guide: a.byTitle(tree, 'Guide'), install: a.byTitle(tree, 'Install'), setup: a.byTitle(tree, 'Setup'), faq: a.byTitle(tree, 'FAQ') };
  }

  it('reads the empty first revision of a new space', async () => {
    const space = await a.space();
    const content = await h().owner.get(a.contentOf(space.id));
    expect(content.status).toBe(200);
    expect(content.body).toEqual({
      object: 'revision',
      id: space.revision,
      parents: [],
      pages: [],
      files: [],
      reusableContents: [],
      createdAt: space.createdAt,
      type: 'edits',
      urls: { app: expect.stringMatching(new RegExp(`/app/s/${space.id}/~/revisions/${space.revision}$`)) },
    });
    expect(await a.pages(space.id)).toEqual([]);
    expect((await h().owner.get(`${a.contentOf(space.id)}/files`)).body).toEqual({ items: [], count: 0 });
  });

  it('lists the page tree nested, with pages: [] on every document and group, and no bodies', async () => {
    const { space, cr, tree, guide, install, setup } = await fixture();
    expect(a.outline(tree)).toEqual([
      ['Guide', 'guide', [['Install', 'guide/install'], ['Setup', 'guide/setup']]],
      ['FAQ', 'faq'],
    ]);
    expect(Object.keys(guide).sort()).toEqual([...DOCUMENT_KEYS, 'description', 'emoji'].sort());
    expect(guide).toMatchObject({
      type: 'document',
      title: 'Guide',
      emoji: '📘',
      description: 'Start here',
      slug: 'guide',
      path: 'guide',
      hidden: false,
      noIndex: false,
      noRobotsIndex: false,
      git: { oid: expect.stringMatching(/^[0-9a-f]{40}$/), path: 'guide/README.md' },
      urls: { app: expect.stringMatching(new RegExp(`/app/s/${space.id}/~/changes/${cr.number}/guide$`)) },
      kind: 'sheet',
      tags: [],
      layout: DEFAULT_LAYOUT,
    });
    expect(install.pages).toEqual([]);
    expect(install.git.path).toBe('guide/install.md');
    // A page without a body has no documentId; its git oid is the empty blob's.
    expect(setup.documentId).toBeUndefined();
    expect(setup.git.oid).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
    expect(a.flatten(tree).some((page) => 'markdown' in page || 'document' in page)).toBe(false);
    expect(a.byTitle(tree, 'FAQ').hidden).toBe(true);
    // The revision holds the same tree.
    const content = await h().owner.get(a.contentOf(space.id, cr.id));
    expect(content.body.pages).toEqual(tree);
    expect(content.body.parents).toEqual([space.revision]);
  });

  it('omits git metadata with metadata=false, everywhere', async () => {
    const { space, cr, guide } = await fixture();
    const tree = await a.pages(space.id, cr.id, '?metadata=false');
    expect(a.flatten(tree).every((page) => page.git === undefined)).toBe(true);
    const { git: _git, ...rest } = guide;
    expect(tree[0]).toEqual({ ...rest, pages: tree[0].pages });
    expect((await a.page(space.id, cr.id, guide.id, '?metadata=false')).git).toBeUndefined();
    expect((await h().owner.get(`${a.contentOf(space.id, cr.id)}?metadata=false`)).body.pages).toEqual(tree);
    expect((await h().owner.get(`${a.contentOf(space.id, cr.id)}/pages?metadata=maybe`)).status).toBe(400);
  });

  it('reads one page by id with its subpages and its Markdown, or its JSON document with format=document', async () => {
    const { space, cr, guide, install } = await fixture();
    const page = await a.page(space.id, cr.id, guide.id);
    expect(page).toEqual({ ...guide, markdown: 'Read **this**.\n\n## Next steps\n\nGo on.\n' });
    const document = await a.page(space.id, cr.id, guide.id, '?format=document');
    expect(document.markdown).toBeUndefined();
    expect(document.document).toEqual({
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          key: 'k1',
          data: {},
          nodes: [
            {
              object: 'text',
              leaves: [
                { object: 'leaf', text: 'Read ', marks: [] },
                { object: 'leaf', text: 'this', marks: [{ object: 'mark', type: 'bold' }] },
                { object: 'leaf', text: '.', marks: [] },
              ],
            },
          ],
        },
        { object: 'block', type: 'heading-2', key: 'k2', data: {}, meta: { id: 'next-steps' }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Next steps', marks: [] }] }] },
        { object: 'block', type: 'paragraph', key: 'k3', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Go on.', marks: [] }] }] },
      ],
    });
    expect((await a.page(space.id, cr.id, install.id, '?format=markdown')).markdown).toBe('npm i\n');
    expect((await h().owner.get(`${a.contentOf(space.id, cr.id)}/page/${guide.id}?format=html`)).status).toBe(400);
  });

  it('reads one page by path, with its slashes encoded, and 404s for unknown ids and paths', async () => {
    const { space, cr, install } = await fixture();
    const byId = await a.page(space.id, cr.id, install.id);
    for (const path of ['guide%2Finstall', '%2Fguide%2Finstall%2F']) {
      const byPath = await h().owner.get(`${a.contentOf(space.id, cr.id)}/path/${path}`);
      expect(byPath.status).toBe(200);
      expect(byPath.body).toEqual(byId);
    }
    const missing = await h().owner.get(`${a.contentOf(space.id, cr.id)}/path/guide%2Fnope`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('No page at path guide/nope in change request 1');
    const unknown = await h().owner.get(`${a.contentOf(space.id, cr.id)}/page/nope`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('No page nope in change request 1');
    // The space has none of the request's pages.
    expect((await h().owner.get(`${a.contentOf(space.id)}/page/${install.id}`)).body.error.message).toBe(`No page ${install.id} in space ${space.id}`);
  });

  it('reads a space and its change request with the same queries and responses', async () => {
    const { space, cr, guide } = await fixture();
    // Point the space at the request's revision, as a merge would, and compare the two reads.
    await a.moveSpaceTo(space.id, (await h().owner.get(a.changeRequestPath(space.id, cr.id))).body.revision);
    const strip = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll(`/~/changes/${cr.number}`, ''));
    expect(strip(await a.pages(space.id, cr.id))).toEqual(await a.pages(space.id));
    expect(strip(await a.page(space.id, cr.id, guide.id, '?format=document'))).toEqual(await a.page(space.id, undefined, guide.id, '?format=document'));
    const spaceContent = (await h().owner.get(a.contentOf(space.id))).body;
    const requestContent = (await h().owner.get(a.contentOf(space.id, cr.number))).body;
    expect(strip(requestContent)).toEqual(spaceContent);
  });

  it('keeps old revisions as they were: a change request edit leaves its earlier revision readable', async () => {
    const { space, cr, guide } = await fixture();
    const first = (await h().owner.get(a.changeRequestPath(space.id, cr.id))).body.revision;
    await a.batch(space.id, cr.id, [{ operation: 'update_page', page: guide.id, title: 'Handbook', document: md('New body') }]);
    await a.moveSpaceTo(space.id, first);
    const old = await a.page(space.id, undefined, guide.id);
    expect([old.title, old.markdown]).toEqual(['Guide', 'Read **this**.\n\n## Next steps\n\nGo on.\n']);
    const now = await a.page(space.id, cr.id, guide.id);
    expect([now.title, now.markdown, now.createdAt === old.createdAt, now.updatedAt > old.updatedAt]).toEqual(['Handbook', 'New body\n', true, true]);
  });

  it('lets every reader of the space read its content, and nobody outside it', async () => {
    const { space, cr, guide } = await fixture();
    const reader = await h().user('read');
    const outsider = await h().organization();
    for (const path of [a.contentOf(space.id), `${a.contentOf(space.id, cr.id)}/pages`, `${a.contentOf(space.id, cr.id)}/page/${guide.id}`, `${a.contentOf(space.id)}/files`]) {
      expect((await reader.get(path)).status, path).toBe(200);
      expect((await outsider.owner.get(path)).status, path).toBe(404);
      expect((await h().request('GET', path)).status, path).toBe(401);
    }
    const restricted = await a.space({ title: 'Secret' });
    await h().owner.patch(a.spaces(restricted.id), { defaultLevel: null });
    const denied = await reader.get(a.contentOf(restricted.id));
    expect(denied.status).toBe(403);
  });

  it('expands computed pages from an OpenAPI specification, and shows their source with computed=false', async () => {
    const org = `/v1/orgs/${h().organizationId}`;
    const ok = { '200': { description: 'OK' } };
    const spec = JSON.stringify({
      openapi: '3.0.0',
      info: { title: 'Pets', version: '1', description: 'The pet store.' },
      paths: { '/pets': { get: { summary: 'List pets', responses: ok }, post: { summary: 'Add a pet', responses: ok } } },
    });
    expect((await h().owner.post(`${org}/openapi`, { slug: 'pets', source: { text: spec } })).status).toBe(201);
    await h().platform.settle();
    const space = await a.space();
    const cr = await a.changeRequest(space.id);
    const source = { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } }, props: { models: true } };
    await a.batch(space.id, cr.id, [{ operation: 'insert_page', type: 'computed', title: 'API', computed: source }]);
    const [expanded] = await a.pages(space.id, cr.id);
    expect(expanded).toMatchObject({ type: 'document', title: 'API', path: 'api', computed: source, computedSeed: expect.any(String), pages: [] });
    const page = await a.page(space.id, cr.id, expanded.id);
    const responses = '**Responses**\n\n**`200`**: OK\n';
    expect(page.markdown).toBe(`The pet store.\n\n## GET \`/pets\`\n\nList pets\n\n${responses}\n## POST \`/pets\`\n\nAdd a pet\n\n${responses}`);
    const [stored] = await a.pages(space.id, cr.id, '?computed=false');
    expect(stored).toEqual({
      id: expanded.id,
      title: 'API',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      type: 'computed',
      slug: 'api',
      path: 'api',
      computed: source,
      hidden: false,
    });
    // By path only documents and groups are found: the expanded page is one, the stored source is not.
    expect((await h().owner.get(`${a.contentOf(space.id, cr.id)}/path/api`)).body.markdown).toBe(page.markdown);
    expect((await h().owner.get(`${a.contentOf(space.id, cr.id)}/path/api?computed=false`)).status).toBe(404);
    const refused = await a.send(space.id, cr.id, [{ operation: 'insert_page', type: 'computed', title: 'X', computed: { ...source, dependencies: { spec: { ref: { kind: 'openapi', spec: 'nope' } } } } }]);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe('changes[0] (insert_page): computed: no OpenAPI specification nope in this organization');
  });
});
