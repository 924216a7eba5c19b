import { expect, it } from 'vitest';
import { httpSuite } from './harness.js';
import { DEFAULT_CUSTOMIZATION, siteHelpers } from './site-helpers.js';

/** The published site: the site, its structure in order, and its customizations with their defaults. */

const DEFAULT_CUSTOMIZATIONS = (title: string) => ({ site: { ...DEFAULT_CUSTOMIZATION, title }, siteSpaces: {} });

httpSuite('published site', (h) => {
  const { site, ok, createSite, spaces, addSection, addSiteSpace, addGroup, published } = siteHelpers(h);

  it('gives a site without sections as its site spaces in order, with the site and the default customizations', async () => {
    const [a, b] = await spaces('Alpha', 'Beta');
    const created = await createSite({ title: 'Handbook', spaces: [a, b] });
    const body = await published(created.id);
    expect(Object.keys(body).sort()).toEqual(['customizations', 'object', 'site', 'structure']);
    expect(body.object).toBe('published-content-site');
    expect(body.site).toEqual(ok(await h().owner.get(site(created.id))));
    expect(body.customizations).toEqual(DEFAULT_CUSTOMIZATIONS('Handbook'));
    expect(body.structure.type).toBe('siteSpaces');
    expect(body.structure.structure).toEqual(ok(await h().owner.get(`${site(created.id)}/site-spaces`)).items);
    expect(body.structure.structure.map((item: any) => [item.space.id, item.default])).toEqual([
      [a, true],
      [b, false],
    ]);
    // The customizations follow the site's title.
    ok(await h().owner.patch(site(created.id), { title: 'Renamed' }));
    expect((await published(created.id)).customizations).toEqual(DEFAULT_CUSTOMIZATIONS('Renamed'));
    const empty = await published((await createSite()).id);
    expect(empty.structure).toEqual({ type: 'siteSpaces', structure: [] });
  });

  it('gives a site with sections as its top level: ungrouped sections and groups with their sections, in order', async () => {
    const ids = await spaces('A', 'B', 'C', 'D');
    const created = await createSite();
    const first = await addSection(created.id, ids[0], 'First');
    const second = await addSection(created.id, ids[1], 'Second');
    const third = await addSection(created.id, ids[2], 'Third');
    const extra = await addSiteSpace(created.id, ids[3], second.id);
    const group = await addGroup(created.id, { title: 'Group', icon: 'folder', sections: [third.id, second.id] });
    ok(await h().owner.post(`${site(created.id)}/section-groups/${group.id}/move`, { position: { before: { type: 'site-section', id: first.id } } }));
    const { structure } = await published(created.id);
    expect(structure.type).toBe('sections');
    expect(structure.structure.map((entry: any) => [entry.object, entry.id])).toEqual([
      ['site-section-group', group.id],
      ['site-section', first.id],
    ]);
    const [groupEntry, firstEntry] = structure.structure;
    expect(groupEntry).toEqual(ok(await h().owner.get(`${site(created.id)}/section-groups`)).items[0]);
    expect(groupEntry.sections.map((section: any) => section.id)).toEqual([third.id, second.id]);
    expect(groupEntry.sections[1].siteSpaces.map((item: any) => [item.id, item.default])).toEqual([
      [second.siteSpaces[0].id, true],
      [extra.id, false],
    ]);
    expect(firstEntry).toMatchObject({ id: first.id, default: true, title: 'First' });
    expect(firstEntry.sectionGroup).toBeUndefined();
  });

  it('gives published URLs once published: the default section and site spaces at their parent, share keys on share-link sites', async () => {
    const [a, b, c] = await spaces('Alpha', 'Beta', 'Gamma');
    const created = await createSite({ visibility: 'share-link' });
    const first = await addSection(created.id, a, 'First');
    const second = await addSection(created.id, b, 'Second');
    const inSecond = await addSiteSpace(created.id, c, second.id);
    const unpublished = await published(created.id, '?shareKey=k1');
    expect(unpublished.site.urls.published).toBeUndefined();
    expect(unpublished.structure.structure.map((section: any) => section.urls)).toEqual([{}, {}]);
    ok(await h().owner.post(`${site(created.id)}/publish`));
    ok(await h().owner.patch(site(created.id), { hostname: 'docs.acme.test' }));
    const shared = await published(created.id, '?shareKey=k1');
    expect(shared.site.urls.published).toBe('https://docs.acme.test?share=k1');
    expect(shared.structure.structure.map((section: any) => section.urls.published)).toEqual(['https://docs.acme.test?share=k1', 'https://docs.acme.test/second?share=k1']);
    expect(shared.structure.structure[1].siteSpaces.map((item: any) => item.urls.published)).toEqual([
      'https://docs.acme.test/second?share=k1',
      `https://docs.acme.test/second/${inSecond.path}?share=k1`,
    ]);
    expect(shared.structure.structure[0].siteSpaces[0].id).toBe(first.siteSpaces[0].id);
    // Without a share key, or on a site of another visibility, the URLs carry none.
    expect((await published(created.id)).site.urls.published).toBe('https://docs.acme.test');
    ok(await h().owner.patch(site(created.id), { visibility: 'public' }));
    expect((await published(created.id, '?shareKey=k1')).structure.structure[1].urls.published).toBe('https://docs.acme.test/second');
    const bad = await h().owner.get(`${site(created.id)}/published?shareKey=not%20a%20key`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('shareKey: must contain only letters, digits, _ and -');
  });

  it('is read by members with a role, refused to guests (403) and to non-members (404)', async () => {
    const created = await createSite({ title: 'Readable' });
    for (const role of ['create', 'review', 'edit', 'comment', 'read'] as const) {
      const caller = await h().user(role);
      expect((await caller.get(`${site(created.id)}/published`)).status, role).toBe(200);
    }
    expect((await (await h().user(null)).get(`${site(created.id)}/published`)).status).toBe(403);
    expect((await (await h().organization()).owner.get(`${site(created.id)}/published`)).status).toBe(404);
    expect((await h().owner.get(`${site('no-such-site')}/published`)).status).toBe(404);
  });
});
