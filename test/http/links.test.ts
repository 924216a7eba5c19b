import { expect, it } from 'vitest';
import { expectRefusals } from './bad-input.js';
import { authoring, md } from './authoring.js';
import { httpSuite } from './harness.js';

/**
 * Links (`GET /v1/spaces/{id}/links`, `.../content/page/{pageId}/links`, `.../content/files/{fileId}/backlinks`,
 * the last two for change requests too): each kind of link rated ok, broken or in-app, anchors checked
 * against heading anchors, one entry per target with every page linking to it, the status filter,
 * stats, pagination, backlinks, a change request's own revision against the space's, 404s and bad queries.
 */

httpSuite('links', (h) => {
  const a = authoring(h);

  /** The Markdown of the Guide page: one link of every kind (`app`: a URL into the platform's app). */
  const guide = (app: string) =>
    [
      'Intro with [setup](./setup) and [setup again](./setup.md).',
      '## Install',
      'See [the setup section](./setup#setup), [a missing section](./setup#nowhere) and [below](#install-1).',
      '## Install',
      '![logo](./logo) [no such heading](#missing) [gone](/pages/nosuchpage) [no file](/files/nosuchfile)',
      `[relative](./missing.md) [site](https://example.com/docs) [mail](mailto:team@example.com) [app](${app})`,
    ].join('\n\n');

  const SETUP = ['## Setup', 'Back to the [guide](./guide#install), see ![logo](./logo).', '[a reference][def]', '[def]: https://example.com/docs'].join('\n\n');

  /**
   * A space whose change request holds Guide, Setup, a link page and a group, and two files (one used
   * by both documents, one by none). Returns ids and the app URL the in-app link uses.
   */
  async function fixture() {
    const space = await a.space();
    const app = `${space.urls.app}/some/page`;
    const cr = await a.changeRequest(space.id);
    const made = await a.batchWithChanges(space.id, cr.id, [
      {
        operation: 'insert_files',
        files: [
          { ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: btoa('png') },
          { ref: 'unused', name: 'unused.txt', contentType: 'text/plain', base64: btoa('x') },
        ],
      },
      { operation: 'insert_page', ref: 'guide', title: 'Guide', document: md(guide(app)) },
      { operation: 'insert_page', ref: 'setup', title: 'Setup', document: md(SETUP) },
      { operation: 'insert_page', title: 'Elsewhere', type: 'link', target: { kind: 'url', url: 'https://example.org/' } },
      { operation: 'insert_page', title: 'Section', type: 'group' },
    ]);
    const tree = await a.pages(space.id, cr.id);
    const ids = {
      guide: a.byTitle(tree, 'Guide').id as string,
      setup: a.byTitle(tree, 'Setup').id as string,
      elsewhere: a.byTitle(tree, 'Elsewhere').id as string,
      section: a.byTitle(tree, 'Section').id as string,
      logo: made.insertedFiles[0].id as string,
      unused: made.insertedFiles[1].id as string,
    };
    return { space, cr, app, ids, revision: made.changeRequest.revision as string };
  }

  /** Merges a change request into its space and returns the space's new revision. */
  async function merge(spaceId: string, crId: string) {
    h().clock.advance(1000);
    const merged = await h().owner.post(`${a.changeRequestPath(spaceId, crId)}/merge`);
    expect(merged.status, merged.text).toBe(200);
    return merged.body.revision as string;
  }

  /** Builds the expected references of a list read in one revision. */
  const refs = (organization: string, space: string, revision: string) => {
    const versionContext = { type: 'revision', revision };
    const page = (id: string, anchor?: string) => ({
      kind: 'page',
      organization,
      space,
      versionContext,
      page: id,
      ...(anchor !== undefined && { internalLocation: { type: 'anchor', anchor } }),
    });
    const file = (id: string) => ({ kind: 'file', organization, space, versionContext, file: id });
    const url = (href: string) => ({ kind: 'url', url: href });
    /** An entry; its sort key is pages (by id, then anchor), then files (by id), then URLs. */
    const entry = (status: string, target: any, locations: string[]) => ({
      status,
      relation: 'reference',
      targetReference: target,
      locationReferences: [...locations].sort().map((id) => page(id)),
    });
    return { page, file, url, entry };
  };

  /** The documented order of entries: pages by id then anchor, files by id, URLs by text (code units). */
  function sorted(entries: any[]) {
    const key = (entry: any) => {
      const target = entry.targetReference;
      if (target.kind === 'page') return `1\u0000${target.page}\u0000${target.internalLocation?.anchor ?? ''}`;
      if (target.kind === 'file') return `2\u0000${target.file}`;
      return `3\u0000${target.url}`;
    };
    return [...entries].sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
  }

  /** The Guide page's entries in a revision where Setup and the logo exist. */
  function guideEntries(r: ReturnType<typeof refs>, ids: Awaited<ReturnType<typeof fixture>>['ids'], app: string) {
    const at = [ids.guide];
    return sorted([
      r.entry('ok', r.page(ids.setup), at),
      r.entry('ok', r.page(ids.setup, 'setup'), at),
      r.entry('broken', r.page(ids.setup, 'nowhere'), at),
      r.entry('ok', r.page(ids.guide, 'install-1'), at),
      r.entry('broken', r.page(ids.guide, 'missing'), at),
      r.entry('broken', r.page('nosuchpage'), at),
      r.entry('ok', r.file(ids.logo), at),
      r.entry('broken', r.file('nosuchfile'), at),
      r.entry('broken', r.url('./missing.md'), at),
      r.entry('ok', r.url('https://example.com/docs'), at),
      r.entry('ok', r.url('mailto:team@example.com'), at),
      r.entry('in-app', r.url(app), at),
    ]);
  }

  it('rates every kind of link of a change request page, one entry per target, with stats', async () => {
    const { space, cr, app, ids, revision } = await fixture();
    const r = refs(h().organizationId, space.id, revision);
    const response = await h().owner.get(`${a.contentOf(space.id, cr.id)}/page/${ids.guide}/links`);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      items: guideEntries(r, ids, app),
      count: 12,
      // Nothing was broken in the request's base (the page did not exist there): all 5 are the request's.
      stats: { total: 12, broken: { total: 5, changeRequest: 5 } },
    });
    // A link page links to its target; a group links nowhere.
    const link = await h().owner.get(`${a.contentOf(space.id, cr.id)}/page/${ids.elsewhere}/links`);
    expect(link.body).toEqual({ items: [r.entry('ok', r.url('https://example.org/'), [ids.elsewhere])], count: 1, stats: { total: 1, broken: { total: 0, changeRequest: 0 } } });
    const group = await h().owner.get(`${a.contentOf(space.id, cr.id)}/page/${ids.section}/links`);
    expect(group.body).toEqual({ items: [], count: 0, stats: { total: 0, broken: { total: 0, changeRequest: 0 } } });
  });

  it("lists a space's links with every page linking to each target, and filters by status without changing stats", async () => {
    const { space, cr, app, ids } = await fixture();
    const revision = await merge(space.id, cr.id);
    const r = refs(h().organizationId, space.id, revision);
    const both = [ids.guide, ids.setup];
    const expected = sorted([
      ...guideEntries(r, ids, app).filter((entry) => !['https://example.com/docs'].includes(entry.targetReference.url) && entry.targetReference.file !== ids.logo),
      r.entry('ok', r.file(ids.logo), both),
      r.entry('ok', r.url('https://example.com/docs'), both),
      r.entry('ok', r.page(ids.guide, 'install'), [ids.setup]),
      r.entry('ok', r.url('https://example.org/'), [ids.elsewhere]),
    ]);
    const stats = { total: 14, broken: { total: 5 } };
    const all = await h().owner.get(`/v1/spaces/${space.id}/links?limit=1000`);
    expect(all.status, all.text).toBe(200);
    expect(all.body).toEqual({ items: expected, count: 14, stats });
    for (const status of ['ok', 'broken', 'in-app']) {
      const kept = await h().owner.get(`/v1/spaces/${space.id}/links?status=${status}`);
      const items = expected.filter((entry) => entry.status === status);
      expect(kept.body, status).toEqual({ items, count: items.length, stats });
    }
    // The space's own page list has no change request count.
    const page = await h().owner.get(`/v1/spaces/${space.id}/content/page/${ids.guide}/links`);
    expect(page.body).toEqual({ items: guideEntries(r, ids, app), count: 12, stats: { total: 12, broken: { total: 5 } } });
  });

  it('pages through links and backlinks with cursors, filtered or not', async () => {
    const { space, cr, ids } = await fixture();
    await merge(space.id, cr.id);
    const all = (await h().owner.get(`/v1/spaces/${space.id}/links?limit=1000`)).body.items;
    for (const [query, total] of [
      ['limit=5', 14],
      ['limit=2&status=broken', 5],
      ['limit=1&status=in-app', 1],
    ] as const) {
      const walked: unknown[] = [];
      let path = `/v1/spaces/${space.id}/links?${query}`;
      for (;;) {
        const response = await h().owner.get(path);
        expect(response.status, response.text).toBe(200);
        expect(response.body.count).toBe(total);
        expect(response.body.stats).toEqual({ total: 14, broken: { total: 5 } });
        walked.push(...response.body.items);
        if (!response.body.next) break;
        path = `/v1/spaces/${space.id}/links?${query}&page=${response.body.next.page}`;
      }
      const status = /status=([a-z-]+)/.exec(query)?.[1];
      expect(walked, query).toEqual(all.filter((entry: any) => status === undefined || entry.status === status));
    }
    const first = await h().owner.get(`/v1/spaces/${space.id}/content/files/${ids.logo}/backlinks?limit=1`);
    expect(first.body.count).toBe(2);
    const second = await h().owner.get(`/v1/spaces/${space.id}/content/files/${ids.logo}/backlinks?limit=1&page=${first.body.next.page}`);
    expect([...first.body.items, ...second.body.items].map((item: any) => item.page)).toEqual([ids.guide, ids.setup].sort());
    expect(second.body.next).toBeUndefined();
  });

  it("lists a file's backlinks: the pages that link to or show it, with the revision read", async () => {
    const { space, cr, ids, revision } = await fixture();
    const onRequest = refs(h().organizationId, space.id, revision);
    const backlinks = await h().owner.get(`${a.contentOf(space.id, cr.id)}/files/${ids.logo}/backlinks`);
    expect(backlinks.body).toEqual({ items: [ids.guide, ids.setup].sort().map((id) => onRequest.page(id)), count: 2 });
    const none = await h().owner.get(`${a.contentOf(space.id, cr.id)}/files/${ids.unused}/backlinks`);
    expect(none.body).toEqual({ items: [], count: 0 });
    // The space has neither file until the request is merged.
    expect((await h().owner.get(`/v1/spaces/${space.id}/content/files/${ids.logo}/backlinks`)).status).toBe(404);
    const spaceRevision = await merge(space.id, cr.id);
    const onSpace = refs(h().organizationId, space.id, spaceRevision);
    const merged = await h().owner.get(`/v1/spaces/${space.id}/content/files/${ids.logo}/backlinks`);
    expect(merged.body).toEqual({ items: [ids.guide, ids.setup].sort().map((id) => onSpace.page(id)), count: 2 });
  });

  it("reads a change request's own revision: its edits show there, not in the space, and stats count what it broke", async () => {
    const { space, cr, app, ids } = await fixture();
    const spaceRevision = await merge(space.id, cr.id);
    const next = await a.changeRequest(space.id);
    // Nothing changed yet: the request's page list equals the space's, and it broke nothing.
    const untouched = await h().owner.get(`${a.contentOf(space.id, next.id)}/page/${ids.guide}/links`);
    expect(untouched.body.stats).toEqual({ total: 12, broken: { total: 5, changeRequest: 0 } });
    // The stored body has its links resolved to ids already (batch refs only live in their batch).
    const stored = (await a.page(space.id, next.id, ids.guide)).markdown as string;
    const edited = stored.replace('[no such heading](#missing)', '[another](#another)');
    expect(edited).not.toBe(stored);
    const after = await a.batch(space.id, next.id, [
      { operation: 'update_page', page: ids.guide, document: md(edited) },
      { operation: 'delete_page', page: ids.setup },
    ]);
    const r = refs(h().organizationId, space.id, after.revision);
    const at = [ids.guide];
    const response = await h().owner.get(`${a.contentOf(space.id, next.id)}/page/${ids.guide}/links`);
    // Setup is gone (so are links to it and its anchor), and #missing became #another.
    const expected = guideEntries(r, ids, app).map((entry) => {
      const target = entry.targetReference as { page?: string; internalLocation?: { anchor: string } };
      if (target.page === ids.setup) return { ...entry, status: 'broken' };
      if (target.internalLocation?.anchor === 'missing') return r.entry('broken', r.page(ids.guide, 'another'), at);
      return entry;
    });
    expect(response.body.items).toEqual(sorted(expected));
    // Broken now: 7. Broken in the base too: setup#nowhere, nosuchpage, nosuchfile, ./missing.md (#missing
    // is gone). New: Setup itself and its anchor (the page was deleted) and #another.
    expect(response.body.stats).toEqual({ total: 12, broken: { total: 7, changeRequest: 3 } });
    expect((await h().owner.get(`${a.contentOf(space.id, next.id)}/page/${ids.setup}/links`)).status).toBe(404);
    const backlinks = await h().owner.get(`${a.contentOf(space.id, next.id)}/files/${ids.logo}/backlinks`);
    expect(backlinks.body).toEqual({ items: [r.page(ids.guide)], count: 1 });
    // The space is untouched.
    const onSpace = refs(h().organizationId, space.id, spaceRevision);
    expect((await h().owner.get(`/v1/spaces/${space.id}/content/page/${ids.guide}/links`)).body).toEqual({
      items: guideEntries(onSpace, ids, app),
      count: 12,
      stats: { total: 12, broken: { total: 5 } },
    });
    expect((await h().owner.get(`/v1/spaces/${space.id}/links`)).body.stats).toEqual({ total: 14, broken: { total: 5 } });
  });

  it('matches anchors as headings make them: repeats numbered, case kept, percent-encoding decoded', async () => {
    const space = await a.space();
    const cr = await a.changeRequest(space.id);
    const body = [
      '## Über uns',
      '## FAQ',
      '## FAQ',
      '[a](#%C3%BCber-uns) [b](#über-uns) [c](#Über-uns) [d](#faq-1) [e](#faq-2) [f](#) [g](/pages/nosuchpage#faq)',
    ].join('\n\n');
    const after = await a.batch(space.id, cr.id, [{ operation: 'insert_page', title: 'About', document: md(body) }]);
    const [page] = await a.pages(space.id, cr.id);
    const response = await h().owner.get(`${a.contentOf(space.id, cr.id)}/page/${page.id}/links`);
    const status = Object.fromEntries(
      response.body.items.map((item: any) => [item.targetReference.internalLocation?.anchor ?? `${item.targetReference.page}`, item.status]),
    );
    expect(status).toEqual({
      '%C3%BCber-uns': 'ok',
      'über-uns': 'ok',
      'Über-uns': 'broken',
      'faq-1': 'ok',
      'faq-2': 'broken',
      // `#` alone is the page itself.
      [page.id]: 'ok',
      faq: 'broken',
    });
    expect(response.body.items.every((item: any) => item.targetReference.versionContext.revision === after.revision)).toBe(true);
  });

  it('answers 404 for a missing space, change request, page or file, and for non-members; readers may list', async () => {
    const { space, cr, ids } = await fixture();
    const cases = [
      '/v1/spaces/nope/links',
      `/v1/spaces/nope/content/page/${ids.guide}/links`,
      `/v1/spaces/${space.id}/content/page/${ids.guide}/links`, // only in the request until merged
      `${a.contentOf(space.id, cr.id)}/page/nope/links`,
      `${a.contentOf(space.id, 'nope')}/page/${ids.guide}/links`,
      `${a.contentOf(space.id, cr.id)}/files/nope/backlinks`,
      `${a.contentOf(space.id, 'nope')}/files/${ids.logo}/backlinks`,
      `/v1/spaces/${space.id}/content/files/nope/backlinks`,
    ];
    for (const path of cases) expect((await h().owner.get(path)).status, path).toBe(404);
    const stranger = (await h().organization()).owner;
    expect((await stranger.get(`/v1/spaces/${space.id}/links`)).status).toBe(404);
    expect((await stranger.get(`${a.contentOf(space.id, cr.id)}/page/${ids.guide}/links`)).status).toBe(404);
    expect((await h().request('GET', `/v1/spaces/${space.id}/links`)).status).toBe(401);
    const reader = await h().user('read');
    expect((await reader.get(`/v1/spaces/${space.id}/links`)).status).toBe(200);
    expect((await reader.get(`${a.contentOf(space.id, cr.id)}/files/${ids.logo}/backlinks`)).body.count).toBe(2);
  });

  it('refuses bad query values with 400 and changes nothing', async () => {
    const { space, cr, ids } = await fixture();
    const before = await a.stored(space.id);
    const notOurs = btoa(JSON.stringify([3])).replace(/=+$/, '');
    for (const path of [`/v1/spaces/${space.id}/links`, `${a.contentOf(space.id, cr.id)}/page/${ids.guide}/links`]) {
      await expectRefusals((query: string) => h().owner.get(`${path}?${query}`), [
        ['status=bogus', /^status: must be \("ok" \| "broken" \| "in-app"\), not "bogus"$/],
        ['limit=0', /^limit: /],
        ['limit=1001', /^limit: /],
        ['limit=ten', /^limit: /],
        ['page=%%%', /^page: is not a cursor this API returned$/],
        [`page=${notOurs}`, /^page: is not a cursor this API returned$/],
      ]);
    }
    await expectRefusals((query: string) => h().owner.get(`${a.contentOf(space.id, cr.id)}/files/${ids.logo}/backlinks?${query}`), [
      ['limit=0', /^limit: /],
      [`page=${notOurs}`, /^page: is not a cursor this API returned$/],
    ]);
    expect(await a.stored(space.id)).toEqual(before);
  });
});
