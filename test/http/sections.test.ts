import { expect, it } from 'vitest';
import type { MemberRole } from '../../src/core/roles.js';
import { expectRefusals } from './bad-input.js';
import { httpSuite, walkPages } from './harness.js';
import { SECTION_KEYS, siteHelpers } from './site-helpers.js';

/** The section endpoints: list, add (with its first site space), patch, delete and move. */

httpSuite('sections', (h) => {
  const { site, ok, createSite, spaces, addSection, addSiteSpace, addGroup, stored, outline, setSchema, space, published } = siteHelpers(h);
  const sections = (siteId: string) => `${site(siteId)}/sections`;
  const at = (siteId: string, sectionId: string) => `${sections(siteId)}/${sectionId}`;
  const sectionRef = (siteSection: string) => ({ type: 'site-section', siteSection });

  it('adds a section with 201 and every field; its space becomes its first and default site space', async () => {
    const [a] = await spaces('Getting Started');
    const created = await createSite({ title: 'Docs' });
    const response = await h().owner.post(sections(created.id), { spaceId: a });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(SECTION_KEYS);
    const [siteSpace] = response.body.siteSpaces;
    expect(response.body).toEqual({
      object: 'site-section',
      id: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
      title: 'Getting Started',
      default: true,
      path: 'getting-started',
      siteSpaces: [expect.objectContaining({ object: 'site-space', section: response.body.id, default: true, path: 'getting-started' })],
      urls: {},
    });
    expect(siteSpace.space.id).toBe(a);
    expect(ok(await h().owner.get(sections(created.id))).items).toEqual([response.body]);
    const site2 = ok(await h().owner.get(site(created.id)));
    expect(site2.siteSpaces).toBe(1);
    expect(site2.features.map((feature: any) => feature.id)).toEqual(['sites-sections']);
  });

  it('titles a section after its space unless given one (2 to 64 characters), with a free path', async () => {
    const [a, b, c] = await spaces('Guide', 'Guide', 'x');
    const created = await createSite();
    expect(await addSection(created.id, a)).toMatchObject({ title: 'Guide', path: 'guide', default: true });
    expect(await addSection(created.id, b)).toMatchObject({ title: 'Guide', path: 'guide-2', default: false });
    // A space title too short to be a section title gives way to the default one.
    expect(await addSection(created.id, c)).toMatchObject({ title: 'Untitled', path: 'untitled' });
    expect(await addSection(created.id, c, 'ab')).toMatchObject({ title: 'ab', path: 'ab' });
    expect((await addSection(created.id, c, 't'.repeat(64))).title).toBe('t'.repeat(64));
    const before = await stored();
    const other = await h().organization();
    const foreign = await space({}, other.owner, other.organizationId);
    await expectRefusals((body) => h().owner.post(sections(created.id), body), [
      [{}, /^spaceId: is required$/],
      [{ title: 'No space' }, /^spaceId: is required$/],
      [{ spaceId: a, title: 'x' }, /^title: must be 2 to 64 characters$/],
      [{ spaceId: a, title: 't'.repeat(65) }, /^title: must be 2 to 64 characters$/],
      [{ spaceId: a, title: null }, /^title: /],
      [{ spaceId: 'no-such-space' }, /^spaceId: no space no-such-space in organization /],
      [{ spaceId: foreign.id }, /^spaceId: no space /],
    ]);
    expect(await stored()).toEqual(before);
  });

  it("shows a section titled after its space as Untitled to members who may not read that space, also once the space is renamed, until it gets a title of its own", async () => {
    const [secret] = await spaces('Secret plans');
    await h().owner.patch(`/v1/spaces/${secret}`, { defaultLevel: null });
    const created = await createSite();
    const section = await addSection(created.id, secret);
    const reader = await h().user('read');
    const titleFor = async (caller: typeof reader) => ok(await caller.get(sections(created.id))).items[0].title;
    expect([await titleFor(h().owner), await titleFor(reader)]).toEqual(['Secret plans', 'Untitled']);
    // The section keeps the title it took; the space's new title no longer matches it.
    await h().owner.patch(`/v1/spaces/${secret}`, { title: 'Renamed' });
    expect([await titleFor(h().owner), await titleFor(reader)]).toEqual(['Secret plans', 'Untitled']);
    // A title given to the section is the site's, shown to every member.
    ok(await h().owner.patch(at(created.id, section.id), { title: 'Secret plans' }));
    expect([await titleFor(h().owner), await titleFor(reader)]).toEqual(['Secret plans', 'Secret plans']);
  });

  it('turns the site spaces at the root into a first section when the site gets its first section', async () => {
    const [a, b, c] = await spaces('A', 'B', 'C');
    const created = await createSite({ title: 'Handbook', spaces: [a, b] });
    const [ssA, ssB] = ok(await h().owner.get(`${site(created.id)}/site-spaces`)).items.map((item: any) => item.id);
    ok(await h().owner.patch(site(created.id), { defaultSiteSpace: ssB }));
    const added = await addSection(created.id, c, 'Reference');
    expect(added.default).toBe(false);
    const [gathered, second] = ok(await h().owner.get(sections(created.id))).items;
    expect(gathered).toMatchObject({ title: 'Handbook', path: 'handbook', default: true });
    expect(second.id).toBe(added.id);
    expect(await outline(created.id)).toEqual([
      { [`section:${gathered.id}*`]: [ssA, `${ssB}*`] },
      { [`section:${added.id}`]: [`${added.siteSpaces[0].id}*`] },
    ]);
    expect(ok(await h().owner.get(site(created.id))).siteSpaces).toBe(3);
  });

  it('lists sections in published order, grouped ones at their group place, and pages', async () => {
    const ids = await spaces('A', 'B', 'C', 'D');
    const created = await createSite();
    const made = [];
    for (const [i, id] of ids.entries()) made.push(await addSection(created.id, id, `Section ${i}`));
    // Group sections 2 and 0, in that order: the group sits at the end of the top level.
    const group = await addGroup(created.id, { title: 'Group', sections: [made[2].id, made[0].id] });
    const order = [made[1].id, made[3].id, made[2].id, made[0].id];
    const list = ok(await h().owner.get(sections(created.id)));
    expect(list.count).toBe(4);
    expect(list.items.map((item: any) => item.id)).toEqual(order);
    expect(list.items.map((item: any) => item.sectionGroup)).toEqual([undefined, undefined, group.id, group.id]);
    expect(list.items.map((item: any) => item.default)).toEqual([false, false, false, true]);
    for (const limit of [1, 3, 4]) expect((await walkPages(h().owner, sections(created.id), limit)).map((item) => item.id)).toEqual(order);
    await expectRefusals((query: string) => h().owner.get(`${sections(created.id)}?${query}`), [
      ['limit=0', /^limit: must be at least 1$/],
      ['limit=1001', /^limit: must be at most 1000$/],
      ['shareKey=a%2Fb', /^shareKey: must contain only letters, digits, _ and -$/],
    ]);
  });

  it('patches title, path, default site space, condition, icon and description with their set/unset/null rules', async () => {
    const [a, b, c] = await spaces('A', 'B', 'C');
    const created = await createSite();
    const section = await addSection(created.id, a, 'First');
    const other = await addSection(created.id, b, 'Second');
    const extra = await addSiteSpace(created.id, c, section.id);
    await setSchema(created.id);
    const updated = ok(
      await h().owner.patch(at(created.id, section.id), {
        title: 'Renamed',
        path: 'renamed',
        defaultSiteSpace: extra.id,
        condition: 'visitor.claims.isStaff || visitor.claims.unsigned.fromCampaign',
        icon: 'book-open',
        description: 'All about it',
      }),
    );
    expect(updated).toMatchObject({
      title: 'Renamed',
      path: 'renamed',
      condition: 'visitor.claims.isStaff || visitor.claims.unsigned.fromCampaign',
      icon: 'book-open',
      description: 'All about it',
    });
    expect(Object.keys(updated).sort()).toEqual([...SECTION_KEYS, 'condition', 'description', 'icon'].sort());
    expect(updated.siteSpaces.map((item: any) => [item.id, item.default])).toEqual([
      [section.siteSpaces[0].id, false],
      [extra.id, true],
    ]);
    // Absent fields stay; null removes condition, icon and description.
    expect(ok(await h().owner.patch(at(created.id, section.id), { title: 'Again' }))).toMatchObject({ title: 'Again', icon: 'book-open', description: 'All about it' });
    const cleared = ok(await h().owner.patch(at(created.id, section.id), { condition: null, icon: null, description: null }));
    expect(Object.keys(cleared).sort()).toEqual(SECTION_KEYS);
    expect(ok(await h().owner.patch(at(created.id, section.id), { title: 'xy', path: 'p'.repeat(100), icon: 'i'.repeat(50), description: 'd'.repeat(256) }))).toMatchObject({
      title: 'xy',
      path: 'p'.repeat(100),
    });
    expect(ok(await h().owner.patch(at(created.id, section.id), { description: '' })).description).toBe('');
    expect(ok(await h().owner.patch(at(created.id, section.id), { title: 't'.repeat(128), path: 'x' })).title).toBe('t'.repeat(128));
    const before = await stored();
    const taken = await h().owner.patch(at(created.id, section.id), { path: other.path });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe(`path: "${other.path}" is already the path of ${other.id} in site ${created.id}`);
    await expectRefusals((body) => h().owner.patch(at(created.id, section.id), body), [
      [{ title: 'x' }, /^title: must be 2 to 128 characters$/],
      [{ title: 't'.repeat(129) }, /^title: must be 2 to 128 characters$/],
      [{ title: null }, /^title: /],
      [{ path: '' }, /^path: must be 1 to 100 characters$/],
      [{ path: 'p'.repeat(101) }, /^path: must be 1 to 100 characters$/],
      [{ defaultSiteSpace: other.siteSpaces[0].id }, new RegExp(`^defaultSiteSpace: no site space ${other.siteSpaces[0].id} in section ${section.id}$`)],
      [{ defaultSiteSpace: 'no-such' }, /^defaultSiteSpace: no site space no-such in section /],
      [{ condition: '' }, /^condition: must be 1 to 1024 characters$/],
      [{ condition: 'c'.repeat(1025) }, /^condition: must be 1 to 1024 characters$/],
      [{ condition: 'visitor.claims.isGuest' }, /^condition: visitor\.claims\.isGuest is not a claim of the site's adaptive schema$/],
      [{ condition: 'isBeta' }, /^condition: isBeta is not a claim: conditions read visitor\.claims\.<name>$/],
      [{ condition: 'visitor.claims.isBeta; visitor.claims.isStaff' }, /^condition: a condition is one expression$/],
      [{ condition: '((' }, /^condition: is not a valid expression/],
      [{ icon: '' }, /^icon: must be 1 to 50 characters$/],
      [{ icon: 'i'.repeat(51) }, /^icon: must be 1 to 50 characters$/],
      [{ icon: 3 }, /^icon: /],
      [{ description: 'd'.repeat(257) }, /^description: must be at most 256 characters$/],
      [{ description: 5 }, /^description: /],
    ]);
    expect(await stored()).toEqual(before);
  });

  it('refuses a condition while the site has no adaptive schema, unless it reads no claim', async () => {
    const [a] = await spaces('A');
    const created = await createSite();
    const section = await addSection(created.id, a);
    const refused = await h().owner.patch(at(created.id, section.id), { condition: 'visitor.claims.isBeta' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(
      `condition: visitor.claims.isBeta is not a claim of the site's adaptive schema (site ${created.id} has no adaptive schema yet: PUT one first)`,
    );
    expect(ok(await h().owner.patch(at(created.id, section.id), { condition: 'false' })).condition).toBe('false');
  });

  it('deletes with 205 and its site spaces; the default section moves to the first remaining one', async () => {
    const [a, b, c] = await spaces('A', 'B', 'C');
    const created = await createSite();
    const first = await addSection(created.id, a, 'First');
    const second = await addSection(created.id, b, 'Second');
    const third = await addSection(created.id, c, 'Third');
    ok(await h().owner.post(`${at(created.id, second.id)}/move`, {}));
    const deleted = await h().owner.delete(at(created.id, first.id));
    expect(deleted.status).toBe(205);
    expect(deleted.text).toBe('');
    expect(ok(await h().owner.get(sections(created.id))).items.map((item: any) => [item.id, item.default])).toEqual([
      [third.id, true],
      [second.id, false],
    ]);
    expect(ok(await h().owner.get(site(created.id))).siteSpaces).toBe(2);
    expect(ok(await h().owner.get(`${site(created.id)}/site-spaces`)).items.map((item: any) => item.section)).toEqual([third.id, second.id]);
    expect((await h().owner.delete(at(created.id, first.id))).status).toBe(404);
    expect((await h().owner.delete(at(created.id, third.id))).status).toBe(205);
    expect((await h().owner.delete(at(created.id, second.id))).status).toBe(205);
    expect((await addSiteSpace(created.id, a)).section).toBeUndefined();
    expect((await published(created.id)).structure.type).toBe('siteSpaces');
    expect(ok(await h().owner.get(`/v1/spaces/${b}`)).id).toBe(b);
  });

  it('moves among the top level or within its group; to the end without a position', async () => {
    const ids = await spaces('A', 'B', 'C', 'D', 'E');
    const created = await createSite();
    const made = [];
    for (const id of ids) made.push((await addSection(created.id, id)).id);
    const [a, b, c, d, e] = made;
    const group = await addGroup(created.id, { title: 'Group', sections: [d, e] });
    const top = async () => (await outline(created.id)).map((entry: any) => Object.keys(entry)[0].replace('*', ''));
    expect(await top()).toEqual([`section:${a}`, `section:${b}`, `section:${c}`, `group:${group.id}`]);
    const moved = await h().owner.post(`${at(created.id, a)}/move`, { position: { after: sectionRef(c) } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: a, default: true });
    expect(await top()).toEqual([`section:${b}`, `section:${c}`, `section:${a}`, `group:${group.id}`]);
    ok(await h().owner.post(`${at(created.id, b)}/move`, {}));
    expect(await top()).toEqual([`section:${c}`, `section:${a}`, `group:${group.id}`, `section:${b}`]);
    ok(await h().owner.post(`${at(created.id, e)}/move`, { position: { before: sectionRef(d) } }));
    expect(ok(await h().owner.get(sections(created.id))).items.map((item: any) => item.id)).toEqual([c, a, e, d, b]);
    const before = await stored();
    await expectRefusals((body) => h().owner.post(`${at(created.id, c)}/move`, body), [
      [{ position: { after: sectionRef(d) } }, new RegExp(`^position\\.after: site-section ${d} is not in the top level of site ${created.id}$`)],
      [{ position: { before: sectionRef(c) } }, /^position\.before: cannot place site-section .* relative to itself$/],
      [{ position: { before: { type: 'site-section-group', id: group.id } } }, /^position\.before\.type: must be "site-section"/],
      [{ position: { before: { type: 'site-section', id: a } } }, /^position\.before\.siteSection: is required$/],
      [{ position: { after: sectionRef(b), before: sectionRef(a) } }, /^position: .* are not neighbours/],
    ]);
    await expectRefusals((body) => h().owner.post(`${at(created.id, e)}/move`, body), [
      [{ position: { after: sectionRef(a) } }, new RegExp(`^position\\.after: site-section ${a} is not in section group ${group.id}$`)],
    ]);
    expect((await h().owner.post(`${at(created.id, b)}/move`, {})).status).toBe(409);
    expect((await h().owner.post(`${at(created.id, 'no-such')}/move`, {})).status).toBe(404);
    expect(await stored()).toEqual(before);
  });

  it('lets the create role and above change sections, the read role list them, and nobody else', async () => {
    const [a, b] = await spaces('A', 'B');
    const created = await createSite();
    const section = await addSection(created.id, a);
    const before = await stored();
    for (const role of ['review', 'edit', 'comment', 'read', null] as (MemberRole | null)[]) {
      const caller = await h().user(role);
      expect((await caller.post(sections(created.id), { spaceId: b })).status, `add as ${role}`).toBe(403);
      expect((await caller.patch(at(created.id, section.id), { title: 'Mine' })).status, `patch as ${role}`).toBe(403);
      expect((await caller.delete(at(created.id, section.id))).status, `delete as ${role}`).toBe(403);
      expect((await caller.post(`${at(created.id, section.id)}/move`, {})).status, `move as ${role}`).toBe(403);
      expect((await caller.get(sections(created.id))).status, `list as ${role}`).toBe(role === null ? 403 : 200);
    }
    expect(await stored()).toEqual(before);
    const creator = await h().user('create');
    expect((await creator.post(sections(created.id), { spaceId: b })).status).toBe(201);
    const stranger = (await h().organization()).owner;
    expect((await stranger.get(sections(created.id))).status).toBe(404);
    expect((await h().owner.patch(at(created.id, 'no-such'), { title: 'Ghost' })).status).toBe(404);
  });
});
