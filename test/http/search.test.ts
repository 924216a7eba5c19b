import { expect, it } from 'vitest';
import { authoring, md } from './authoring.js';
import { contentHelpers } from './content.js';
import { httpSuite, walkPages, type Caller } from './harness.js';

/**
 * Space search and organization search (`GET /v1/spaces/{spaceId}/search`, `GET /v1/orgs/{organizationId}/search`)
 * through both transports: content is published with change requests (authoring batch, then merge) and
 * searched; expectations are written out by hand from the documents each test publishes.
 */

httpSuite('search', (h) => {
  const a = authoring(h);
  const { team, grant } = contentHelpers(h);

  /** Publishes changes to a space's live content: a change request with one batch, merged. */
  async function publish(spaceId: string, changes: unknown[]) {
    const cr = await a.changeRequest(spaceId);
    await a.batch(spaceId, cr.id, changes);
    h().clock.advance(1000);
    const merged = await h().owner.post(`${a.changeRequestPath(spaceId, cr.id)}/merge`);
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.result).toBe('merge');
  }

  /** The live pages of a space by title → id. */
  async function pageIds(spaceId: string) {
    return Object.fromEntries(a.flatten(await a.pages(spaceId)).map((page) => [page.title, page.id as string]));
  }

  /** A space that members read only when granted (defaultLevel null). */
  async function closedSpace(title: string) {
    const space = await a.space({ title });
    expect((await h().owner.patch(`/v1/spaces/${space.id}`, { defaultLevel: null })).status).toBe(200);
    return space;
  }

  /** The app URL of a path of a space, on the origin the response used (it differs by transport). */
  const appUrl = (response: { body: any }, spaceId: string, path: string) => {
    const origin = new URL(JSON.stringify(response.body).match(/"app":"([^"]+)"/)![1]).origin;
    return `${origin}/app/s/${spaceId}/${path}`;
  };

  const spaceSearch = (spaceId: string, query: string, caller: Caller = h().owner, extra = '') =>
    caller.get(`/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}${extra}`);
  const orgSearch = (query: string, caller: Caller = h().owner, organizationId = h().organizationId, extra = '') =>
    caller.get(`/v1/orgs/${organizationId}/search?query=${encodeURIComponent(query)}${extra}`);

  /** The titles of a space search's hits, in order. */
  async function titles(spaceId: string, query: string) {
    const response = await spaceSearch(spaceId, query);
    expect(response.status, response.text).toBe(200);
    expect(response.body.count).toBe(response.body.items.length);
    return response.body.items.map((hit: any) => hit.title);
  }

  it('matches pages that contain most of the words, those with all of them first', async () => {
    const space = await a.space();
    await publish(space.id, [
      { operation: 'insert_page', title: 'Some charts', document: md('Use helm to plan a rollback of a release.') },
      { operation: 'insert_page', title: 'Cluster operations', document: md('Kubernetes with helm: how a rollback works.') },
      { operation: 'insert_page', title: 'Introduction', document: md('Kubernetes runs containers.') },
      { operation: 'insert_page', title: 'Unrelated', document: md('Nothing to see here.') },
    ]);
    // Three words: two of them are enough, one is not; all three rank above two.
    expect(await titles(space.id, 'kubernetes helm rollback')).toEqual(['Cluster operations', 'Some charts']);
    // Two words: either one is enough, and a page with both ranks first.
    expect((await titles(space.id, 'containers rollback')).sort()).toEqual(['Cluster operations', 'Introduction', 'Some charts']);
    expect(await titles(space.id, 'kubernetes containers')).toEqual(['Introduction', 'Cluster operations']);
    // Case, accents and punctuation do not matter; the last word is a prefix; a longer word takes a typo.
    expect(await titles(space.id, 'KUBERNÉTES, Contain')).toEqual(['Introduction', 'Cluster operations']);
    expect((await titles(space.id, 'rolback')).sort()).toEqual(['Cluster operations', 'Some charts']);
    expect(await titles(space.id, 'zebra')).toEqual([]);
  });

  it('ranks a title match above a body match, and the response has the hit fields', async () => {
    const space = await a.space();
    await publish(space.id, [
      { operation: 'insert_page', title: 'Mentions', document: md('A long page that mentions the zeppelin once among many other words of text.') },
      { operation: 'insert_page', title: 'Zeppelin', description: 'All about airships', document: md('Airships.') },
    ]);
    const ids = await pageIds(space.id);
    const response = await spaceSearch(space.id, 'zeppelin');
    expect(response.status).toBe(200);
    expect(response.body.count).toBe(2);
    expect(response.body.next).toBeUndefined();
    const [first, second] = response.body.items;
    expect(first).toEqual({
      id: ids.Zeppelin,
      title: 'Zeppelin',
      path: 'zeppelin',
      sections: [],
      urls: { app: appUrl(response, space.id, 'zeppelin') },
    });
    expect(second.id).toBe(ids.Mentions);
    // The description is searched too.
    expect(await titles(space.id, 'airships')).toEqual(['Zeppelin']);
  });

  it('ranks a title or heading match above a body match, however often the body says it', async () => {
    const space = await a.space();
    await publish(space.id, [
      { operation: 'insert_page', title: 'Often', description: 'zeppelin zeppelin', document: md('zeppelin zeppelin zeppelin zeppelin zeppelin.') },
      { operation: 'insert_page', title: 'Headed', document: md('An introduction of many words that say nothing of airships at all, for quite a while.\n\n## The zeppelin\n\nMore.') },
      { operation: 'insert_page', title: 'A long title that names the zeppelin among many other words', document: md('Nothing.') },
    ]);
    expect(await titles(space.id, 'zeppelin')).toEqual(['A long title that names the zeppelin among many other words', 'Headed', 'Often']);
  });

  it('finds computed OpenAPI pages by operation id, summary, path, parameter name and description, in space and organization search', async () => {
    const space = await a.space({ title: 'Reference' });
    const document = {
      openapi: '3.1.0',
      info: { title: 'Aviary', version: '1' },
      components: { parameters: { Wingspan: { name: 'wingspan', in: 'query', description: 'Minimum span in centimetres', schema: { type: 'integer' } } } },
      paths: {
        '/aviaries/{aviaryId}/parrots': {
          parameters: [{ name: 'aviaryId', in: 'path', required: true, description: 'Which aviary', schema: { type: 'string' } }],
          get: { operationId: 'listParrots', summary: 'Enumerate the cockatoos', parameters: [{ $ref: '#/components/parameters/Wingspan' }], responses: { '200': { description: 'OK' } } },
        },
      },
    };
    h().clock.advance(1000);
    expect((await h().owner.post(`/v1/orgs/${h().organizationId}/openapi`, { slug: 'aviary', source: { text: JSON.stringify(document) } })).status).toBe(201);
    await h().platform.settle();
    await publish(space.id, [
      { operation: 'insert_page', type: 'computed', title: 'Aviary API', computed: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'aviary' } } }, props: {} } },
      { operation: 'insert_page', title: 'Birds', document: md('Nothing about the API here.') },
    ]);
    const ids = await pageIds(space.id);
    for (const query of ['listParrots', 'cockatoos', 'aviaries parrots', 'aviaryId', 'wingspan', 'centimetres']) {
      expect(await titles(space.id, query), query).toEqual(['Aviary API']);
    }
    // The path is a heading of the page: its section is shown, with the heading's anchor.
    const byPath = await spaceSearch(space.id, 'parrots');
    expect(byPath.body.items[0]).toMatchObject({ id: ids['Aviary API'], sections: [{ title: 'GET /aviaries/{aviaryId}/parrots', path: expect.stringMatching(/^aviary-api#get/) }] });
    const org = await orgSearch('listParrots');
    expect(org.status).toBe(200);
    expect(org.body.items.map((item: any) => [item.title, item.pages.map((page: any) => page.title)])).toEqual([['Reference', ['Aviary API']]]);

    // A new version of the specification is what the next search finds.
    h().clock.advance(1000);
    expect((await h().owner.put(`/v1/orgs/${h().organizationId}/openapi/aviary`, { source: { text: JSON.stringify({ ...document, paths: { '/finches': { get: { operationId: 'listFinches', responses: { '200': { description: 'OK' } } } } } }) } })).status).toBe(200);
    await h().platform.settle();
    expect(await titles(space.id, 'listFinches')).toEqual(['Aviary API']);
    expect(await titles(space.id, 'listParrots')).toEqual([]);
  });

  it('splits pages into sections at headings, with anchors, paths and bounded bodies', async () => {
    const space = await a.space();
    const long = `${'filler '.repeat(100)}widget end`;
    await publish(space.id, [
      { operation: 'insert_page', ref: 'guide', title: 'Guide', document: md('Top text with a widget.\n\n## Install the widget\n\nRun the *widget* installer.\n\n## Configure\n\nNothing about it here.\n\n### Install the widget\n\nAgain the widget.\n\n## Long\n\n' + long + '\n') },
      { operation: 'insert_page', title: 'Setup', into: 'guide', document: md('No match.\n\n## Widget options\n\n- one\n- two\n') },
    ]);
    const response = await spaceSearch(space.id, 'widget');
    expect(response.status).toBe(200);
    const [guide, setup] = response.body.items;
    const app = (path: string) => appUrl(response, space.id, path);
    const byId = (hit: any) => Object.fromEntries(hit.sections.map((section: any) => [section.id, section]));
    const sections = byId(guide);
    expect(Object.keys(sections).sort()).toEqual([guide.id, 'install-the-widget', 'install-the-widget-1', 'long'].sort());
    // Best first: the word in a heading and in its text beats the word in text alone.
    expect(guide.sections.slice(0, 2).map((section: any) => section.id).sort()).toEqual(['install-the-widget', 'install-the-widget-1']);
    // The text before the first heading is the page's own section.
    expect(sections[guide.id]).toEqual({ id: guide.id, title: 'Guide', path: 'guide', body: 'Top text with a widget.', urls: { app: app('guide') } });
    expect(sections['install-the-widget']).toEqual({
      id: 'install-the-widget',
      title: 'Install the widget',
      path: 'guide#install-the-widget',
      body: 'Run the widget installer.',
      urls: { app: app('guide#install-the-widget') },
    });
    // A repeated heading gets the next anchor, as links resolve it; a deeper heading starts a section too.
    expect(sections['install-the-widget-1'].path).toBe('guide#install-the-widget-1');
    expect(sections['install-the-widget-1'].body).toBe('Again the widget.');
    // A long section shows its first 500 characters at most, cut between words.
    expect(sections.long.body.length).toBeLessThanOrEqual(500);
    expect(sections.long.body).toMatch(/^filler filler .*filler…$/);
    // A subpage: its path; a heading that matches, with its list as one line of text.
    expect(setup.path).toBe('guide/setup');
    expect(setup.sections).toEqual([
      { id: 'widget-options', title: 'Widget options', path: 'guide/setup#widget-options', body: 'one two', urls: { app: app('guide/setup#widget-options') } },
    ]);
  });

  it('leaves out noIndex pages and their subpages, and keeps hidden pages', async () => {
    const space = await a.space();
    await publish(space.id, [
      { operation: 'insert_page', title: 'Secret', noIndex: true, ref: 'secret', document: md('narwhal') },
      { operation: 'insert_page', title: 'Under secret', into: 'secret', document: md('narwhal') },
      { operation: 'insert_page', type: 'group', title: 'Closed group', noIndex: true, ref: 'group' },
      { operation: 'insert_page', title: 'In closed group', into: 'group', document: md('narwhal') },
      { operation: 'insert_page', title: 'Hidden', hidden: true, document: md('narwhal') },
      { operation: 'insert_page', title: 'Frontmatter', document: md('---\nnoIndex: true\n---\nnarwhal') },
      { operation: 'insert_page', type: 'link', title: 'Narwhal link', target: { kind: 'url', url: 'https://example.com' } },
    ]);
    expect(await titles(space.id, 'narwhal')).toEqual(['Hidden']);
    // Lifting noIndex brings the page and its subpages back.
    const ids = await pageIds(space.id);
    await publish(space.id, [{ operation: 'update_page', page: ids.Secret, noIndex: false }]);
    expect((await titles(space.id, 'narwhal')).sort()).toEqual(['Hidden', 'Secret', 'Under secret']);
    await publish(space.id, [{ operation: 'update_page', page: ids['Closed group'], noIndex: false }]);
    expect((await titles(space.id, 'narwhal')).sort()).toEqual(['Hidden', 'In closed group', 'Secret', 'Under secret']);
    await publish(space.id, [{ operation: 'update_page', page: ids.Secret, noIndex: true }]);
    expect((await titles(space.id, 'narwhal')).sort()).toEqual(['Hidden', 'In closed group']);
  });

  it('follows the space revision: edits show up in the next search, change requests do not', async () => {
    const space = await a.space();
    expect(await titles(space.id, 'platypus')).toEqual([]);
    await publish(space.id, [{ operation: 'insert_page', title: 'Animals', document: md('A platypus.') }]);
    expect(await titles(space.id, 'platypus')).toEqual(['Animals']);
    const ids = await pageIds(space.id);
    await publish(space.id, [{ operation: 'update_page', page: ids.Animals, title: 'Mammals', document: md('A wombat.') }]);
    expect(await titles(space.id, 'platypus')).toEqual([]);
    expect(await titles(space.id, 'wombat')).toEqual(['Mammals']);
    expect(await titles(space.id, 'animals')).toEqual([]);
    // An open change request is not the published content.
    const cr = await a.changeRequest(space.id);
    await a.batch(space.id, cr.id, [{ operation: 'insert_page', title: 'Draft', document: md('A quokka.') }]);
    expect(await titles(space.id, 'quokka')).toEqual([]);
    // Moving a page changes its path in hits; deleting it removes it.
    await publish(space.id, [{ operation: 'insert_page', title: 'Parent', document: md('x') }]);
    const moved = await pageIds(space.id);
    await publish(space.id, [{ operation: 'update_page', page: moved.Mammals, into: moved.Parent }]);
    const hit = (await spaceSearch(space.id, 'wombat')).body.items[0];
    // The slug stays the one the title gave at insert.
    expect(hit.path).toBe('parent/animals');
    await publish(space.id, [{ operation: 'delete_page', page: moved.Parent }]);
    expect(await titles(space.id, 'wombat')).toEqual([]);
  });

  it('pages through ranked hits, and refuses a cursor of other words or older content', async () => {
    const space = await a.space();
    await publish(
      space.id,
      Array.from({ length: 7 }, (_, i) => ({ operation: 'insert_page', title: `Page ${i}`, document: md(`${'ocelot '.repeat(i + 1)}text`) })),
    );
    const all = await spaceSearch(space.id, 'ocelot', h().owner, '&limit=1000');
    expect(all.body.count).toBe(7);
    const walked = await walkPages(h().owner, `/v1/spaces/${space.id}/search?query=ocelot`, 3);
    expect(walked.map((hit) => hit.id)).toEqual(all.body.items.map((hit: any) => hit.id));
    const first = await spaceSearch(space.id, 'ocelot', h().owner, '&limit=3');
    expect(first.body.count).toBe(7);
    expect(first.body.items).toHaveLength(3);
    const cursor = `&page=${encodeURIComponent(first.body.next.page)}`;
    const other = await spaceSearch(space.id, 'ocelot text', h().owner, cursor);
    expect(other.status).toBe(400);
    expect(other.body.error.message).toMatch(/^page: the results changed since this cursor was made/);
    await publish(space.id, [{ operation: 'insert_page', title: 'Another', document: md('ocelot') }]);
    const stale = await spaceSearch(space.id, 'ocelot', h().owner, cursor);
    expect(stale.status).toBe(400);
    const garbage = await spaceSearch(space.id, 'ocelot', h().owner, '&page=bm90LWEtY3Vyc29y');
    expect(garbage.status).toBe(400);
    expect(garbage.body.error.message).toBe('page: is not a cursor this API returned');
  });

  it('refuses a missing, empty, blank or too long query, and callers who may not read', async () => {
    const space = await a.space();
    await publish(space.id, [{ operation: 'insert_page', title: 'Page', document: md('text') }]);
    const before = await a.stored(space.id);
    for (const base of [`/v1/spaces/${space.id}/search`, `/v1/orgs/${h().organizationId}/search`]) {
      const missing = await h().owner.get(base);
      expect(missing.status).toBe(400);
      expect(missing.body.error.message).toMatch(/^query: /);
      for (const [query, message] of [
        ['', 'query: must not be empty'],
        ['   ', 'query: must not be only spaces'],
        ['x'.repeat(513), 'query: must be at most 512 characters'],
      ]) {
        const response = await h().owner.get(`${base}?query=${encodeURIComponent(query)}`);
        expect(response.status).toBe(400);
        expect(response.body.error.message).toBe(message);
      }
      expect((await h().owner.get(`${base}?query=${'x'.repeat(512)}`)).status).toBe(200);
      expect((await h().owner.get(`${base}?query=text&limit=0`)).status).toBe(400);
      expect((await h().request('GET', `${base}?query=text`)).status).toBe(401);
    }
    // A query of punctuation only has no words: nothing matches.
    expect((await spaceSearch(space.id, '?!')).body).toEqual({ items: [], count: 0 });
    const stranger = (await h().organization()).owner;
    expect((await spaceSearch(space.id, 'text', stranger)).status).toBe(404);
    expect((await orgSearch('text', stranger)).status).toBe(404);
    const reader = await h().user('read');
    const closed = await closedSpace('Closed');
    expect((await spaceSearch(closed.id, 'text', reader)).status).toBe(403);
    expect(await a.stored(space.id)).toEqual(before);
  });

  it('searches only the spaces the caller can read, grouped by space, best space first', async () => {
    const open = await a.space({ title: 'Open' });
    const closed = await closedSpace('Closed');
    const granted = await closedSpace('Granted');
    const deleted = await a.space({ title: 'Deleted' });
    await publish(open.id, [
      { operation: 'insert_page', title: 'Lynx', document: md('lynx and bobcat') },
      { operation: 'insert_page', title: 'Other', document: md('lynx') },
    ]);
    await publish(closed.id, [{ operation: 'insert_page', title: 'Closed lynx', document: md('lynx and bobcat') }]);
    await publish(granted.id, [{ operation: 'insert_page', title: 'Granted lynx', document: md('bobcat') }]);
    await publish(deleted.id, [{ operation: 'insert_page', title: 'Deleted lynx', document: md('lynx bobcat') }]);
    h().clock.advance(1000);
    expect((await h().owner.delete(`/v1/spaces/${deleted.id}`)).status).toBe(205);
    const reader = await h().user('read');
    await grant(granted.id, await team([reader.userId]), 'read');

    const response = await orgSearch('lynx bobcat', reader);
    expect(response.status).toBe(200);
    expect(response.body.count).toBe(2);
    const [first, second] = response.body.items;
    expect(first.id).toBe(open.id);
    expect(first.title).toBe('Open');
    expect(first.pages.map((page: any) => page.title)).toEqual(['Lynx', 'Other']);
    expect(first.pages[0].urls.app).toBe(appUrl(response, open.id, 'lynx'));
    expect(second).toMatchObject({ id: granted.id, title: 'Granted', pages: [{ title: 'Granted lynx', path: 'granted-lynx' }] });
    // The closed space matches too, but only its readers see it; the deleted one nobody does.
    const owner = await orgSearch('lynx bobcat');
    expect(owner.body.items.map((space: any) => space.title).sort()).toEqual(['Closed', 'Granted', 'Open']);
    // A guest sees only what it was granted.
    const guest = await h().user(null);
    expect((await orgSearch('lynx', guest)).body).toEqual({ items: [], count: 0 });
    await grant(open.id, await team([guest.userId], 'Guests'), 'read', 'guest-grant');
    expect((await orgSearch('lynx', guest)).body.items.map((space: any) => space.id)).toEqual([open.id]);
    // Another organization's content never shows.
    const other = await h().organization();
    expect((await orgSearch('lynx', other.owner, other.organizationId)).body).toEqual({ items: [], count: 0 });
  });

  it('pages through the spaces of an organization search', async () => {
    const spaces = [];
    for (let i = 0; i < 3; i++) {
      const space = await a.space({ title: `Space ${i}` });
      await publish(space.id, [{ operation: 'insert_page', title: `Page ${i}`, document: md('heron') }]);
      spaces.push(space.id);
    }
    const walked = await walkPages(h().owner, `/v1/orgs/${h().organizationId}/search?query=heron`, 2);
    expect(walked.map((space) => space.id).sort()).toEqual([...spaces].sort());
    const first = await orgSearch('heron', h().owner, h().organizationId, '&limit=2');
    expect(first.body.count).toBe(3);
    const cursor = `&page=${encodeURIComponent(first.body.next.page)}`;
    await publish(spaces[0], [{ operation: 'insert_page', title: 'More', document: md('heron') }]);
    expect((await orgSearch('heron', h().owner, h().organizationId, cursor)).status).toBe(400);
  });
});
