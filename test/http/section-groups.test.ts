import { expect, it } from 'vitest';
import type { MemberRole } from '../../src/core/roles.js';
import { expectRefusals } from './bad-input.js';
import { httpSuite, walkPages } from './harness.js';
import { siteHelpers } from './site-helpers.js';

/** The section group endpoints: list, add, patch, delete, add and remove a section, move. */

httpSuite('section groups', (h) => {
  const { site, ok, createSite, spaces, addSection, addGroup, stored, outline } = siteHelpers(h);
  const groups = (siteId: string) => `${site(siteId)}/section-groups`;
  const at = (siteId: string, groupId: string) => `${groups(siteId)}/${groupId}`;

  /** A site with `n` sections (one space each), their ids in order. */
  async function siteWithSections(n: number) {
    const created = await createSite();
    const ids = await spaces(...Array.from({ length: n }, (_, i) => `Space ${i}`));
    const sections: string[] = [];
    for (const [i, id] of ids.entries()) sections.push((await addSection(created.id, id, `Section ${i}`)).id);
    return { siteId: created.id, sections };
  }

  /** The top level of a site, as `section:<id>` and `group:<id>` with its section ids. */
  async function top(siteId: string) {
    return (await outline(siteId)).map((entry: any) => {
      const [key] = Object.keys(entry);
      const name = key.replace('*', '');
      return name.startsWith('group:') ? { [name]: entry[key].map((section: any) => Object.keys(section)[0].replace('*', '').slice('section:'.length)) } : name;
    });
  }

  it('adds a group with 201 and every field; its sections move into it in the order given', async () => {
    const { siteId, sections: [a, b, c] } = await siteWithSections(3);
    const response = await h().owner.post(groups(siteId), { title: 'Guides', icon: 'book', sections: [c, a] });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['icon', 'id', 'object', 'sections', 'title']);
    expect(response.body).toMatchObject({ object: 'site-section-group', id: expect.stringMatching(/^[A-Za-z0-9_-]+$/), title: 'Guides', icon: 'book' });
    expect(response.body.sections.map((section: any) => [section.id, section.sectionGroup])).toEqual([
      [c, response.body.id],
      [a, response.body.id],
    ]);
    expect(await top(siteId)).toEqual([`section:${b}`, { [`group:${response.body.id}`]: [c, a] }]);
    // Without sections or icon; a title of 1 and of 100 characters.
    const empty = await addGroup(siteId, { title: 'x' });
    expect(empty).toEqual({ object: 'site-section-group', id: empty.id, title: 'x', sections: [] });
    expect((await addGroup(siteId, { title: 't'.repeat(100), icon: null })).icon).toBeUndefined();
    // A section is in at most one group: joining a new group takes it out of the old one.
    const moved = await addGroup(siteId, { title: 'Later', sections: [a] });
    expect(moved.sections.map((section: any) => section.id)).toEqual([a]);
    expect(ok(await h().owner.get(groups(siteId))).items.map((group: any) => [group.id, group.sections.map((s: any) => s.id)])).toEqual([
      [response.body.id, [c]],
      [empty.id, []],
      [expect.any(String), []],
      [moved.id, [a]],
    ]);
  });

  it('refuses a bad group with 400 naming the field, and stores nothing', async () => {
    const { siteId, sections: [a] } = await siteWithSections(1);
    const other = await siteWithSections(1);
    const before = await stored();
    await expectRefusals((body) => h().owner.post(groups(siteId), body), [
      [{}, /^title: is required$/],
      [{ title: '' }, /^title: must be 1 to 100 characters$/],
      [{ title: 't'.repeat(101) }, /^title: must be 1 to 100 characters$/],
      [{ title: 'G', icon: '' }, /^icon: must be 1 to 50 characters$/],
      [{ title: 'G', icon: 'i'.repeat(51) }, /^icon: must be 1 to 50 characters$/],
      [{ title: 'G', sections: a }, /^sections: /],
      [{ title: 'G', sections: [a, a] }, new RegExp(`^sections\\.1: section ${a} is listed twice$`)],
      [{ title: 'G', sections: [a, 'no-such'] }, new RegExp(`^sections\\.1: No section no-such in site ${siteId}$`)],
      [{ title: 'G', sections: [other.sections[0]] }, /^sections\.0: No section /],
    ]);
    expect(await stored()).toEqual(before);
  });

  it('lists groups in their order on the top level, with their sections, and pages', async () => {
    const { siteId, sections } = await siteWithSections(3);
    const made = [];
    for (const [i, section] of sections.entries()) made.push((await addGroup(siteId, { title: `G${i}`, sections: [section] })).id);
    ok(await h().owner.post(`${at(siteId, made[0])}/move`, {}));
    const order = [made[1], made[2], made[0]];
    const list = ok(await h().owner.get(groups(siteId)));
    expect(list.count).toBe(3);
    expect(list.items.map((group: any) => group.id)).toEqual(order);
    expect(list.items.map((group: any) => group.sections[0].id)).toEqual([sections[1], sections[2], sections[0]]);
    for (const limit of [1, 2, 3]) expect((await walkPages(h().owner, groups(siteId), limit)).map((group) => group.id)).toEqual(order);
    await expectRefusals((query: string) => h().owner.get(`${groups(siteId)}?${query}`), [
      ['limit=0', /^limit: must be at least 1$/],
      ['limit=1001', /^limit: must be at most 1000$/],
    ]);
  });

  it('patches the title and the icon; absent fields stay, icon null removes it', async () => {
    const { siteId } = await siteWithSections(1);
    const group = await addGroup(siteId, { title: 'Before', icon: 'gear' });
    expect(ok(await h().owner.patch(at(siteId, group.id), { title: 'After' }))).toMatchObject({ title: 'After', icon: 'gear' });
    expect(ok(await h().owner.patch(at(siteId, group.id), { icon: 'star' }))).toMatchObject({ title: 'After', icon: 'star' });
    const cleared = ok(await h().owner.patch(at(siteId, group.id), { icon: null }));
    expect(cleared.icon).toBeUndefined();
    expect(ok(await h().owner.patch(at(siteId, group.id), {}))).toEqual(cleared);
    const before = await stored();
    await expectRefusals((body) => h().owner.patch(at(siteId, group.id), body), [
      [{ title: '' }, /^title: must be 1 to 100 characters$/],
      [{ title: 't'.repeat(101) }, /^title: must be 1 to 100 characters$/],
      [{ title: null }, /^title: /],
      [{ icon: 'i'.repeat(51) }, /^icon: must be 1 to 50 characters$/],
    ]);
    expect(await stored()).toEqual(before);
    expect((await h().owner.patch(at(siteId, 'no-such'), { title: 'Ghost' })).status).toBe(404);
  });

  it('deletes with 205: its sections go back to the top level in its place and order', async () => {
    const { siteId, sections: [a, b, c, d] } = await siteWithSections(4);
    const group = await addGroup(siteId, { title: 'Middle', sections: [c, b] });
    ok(await h().owner.post(`${at(siteId, group.id)}/move`, { position: { after: { type: 'site-section', id: a } } }));
    expect(await top(siteId)).toEqual([`section:${a}`, { [`group:${group.id}`]: [c, b] }, `section:${d}`]);
    const deleted = await h().owner.delete(at(siteId, group.id));
    expect(deleted.status).toBe(205);
    expect(deleted.text).toBe('');
    expect(await top(siteId)).toEqual([`section:${a}`, `section:${c}`, `section:${b}`, `section:${d}`]);
    expect(ok(await h().owner.get(`${site(siteId)}/sections`)).items.map((section: any) => section.sectionGroup)).toEqual([undefined, undefined, undefined, undefined]);
    expect(ok(await h().owner.get(groups(siteId))).count).toBe(0);
    expect((await h().owner.delete(at(siteId, group.id))).status).toBe(404);
    // A group at either end of the top level gives its place too.
    const last = await addGroup(siteId, { title: 'Last', sections: [a] });
    expect((await h().owner.delete(at(siteId, last.id))).status).toBe(205);
    expect(await top(siteId)).toEqual([`section:${c}`, `section:${b}`, `section:${d}`, `section:${a}`]);
  });

  it('adds a section to a group (201, at its end) and removes it (205, right after the group)', async () => {
    const { siteId, sections: [a, b, c] } = await siteWithSections(3);
    const group = await addGroup(siteId, { title: 'G', sections: [a] });
    const other = await addGroup(siteId, { title: 'H' });
    const added = await h().owner.post(`${at(siteId, group.id)}/sections`, { sectionId: c });
    expect(added.status).toBe(201);
    expect(added.body.sections.map((section: any) => section.id)).toEqual([a, c]);
    expect(await top(siteId)).toEqual([`section:${b}`, { [`group:${group.id}`]: [a, c] }, { [`group:${other.id}`]: [] }]);
    // Moving to another group leaves the first one.
    ok(await h().owner.post(`${at(siteId, other.id)}/sections`, { sectionId: a }), 201);
    expect(await top(siteId)).toEqual([`section:${b}`, { [`group:${group.id}`]: [c] }, { [`group:${other.id}`]: [a] }]);
    const before = await stored();
    const twice = await h().owner.post(`${at(siteId, other.id)}/sections`, { sectionId: a });
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe(`Section ${a} is already in section group ${other.id}`);
    await expectRefusals((body) => h().owner.post(`${at(siteId, group.id)}/sections`, body), [
      [{}, /^sectionId: is required$/],
      [{ sectionId: 'no-such' }, /^sectionId: No section no-such in site /],
    ]);
    expect((await h().owner.post(`${at(siteId, 'no-such')}/sections`, { sectionId: b })).status).toBe(404);
    const notThere = await h().owner.delete(`${at(siteId, group.id)}/sections/${b}`);
    expect(notThere.status).toBe(404);
    expect(notThere.body.error.message).toBe(`Section ${b} is not in section group ${group.id}`);
    expect((await h().owner.delete(`${at(siteId, group.id)}/sections/no-such`)).status).toBe(404);
    expect(await stored()).toEqual(before);
    const removed = await h().owner.delete(`${at(siteId, group.id)}/sections/${c}`);
    expect(removed.status).toBe(205);
    expect(removed.text).toBe('');
    expect(await top(siteId)).toEqual([`section:${b}`, { [`group:${group.id}`]: [] }, `section:${c}`, { [`group:${other.id}`]: [a] }]);
  });

  it('moves among the top level with section and group references; to the end without a position', async () => {
    const { siteId, sections: [a, b, c] } = await siteWithSections(3);
    const g1 = await addGroup(siteId, { title: 'G1', sections: [c] });
    const g2 = await addGroup(siteId, { title: 'G2' });
    expect(await top(siteId)).toEqual([`section:${a}`, `section:${b}`, { [`group:${g1.id}`]: [c] }, { [`group:${g2.id}`]: [] }]);
    const moved = await h().owner.post(`${at(siteId, g2.id)}/move`, { position: { before: { type: 'site-section', id: a } } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: g2.id, title: 'G2', sections: [] });
    expect(await top(siteId)).toEqual([{ [`group:${g2.id}`]: [] }, `section:${a}`, `section:${b}`, { [`group:${g1.id}`]: [c] }]);
    ok(await h().owner.post(`${at(siteId, g1.id)}/move`, { position: { after: { type: 'site-section-group', id: g2.id } } }));
    expect(await top(siteId)).toEqual([{ [`group:${g2.id}`]: [] }, { [`group:${g1.id}`]: [c] }, `section:${a}`, `section:${b}`]);
    ok(await h().owner.post(`${at(siteId, g2.id)}/move`, {}));
    expect(await top(siteId)).toEqual([{ [`group:${g1.id}`]: [c] }, `section:${a}`, `section:${b}`, { [`group:${g2.id}`]: [] }]);
    const before = await stored();
    await expectRefusals((body) => h().owner.post(`${at(siteId, g1.id)}/move`, body), [
      [{ position: { after: { type: 'site-section', id: c } } }, new RegExp(`^position\\.after: site-section ${c} is not in the top level of site ${siteId}$`)],
      [{ position: { after: { type: 'site-section-group', id: g1.id } } }, /^position\.after: cannot place site-section-group .* relative to itself$/],
      [{ position: { after: { type: 'site-section', siteSection: a } } }, /^position\.after\.id: is required$/],
      [{ position: { after: { type: 'site-space', id: a } } }, /^position\.after\.type: /],
      [{ position: { after: { type: 'site-section', id: b }, before: { type: 'site-section', id: a } } }, /^position: .* are not neighbours/],
    ]);
    expect((await h().owner.post(`${at(siteId, g1.id)}/move`, { position: { before: { type: 'site-section', id: a } } })).status).toBe(409);
    expect((await h().owner.post(`${at(siteId, 'no-such')}/move`, {})).status).toBe(404);
    expect(await stored()).toEqual(before);
  });

  it('lets the create role and above change groups, the read role list them, and nobody else', async () => {
    const { siteId, sections: [a] } = await siteWithSections(1);
    const group = await addGroup(siteId, { title: 'G' });
    const before = await stored();
    for (const role of ['review', 'edit', 'comment', 'read', null] as (MemberRole | null)[]) {
      const caller = await h().user(role);
      expect((await caller.post(groups(siteId), { title: 'Mine' })).status, `add as ${role}`).toBe(403);
      expect((await caller.patch(at(siteId, group.id), { title: 'Mine' })).status, `patch as ${role}`).toBe(403);
      expect((await caller.delete(at(siteId, group.id))).status, `delete as ${role}`).toBe(403);
      expect((await caller.post(`${at(siteId, group.id)}/sections`, { sectionId: a })).status, `add section as ${role}`).toBe(403);
      expect((await caller.delete(`${at(siteId, group.id)}/sections/${a}`)).status, `remove section as ${role}`).toBe(403);
      expect((await caller.post(`${at(siteId, group.id)}/move`, {})).status, `move as ${role}`).toBe(403);
      expect((await caller.get(groups(siteId))).status, `list as ${role}`).toBe(role === null ? 403 : 200);
    }
    expect(await stored()).toEqual(before);
    const creator = await h().user('create');
    expect((await creator.post(`${at(siteId, group.id)}/sections`, { sectionId: a })).status).toBe(201);
  });
});
